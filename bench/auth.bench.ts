/**
 * What signing in costs, and what a signed-in page costs, measured in this same run:
 *
 * 1. Argon2id: the time of one `hash` and one `verify` of the framework's hasher
 *    (adapters/password/argon2-password-hasher.ts, OWASP's parameters), with tinybench, in
 *    this process while no server runs; `verify` on every core at once; and the CPU time of
 *    each (the process's CPU clock), which other processes on a busy machine inflate much less
 *    than the wall clock. cores / verify is the ceiling of any login rate on this machine.
 * 2. Logins per second through the whole pipeline of the default app (`createDefaultApp`):
 *    successful `POST /login`s (session cookie, CSRF token, throttle, login lock, user lookup,
 *    Argon2 verify, new session, 303), against that ceiling; and the server's CPU time per
 *    login, with a lower bound of Argon2's share of it.
 * 3. A small page behind `.requireAuth()` that renders `ctx.user`, its user loaded from SQLite
 *    (a file) and from PostgreSQL on every request, against the same page for a guest on the
 *    same server: signed-in/guest is the cost of loading the user, PostgreSQL/SQLite that of
 *    the database; the server's CPU time per request shows the same without the noise of
 *    other processes (PostgreSQL's own CPU time is not in it).
 *
 * Two servers (auth.server.ts), the same app on a SQLite file and on a PostgreSQL database
 * made for the run (`fw_bench_<random>` on DATABASE_URL's server, or the local default; dropped
 * at the end), each in a child process; autocannon loads them from here over 127.0.0.1. Rows
 * are measured in rounds, the servers taking turns, and the tables show medians. The bench
 * has no targets: it informs (a PostgreSQL that cannot be reached leaves its column empty).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { BenchDatabase } from './support/bench-database.js';
import { ChildServers } from './support/child-servers.js';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { Bench } from 'tinybench';
import { Argon2PasswordHasher, OWASP_ARGON2ID } from '../adapters/password/argon2-password-hasher.js';
import type { BenchUser, CpuMessage, ReadyMessage } from './auth.server.js';

// Whichever this file is, TypeScript through tsx or compiled JavaScript in dist/, so is the server.
const SERVER_SCRIPT = fileURLToPath(new URL(`./auth.server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const CORES = availableParallelism();
/** libuv's threadpool, where @node-rs/argon2 runs: at most this many hashes at once per process. */
const THREADPOOL = Number(process.env['UV_THREADPOOL_SIZE'] ?? 4);
/** Part 1: tinybench's time per task (and at least HASH_ITERATIONS calls); CPU_CALLS calls timed on the CPU clock. */
const HASH_TIME_MS = 1500;
const HASH_ITERATIONS = 10;
const CPU_CALLS = 12;
/** Part 2: rounds of each server's logins, the servers taking turns. */
const LOGIN_ROUNDS = 3;
/** Part 2: concurrent logins; more than the cores, so Argon2 keeps them all busy. */
const LOGIN_CONNECTIONS = 4;
/**
 * Part 2: seconds of a round (after a first warm-up of LOGIN_WARMUP_SECONDS); login forms are
 * opened beforehand for LOGIN_FORMS_MARGIN times the highest rate seen so far.
 */
const LOGIN_SECONDS = 3;
const LOGIN_WARMUP_SECONDS = 1;
const LOGIN_FORMS_MARGIN = 2;
/**
 * Part 3: PAGE_ROUNDS rounds; in each, a server's guest and signed-in pages take turns A-B-B-A
 * in halves of PAGE_HALF_SECONDS (which cancels a load that drifts during the round), after a
 * first warm-up of PAGE_WARMUP_SECONDS each.
 */
const PAGE_ROUNDS = 5;
const PAGE_CONNECTIONS = 10;
const PAGE_HALF_SECONDS = 1;
const PAGE_WARMUP_SECONDS = 1;
/** Past this the bench gives up (and says so); the whole run takes about a minute and a half. */
const DEADLINE_MS = 170_000;

const BENCH_PASSWORD = 'correct horse battery staple';

type Engine = 'sqlite' | 'postgres';
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Server {
  engine: Engine;
  url: string;
  users: BenchUser[];
  child: ChildProcess;
}

const children = new ChildServers();
const dir = mkdtempSync(join(tmpdir(), 'fw-auth-bench-'));
const benchDatabase = new BenchDatabase();


async function cleanUp(): Promise<void> {
  children.killAll();
  await benchDatabase.drop();
  rmSync(dir, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  console.error(`\nThe auth bench ran past ${DEADLINE_MS / 1000} s and was stopped.`);
  void cleanUp().finally(() => process.exit(1));
}, DEADLINE_MS);
deadline.unref();


function start(engine: Engine, databaseUrl: string): Promise<Server> {
  // The same Node with the same loader (tsx) as this process.
  const child = spawn(process.execPath, [...process.execArgv, SERVER_SCRIPT, dir, databaseUrl], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${engine} server did not start within 60 s`)), 60_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      const ready = message as ReadyMessage;
      resolve({ engine, url: ready.url, users: ready.users, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${engine} server exited (code ${code}) before listening`));
    });
  });
}

/** The server process's CPU time so far, in ms: its main thread and its threads (Argon2's). */
function serverCpu(server: Server): Promise<number> {
  return new Promise((resolve) => {
    server.child.once('message', (message) => {
      const { cpu } = message as CpuMessage;
      resolve((cpu.user + cpu.system) / 1000);
    });
    server.child.send('cpu');
  });
}

function stop(server: Server): Promise<void> {
  return children.stop(server.child);
}

/** Cookie headers (`name=value; …`) from an answer's Set-Cookie headers, as a browser sends them back. */
function cookieHeader(response: Response): string | null {
  const pairs = response.headers.getSetCookie().map((setCookie) => setCookie.split(';')[0] ?? '');
  return pairs.length === 0 ? null : pairs.join('; ');
}

let clients = 0;

/**
 * A client address of its own for each browser, sent as X-Forwarded-For: the servers trust
 * 127.0.0.1 as their proxy (TRUSTED_PROXIES), as behind a load balancer. The login pages'
 * throttle (30 requests a minute per address) and the login lock (per email and address) then
 * count per browser, as in production; from one address the throttle would allow 15 logins a
 * minute, which measures the throttle, not the login.
 */
function nextClient(): string {
  const n = clients++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** A browser that opened the login form: its address, its new guest session's cookie and the form's CSRF token. */
interface LoginForm {
  ip: string;
  cookie: string;
  token: string;
}

async function openLoginForm(url: string): Promise<LoginForm> {
  const ip = nextClient();
  const response = await fetch(`${url}/login`, { headers: { 'x-forwarded-for': ip } });
  const body = await response.text();
  const cookie = cookieHeader(response);
  const token = /name="_token" value="([^"]*)"/u.exec(body)?.[1];
  if (response.status !== 200 || cookie === null || token === undefined) throw new Error(`GET ${url}/login answered ${response.status} without a session cookie or a token`);
  return { ip, cookie, token };
}

async function openLoginForms(url: string, count: number): Promise<LoginForm[]> {
  const forms: LoginForm[] = [];
  // A few at a time, as browsers would.
  for (let n = 0; n < count; n += 8) {
    forms.push(...(await Promise.all(Array.from({ length: Math.min(8, count - n) }, () => openLoginForm(url)))));
  }
  return forms;
}

function loginBody(form: LoginForm, user: BenchUser, password = user.password): string {
  return new URLSearchParams({ _token: form.token, email: user.email, password }).toString();
}

/** What a login's 303 says: home on a success, back to the form (the Referer) on a failure. */
function loginOutcome(status: number, location: string | undefined): 'succeeded' | 'failed' | 'other' {
  if (status !== 303 || location === undefined) return 'other';
  if (location === '/') return 'succeeded';
  return location.endsWith('/login') ? 'failed' : 'other';
}

/** Signs a user in as a browser does (the form, then the post) and answers the signed-in cookie. */
async function signIn(server: Server, user: BenchUser): Promise<string> {
  const form = await openLoginForm(server.url);
  const response = await fetch(`${server.url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: form.cookie, 'x-forwarded-for': form.ip, referer: `${server.url}/login`, 'content-type': 'application/x-www-form-urlencoded' },
    body: loginBody(form, user),
  });
  await response.text();
  const cookie = cookieHeader(response);
  const outcome = loginOutcome(response.status, response.headers.get('location') ?? undefined);
  if (outcome !== 'succeeded' || cookie === null) throw new Error(`POST ${server.url}/login answered ${response.status} (${outcome}) for ${user.email}`);
  return cookie;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

// ——— 1. Argon2id ————————————————————————————————————————————————————————————————

interface HashCost {
  name: string;
  meanMs: number;
  p50Ms: number;
  samples: number;
  /** Calls per second: for the parallel task, verifies (CORES per call). */
  perSecond: number;
  /** CPU time of one hash or verify: this process's CPU clock over CPU_CALLS calls (verifies, for the parallel task). */
  cpuMs: number;
}

/** This process's CPU time of `calls` calls of `work`, one after the other, per call in ms. */
async function cpuPerCall(calls: number, work: () => Promise<unknown>): Promise<number> {
  const before = process.cpuUsage();
  for (let n = 0; n < calls; n++) await work();
  const used = process.cpuUsage(before);
  return (used.user + used.system) / 1000 / calls;
}

async function measureHashCost(): Promise<HashCost[]> {
  const hasher = new Argon2PasswordHasher();
  const stored = await hasher.hash(BENCH_PASSWORD);
  if (!(await hasher.verify(stored, BENCH_PASSWORD))) throw new Error('the hasher does not verify its own hash');
  const hash = (): Promise<string> => hasher.hash(BENCH_PASSWORD);
  const verify = (): Promise<boolean> => hasher.verify(stored, BENCH_PASSWORD);
  const parallelVerify = async (): Promise<void> => {
    await Promise.all(Array.from({ length: CORES }, verify));
  };
  const bench = new Bench({ time: HASH_TIME_MS, iterations: HASH_ITERATIONS, warmup: true });
  bench.add('hash', hash).add('verify', verify).add(`verify ×${CORES} at once`, parallelVerify);
  await bench.run();
  // Verifies at once cost more CPU time each than one alone: they share the memory bus and caches.
  const cpu = [await cpuPerCall(CPU_CALLS, hash), await cpuPerCall(CPU_CALLS, verify), (await cpuPerCall(Math.ceil(CPU_CALLS / CORES), parallelVerify)) / CORES];
  return bench.tasks.map((task, index) => {
    const result = task.result;
    if (!('latency' in result)) throw new Error(`tinybench did not measure ${task.name}`);
    const perCall = index === 2 ? CORES : 1;
    return {
      name: task.name,
      meanMs: result.latency.mean,
      p50Ms: result.latency.p50,
      samples: result.latency.samplesCount,
      perSecond: (1000 * perCall) / result.latency.mean,
      cpuMs: cpu[index] ?? NaN,
    };
  });
}

// ——— 2. Logins ——————————————————————————————————————————————————————————————————

interface LoginRun {
  perSecond: number;
  p50: number;
  p99: number;
  /** The server's CPU time per successful login, ms. */
  cpuMs: number;
  /** Failed logins, other answers, errors, timeouts, and login forms used twice for want of new ones. */
  unexpected: number;
}

/**
 * Logins for `seconds`, each posting a login form (a new guest session and its token) opened
 * before the clock starts, the users taken in turn; logins/s counts the successes over
 * autocannon's time. Each form is posted once, as a browser posts it: a login rotates the
 * session and its token. Should the forms run out, they are posted again, and flagged.
 */
async function measureLogins(server: Server, seconds: number, forms: LoginForm[]): Promise<LoginRun> {
  const outcomes = { succeeded: 0, failed: 0, other: 0, reused: 0 };
  let next = 0;
  const cpuBefore = await serverCpu(server);
  const result = await autocannon({
    url: server.url,
    connections: LOGIN_CONNECTIONS,
    pipelining: 1,
    duration: seconds,
    headers: { 'content-type': 'application/x-www-form-urlencoded', referer: `${server.url}/login` },
    requests: [
      {
        method: 'POST',
        path: '/login',
        setupRequest: (request) => {
          const index = next++;
          if (index >= forms.length) outcomes.reused++;
          const form = forms[index % forms.length] as LoginForm;
          const user = server.users[index % server.users.length] as BenchUser;
          return { ...request, headers: { ...request.headers, cookie: form.cookie, 'x-forwarded-for': form.ip }, body: loginBody(form, user) };
        },
        onResponse: (status, _body, _context, headers) => {
          const location = headers?.['location'];
          outcomes[loginOutcome(status, typeof location === 'string' ? location : undefined)]++;
        },
      },
    ],
  });
  const cpu = (await serverCpu(server)) - cpuBefore;
  return {
    perSecond: outcomes.succeeded / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    cpuMs: cpu / outcomes.succeeded,
    unexpected: outcomes.failed + outcomes.other + outcomes.reused + result.errors + result.timeouts,
  };
}

// ——— 3. Pages —————————————————————————————————————————————————————————————————————

type Visitor = 'guest' | 'signed-in';
const PAGE_PATHS: Record<Visitor, string> = { guest: '/bench/page', 'signed-in': '/bench/me' };

interface PageRun {
  rps: number;
  p99: number;
  /** The server's CPU time per request, µs. */
  cpuUs: number;
  /** Non-2xx answers, errors and timeouts. */
  unexpected: number;
}

async function measurePage(server: Server, visitor: Visitor, cookie: string, seconds: number): Promise<PageRun> {
  const cpuBefore = await serverCpu(server);
  const result = await autocannon({ url: `${server.url}${PAGE_PATHS[visitor]}`, connections: PAGE_CONNECTIONS, pipelining: 1, headers: { cookie }, duration: seconds });
  const cpu = (await serverCpu(server)) - cpuBefore;
  return {
    rps: result.requests.total / result.duration,
    p99: result.latency.p99,
    cpuUs: (cpu * 1000) / result.requests.total,
    unexpected: result.non2xx + result.errors + result.timeouts,
  };
}

/** One round of a server's page: guest, signed in, signed in, guest, in halves; the halves' means and worse p99. */
async function measurePageRound(server: Server, cookies: Record<Visitor, string>, forward: boolean): Promise<Record<Visitor, PageRun>> {
  const halves: Record<Visitor, PageRun[]> = { guest: [], 'signed-in': [] };
  const order: Visitor[] = forward ? ['guest', 'signed-in', 'signed-in', 'guest'] : ['signed-in', 'guest', 'guest', 'signed-in'];
  for (const visitor of order) halves[visitor].push(await measurePage(server, visitor, cookies[visitor], PAGE_HALF_SECONDS));
  const mean = (runs: PageRun[], of: (run: PageRun) => number): number => runs.reduce((sum, run) => sum + of(run), 0) / runs.length;
  const joined = (runs: PageRun[]): PageRun => ({
    rps: mean(runs, (run) => run.rps),
    p99: Math.max(...runs.map((run) => run.p99)),
    cpuUs: mean(runs, (run) => run.cpuUs),
    unexpected: runs.reduce((sum, run) => sum + run.unexpected, 0),
  });
  return { guest: joined(halves.guest), 'signed-in': joined(halves['signed-in']) };
}

/** The guest's cookie: the session of a first visit to the page, resumed on every request. */
async function guestCookie(server: Server): Promise<string> {
  const response = await fetch(`${server.url}${PAGE_PATHS.guest}`);
  await response.text();
  const cookie = cookieHeader(response);
  if (response.status !== 200 || cookie === null) throw new Error(`GET ${server.url}${PAGE_PATHS.guest} answered ${response.status} without a session cookie`);
  return cookie;
}

// ——— The run ————————————————————————————————————————————————————————————————————

const checks: string[] = [];
const warnings: string[] = [];
const hashCosts = await measureHashCost();
const verifyCost = hashCosts[1] as HashCost;
const parallelVerify = hashCosts[2] as HashCost;
/** The CPU time of a verify while every core verifies, as in a busy server. */
const verifyCpuMs = parallelVerify.cpuMs;
/** Logins/s if Argon2 had every core (at most the threadpool's threads) to itself: by the wall clock, and by the CPU clock. */
const ceilingWall = (Math.min(CORES, THREADPOOL) * 1000) / verifyCost.meanMs;
const ceilingCpu = (Math.min(CORES, THREADPOOL) * 1000) / verifyCpuMs;
/** The highest login rate seen so far, or expected: the login forms of a round are opened for it. */
let loginRate = Math.max(parallelVerify.perSecond, ceilingWall);
const formsFor = (seconds: number): number => Math.ceil(seconds * LOGIN_FORMS_MARGIN * loginRate) + LOGIN_CONNECTIONS;

const logins = new Map<Engine, LoginRun[]>();
const pages = new Map<`${Engine}:${Visitor}`, PageRun[]>();
const servers: Server[] = [];
try {
  servers.push(await start('sqlite', `sqlite:${join(dir, 'bench.sqlite')}`));
  const database = await benchDatabase.create();
  if ('url' in database) servers.push(await start('postgres', database.url));
  else warnings.push(`PostgreSQL: no database (${database.problem}); its columns are empty`);

  // What the rows load, checked once: a login works, the signed-in page greets its user, a
  // guest is sent to the login form, a wrong password fails.
  for (const server of servers) {
    const [user] = server.users;
    if (user === undefined) throw new Error(`the ${server.engine} server seeded no user`);
    const cookie = await signIn(server, user);
    const page = await fetch(`${server.url}${PAGE_PATHS['signed-in']}`, { headers: { cookie } });
    const body = await page.text();
    const guest = await fetch(`${server.url}${PAGE_PATHS['signed-in']}`, { redirect: 'manual' });
    await guest.text();
    const form = await openLoginForm(server.url);
    const wrong = await fetch(`${server.url}/login`, {
      method: 'POST',
      redirect: 'manual',
      headers: { cookie: form.cookie, 'x-forwarded-for': form.ip, referer: `${server.url}/login`, 'content-type': 'application/x-www-form-urlencoded' },
      body: loginBody(form, user, 'a wrong password'),
    });
    await wrong.text();
    checks.push(
      `${ENGINE_NAMES[server.engine]}: a login answers 303 to /; ${PAGE_PATHS['signed-in']} signed in answers ${page.status}, ${Buffer.byteLength(body)} bytes, greets the user: ${body.includes('Welcome back, Bench User') ? 'yes' : 'NO'}; a guest gets ${guest.status} to ${guest.headers.get('location') ?? '?'}; a wrong password: ${loginOutcome(wrong.status, wrong.headers.get('location') ?? undefined)}`,
    );
  }

  // Warm-up logins (JIT, connections, pools), not counted; forms for the CPU clock's ceiling.
  for (const server of servers) {
    const warm = await measureLogins(server, LOGIN_WARMUP_SECONDS, await openLoginForms(server.url, Math.ceil(LOGIN_WARMUP_SECONDS * ceilingCpu) + LOGIN_CONNECTIONS));
    loginRate = Math.max(loginRate, warm.perSecond);
  }
  for (let round = 0; round < LOGIN_ROUNDS; round++) {
    for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
      const measured = await measureLogins(server, LOGIN_SECONDS, await openLoginForms(server.url, formsFor(LOGIN_SECONDS)));
      loginRate = Math.max(loginRate, measured.perSecond);
      logins.set(server.engine, [...(logins.get(server.engine) ?? []), measured]);
    }
  }

  // Warm-up pages, not counted.
  for (const server of servers) {
    await measurePage(server, 'guest', await guestCookie(server), PAGE_WARMUP_SECONDS);
    await measurePage(server, 'signed-in', await signIn(server, server.users[0] as BenchUser), PAGE_WARMUP_SECONDS);
  }
  for (let round = 0; round < PAGE_ROUNDS; round++) {
    const forward = round % 2 === 0;
    for (const server of forward ? servers : [...servers].reverse()) {
      // Cookies of their own for each round, made before autocannon starts.
      const cookies = { guest: await guestCookie(server), 'signed-in': await signIn(server, server.users[0] as BenchUser) };
      for (const [visitor, measured] of Object.entries(await measurePageRound(server, cookies, forward)) as [Visitor, PageRun][]) {
        pages.set(`${server.engine}:${visitor}`, [...(pages.get(`${server.engine}:${visitor}`) ?? []), measured]);
      }
    }
  }
  for (const server of servers) await stop(server);
} finally {
  await cleanUp();
}

// ——— The tables ———————————————————————————————————————————————————————————————————

const line = (cells: string[], widths: number[]): string =>
  cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
function table(titles: string[], widths: number[], rows: string[][]): void {
  const header = line(titles, widths);
  console.log(header);
  console.log('-'.repeat(header.length));
  for (const row of rows) console.log(line(row, widths));
}
const fixed = (value: number | null, digits: number): string => (value === null || !Number.isFinite(value) ? '—' : value.toFixed(digits));
const medianOf = <T>(runs: readonly T[] | undefined, of: (run: T) => number): number | null => (runs === undefined || runs.length === 0 ? null : median(runs.map(of)));

const { memoryCost, timeCost, parallelism } = OWASP_ARGON2ID;
console.log(`\nAuth: Argon2id, logins per second, and a signed-in page with its user from SQLite and PostgreSQL (${CORES} cores)`);
for (const check of checks) console.log(`  ${check}`);

console.log(
  `\n1. Argon2id (adapters/password/argon2-password-hasher.ts: memoryCost ${memoryCost} KiB = ${(memoryCost / 1024).toFixed(0)} MiB, timeCost ${timeCost}, parallelism ${parallelism}; @node-rs/argon2 on libuv's threadpool of ${THREADPOOL})`,
);
console.log(`   tinybench, ${HASH_TIME_MS / 1000} s and at least ${HASH_ITERATIONS} calls per task, in this process, no server running; CPU ms: this process's CPU clock over ${CPU_CALLS} calls\n`);
table(
  ['task', 'mean ms', 'p50 ms', 'per second', 'CPU ms', 'samples'],
  [20, 8, 8, 16, 7, 7],
  hashCosts.map((cost) => [
    cost.name,
    cost.meanMs.toFixed(1),
    cost.p50Ms.toFixed(1),
    `${cost.perSecond.toFixed(0)}${cost === parallelVerify ? ' verifies' : ''}`,
    cost.cpuMs.toFixed(1),
    String(cost.samples),
  ]),
);
console.log(
  `\n   Ceiling of any login rate here, cores / verify: ${CORES} / ${verifyCost.meanMs.toFixed(1)} ms = ${ceilingWall.toFixed(0)} logins/s by the wall clock, ${CORES} / ${verifyCpuMs.toFixed(1)} ms = ${ceilingCpu.toFixed(0)}/s by the CPU clock`,
);
console.log(`   (CPU ms of a verify ×${CORES} at once, as in a busy server; the wall clock counts the time other processes take from the cores, the CPU clock does not).`);

console.log(`\n2. Logins: successful POST /login of the default app (createDefaultApp), ${LOGIN_ROUNDS} rounds of ${LOGIN_SECONDS} s per server, taking turns; medians`);
console.log(`   Each login posts a login form opened (GET /login: a new guest session cookie and its CSRF token) before the clock starts, once, as a browser`);
console.log(`   does: a login rotates the session and its token, so a form cannot be posted twice. Each browser has an address of its own (X-Forwarded-For`);
console.log(`   from the trusted proxy 127.0.0.1), so the login pages' throttle (30/min) and the login lock (5/min per email) count per client, as in`);
console.log(
  `   production. ${LOGIN_CONNECTIONS} connections (more than the cores, to keep Argon2 busy), the ${servers[0]?.users.length ?? 0} seeded users in turn; a login counts when it answers 303 to /.`,
);
console.log(`   CPU ms: the server process's CPU time (all threads) per login. Argon2 share: part 1's CPU ms of one verify alone over it, a lower bound`);
console.log(`   (verifies at once cost more CPU time each, as part 1's ×${CORES} shows); the rest of a login costs at most the difference.\n`);
const loginRows: string[][] = [];
for (const server of servers) {
  const runs = logins.get(server.engine) ?? [];
  const perSecond = medianOf(runs, (run) => run.perSecond);
  const cpu = medianOf(runs, (run) => run.cpuMs);
  const unexpected = runs.reduce((sum, run) => sum + run.unexpected, 0);
  if (unexpected > 0) warnings.push(`logins on ${ENGINE_NAMES[server.engine]}: ${unexpected} failed or other answers, errors or reused forms`);
  loginRows.push([
    ENGINE_NAMES[server.engine],
    fixed(perSecond, 0),
    `${fixed(medianOf(runs, (run) => run.p50), 0)} / ${fixed(medianOf(runs, (run) => run.p99), 0)}`,
    fixed(perSecond === null ? null : perSecond / ceilingWall, 2),
    fixed(perSecond === null ? null : perSecond / ceilingCpu, 2),
    fixed(cpu, 1),
    cpu === null ? '—' : `≥ ${((100 * verifyCost.cpuMs) / cpu).toFixed(0)} %`,
  ]);
}
table(['server', 'logins/s', 'p50/p99 ms', 'of wall ceiling', 'of CPU ceiling', 'CPU ms', 'Argon2 share'], [12, 8, 10, 15, 14, 6, 12], loginRows);

console.log(
  `\n3. A page behind .requireAuth() rendering ctx.user (${PAGE_PATHS['signed-in']}), the user loaded per request, and the same page for a guest (${PAGE_PATHS.guest}) on the same server`,
);
console.log(`   autocannon, ${PAGE_CONNECTIONS} connections, ${PAGE_ROUNDS} rounds, the servers taking turns; in a round, guest and signed-in A-B-B-A in ${PAGE_HALF_SECONDS} s halves`);
console.log(`   (${PAGE_WARMUP_SECONDS} s warm-up first); medians of the rounds and of their ratios. Both send a session cookie (the guest's of a first visit); sessions`);
console.log(`   live in the cookie, so the user's is the only query. CPU µs: the server process's CPU time per request (PostgreSQL's own is not in it;`);
console.log(`   PostgreSQL runs on the same cores).\n`);

const ratio = (a: PageRun[] | undefined, b: PageRun[] | undefined): number | null =>
  a === undefined || b === undefined || a.length === 0 ? null : median(a.map((run, index) => run.rps / (b[index]?.rps ?? NaN)));
const pageRows: string[][] = [];
for (const visitor of ['guest', 'signed-in'] as const) {
  const sqlite = pages.get(`sqlite:${visitor}`);
  const postgres = pages.get(`postgres:${visitor}`);
  for (const [engine, runs] of [['sqlite', sqlite], ['postgres', postgres]] as const) {
    const unexpected = (runs ?? []).reduce((sum, run) => sum + run.unexpected, 0);
    if (unexpected > 0) warnings.push(`${visitor} page on ${ENGINE_NAMES[engine]}: ${unexpected} non-2xx answers or errors`);
  }
  pageRows.push([
    `GET ${PAGE_PATHS[visitor]}, ${visitor}`,
    fixed(medianOf(sqlite, (run) => run.rps), 0),
    fixed(medianOf(postgres, (run) => run.rps), 0),
    fixed(ratio(postgres, sqlite), 2),
    fixed(medianOf(sqlite, (run) => run.cpuUs), 0),
    fixed(medianOf(postgres, (run) => run.cpuUs), 0),
    `${fixed(medianOf(sqlite, (run) => run.p99), 0)} / ${fixed(medianOf(postgres, (run) => run.p99), 0)}`,
  ]);
}
const signedInOverGuest = (engine: Engine): number | null => ratio(pages.get(`${engine}:signed-in`), pages.get(`${engine}:guest`));
/** What loading the user adds per request, the median over the rounds: 1/req/s (throughput time) and CPU µs. */
const userCost = (engine: Engine, of: (signedIn: PageRun, guest: PageRun) => number): number | null => {
  const signedIn = pages.get(`${engine}:signed-in`);
  const guest = pages.get(`${engine}:guest`);
  if (signedIn === undefined || guest === undefined) return null;
  return median(signedIn.map((run, index) => (guest[index] === undefined ? NaN : of(run, guest[index]))));
};
const throughputTime = (signedIn: PageRun, guest: PageRun): number => (1 / signedIn.rps - 1 / guest.rps) * 1e6;
const cpuTime = (signedIn: PageRun, guest: PageRun): number => signedIn.cpuUs - guest.cpuUs;
pageRows.push(['signed-in/guest', fixed(signedInOverGuest('sqlite'), 2), fixed(signedInOverGuest('postgres'), 2), '', '', '', '']);
const micros = (value: number | null): string => (value === null || !Number.isFinite(value) ? '—' : `${value.toFixed(0)} µs`);
pageRows.push([
  'user loaded, per request',
  micros(userCost('sqlite', throughputTime)),
  micros(userCost('postgres', throughputTime)),
  '',
  micros(userCost('sqlite', cpuTime)),
  micros(userCost('postgres', cpuTime)),
  '',
]);
table(['page', 'SQLite req/s', 'PostgreSQL req/s', 'PG/SQLite', 'SQLite CPU µs', 'PG CPU µs', 'p99 ms SQLite/PG'], [26, 12, 16, 9, 13, 9, 16], pageRows);
console.log(`\n   user loaded, per request: under req/s, 1/(signed-in req/s) − 1/(guest req/s); under CPU µs, signed-in − guest; medians over the rounds.`);
console.log('');
for (const warning of warnings) console.log(`WARNING ${warning}`);
