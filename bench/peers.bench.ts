/**
 * fw against the stacks its users would pick instead, serving the same four things
 * (peers.server.ts says how each one does it):
 *
 *   GET /health · GET /login (a nunjucks page with a form, its CSRF token in a new session) ·
 *   GET /account signed in (the user loaded by id from SQLite, a page) · POST /login (CSRF,
 *   Argon2id verify at fw's cost, a new session, 303)
 *
 * on fw; bare hapi; hapi + @hapi/yar + @hapi/crumb + @hapi/vision; express 5 + express-session
 * (memory store, and a SQLite store) + csrf-sync + nunjucks; fastify 5 + @fastify/secure-session
 * + @fastify/csrf-protection + @fastify/view; better-auth (its email sign-in and session check).
 *
 * Before anything is timed, each server is checked to do the row's work (right status, the
 * page's text, a CSRF token that is required, a session that carries the user). Each server runs
 * in a child process of its own; autocannon loads it from here over 127.0.0.1. Rows are measured
 * in rounds, the servers taking turns in both orders; the table shows medians of req/s and p99,
 * the server's CPU time per request (`process.cpuUsage()` of the server: other processes on a
 * shared machine inflate it much less than the wall clock), the fw/peer ratio as the median of
 * the rounds' ratios, and the machine's load. Memory: each server's RSS once it is ready, idle
 * (after PEERS_IDLE_SECONDS, 12, without a request, read once every server has started), after
 * the run, and its peak.
 *
 * Environment: PEERS_SERVERS (comma list of peers.server.ts kinds; default all), PEERS_ROWS
 * (health,login-page,account,login-post; default all), PEERS_ROUNDS (3), PEERS_SECONDS (2).
 * PEERS_BEFORE: the compiled peers.server.js of another build of fw (an earlier commit's
 * dist/, inside this checkout so that it finds node_modules and templates/), measured as one
 * more column 'fw-before' in the same rounds: its fw/peer is this build's speed against it.
 * PEERS_BEFORE_NODE_FLAGS: node flags for that column only, instead of fw's (the same build
 * under another V8 setting, say `--max-semi-space-size=2`).
 * fw runs with the node flags of its own start command (`npm start`, composition/serve-node-flags.ts);
 * every peer with node's defaults, as its users start it.
 * The targets are the issue's; a MISS is reported, never fatal.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SERVE_NODE_FLAGS } from '../composition/serve-node-flags.js';
import { ChildServers } from './support/child-servers.js';
import { BENCH_USERS, PASSWORD, SERVER_KINDS, benchEmail, benchName } from './support/peers.js';
import type { ReadyMessage, ServerKind, StatsMessage } from './support/peers.js';

const SERVER_SCRIPT = fileURLToPath(new URL(`./peers.server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const CONNECTIONS = 10;
/** Logins: more at once than the cores, so Argon2 keeps them all busy. */
const LOGIN_CONNECTIONS = 4;
/** Login forms opened per login expected in a run, from the best rate seen so far. */
const FORMS_PER_EXPECTED_LOGIN = 3;
const WARMUP_SECONDS = 1;
const ROUNDS = Number(process.env['PEERS_ROUNDS'] ?? 3);
const ROUND_SECONDS = Number(process.env['PEERS_SECONDS'] ?? 2);
const DEADLINE_MS = 600_000;
/** Idle: every server's RSS after this long without a request, read once all have started. */
const IDLE_SECONDS = Number(process.env['PEERS_IDLE_SECONDS'] ?? 12);

type RowId = 'health' | 'login-page' | 'account' | 'login-post';
const ROW_IDS: readonly RowId[] = ['health', 'login-page', 'account', 'login-post'];

const LABELS: Record<BenchKind, string> = {
  fw: 'fw',
  'fw-before': 'fw, the other build (PEERS_BEFORE)',
  hapi: 'bare hapi',
  'hapi-stack': 'hapi+yar+crumb+vision',
  'express-memory': 'express (memory store)',
  'express-sqlite': 'express (SQLite store)',
  fastify: 'fastify',
  'fastify-secured': 'fastify + fw\'s login work (informational)',
  'better-auth': 'better-auth',
};

interface Row {
  id: RowId;
  label: string;
  servers: readonly BenchKind[];
  /** The issue's targets: the least fw/peer ratio, per peer. */
  targets: Partial<Record<BenchKind, number>>;
}

const PAGE_TARGETS = { 'hapi-stack': 1.0, 'express-memory': 1.3, 'express-sqlite': 1.3, fastify: 0.5 } as const;
const ROWS: readonly Row[] = [
  { id: 'health', label: 'GET /health', servers: ['fw', 'hapi', 'hapi-stack', 'express-memory', 'fastify', 'better-auth'], targets: { hapi: 0.8 } },
  { id: 'login-page', label: 'GET /login', servers: ['fw', 'hapi-stack', 'express-memory', 'express-sqlite', 'fastify'], targets: PAGE_TARGETS },
  { id: 'account', label: 'GET /account, signed in', servers: ['fw', 'hapi-stack', 'express-memory', 'express-sqlite', 'fastify', 'better-auth'], targets: PAGE_TARGETS },
  {
    id: 'login-post',
    label: 'POST /login',
    // fastify-secured: fastify doing the login work fw does beyond the listed plugins (headers
    // with a CSP nonce, a request id, the form's schema, the login lock); no target, for reading.
    servers: ['fw', 'hapi-stack', 'express-memory', 'express-sqlite', 'fastify', 'fastify-secured', 'better-auth'],
    targets: { 'hapi-stack': 1.0, 'express-memory': 1.0, 'express-sqlite': 1.0, fastify: 1.0, 'better-auth': 1.0 },
  },
];

function selected<T extends string>(variable: string, all: readonly T[]): T[] {
  const value = process.env[variable];
  if (value === undefined || value.trim() === '') return [...all];
  const names = value.split(',').map((name) => name.trim());
  const unknown = names.filter((name) => !(all as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`${variable}: unknown ${unknown.join(', ')} (known: ${all.join(', ')})`);
  return names as T[];
}

/** The servers of this bench: the server script's kinds, and fw of another build. */
type BenchKind = ServerKind | 'fw-before';
const BEFORE_SCRIPT = process.env['PEERS_BEFORE'] ?? '';
/** Node flags for the 'fw-before' column only (`--max-semi-space-size=2`): one build under two settings in the same rounds. */
const BEFORE_NODE_FLAGS = (process.env['PEERS_BEFORE_NODE_FLAGS'] ?? '').split(' ').filter((flag) => flag !== '');
const serverKinds: BenchKind[] = selected('PEERS_SERVERS', SERVER_KINDS);
if (BEFORE_SCRIPT !== '' && serverKinds.includes('fw')) serverKinds.splice(serverKinds.indexOf('fw') + 1, 0, 'fw-before');
const rowIds = selected('PEERS_ROWS', ROW_IDS);
const rows = ROWS.filter((row) => rowIds.includes(row.id)).map((row) => ({
  ...row,
  servers: row.servers.flatMap((kind): BenchKind[] => (kind === 'fw' && serverKinds.includes('fw-before') ? ['fw', 'fw-before'] : [kind])).filter((kind) => serverKinds.includes(kind)),
}));

interface Server {
  kind: BenchKind;
  url: string;
  child: ChildProcess;
  /** RSS once the server answered ready. */
  readyRss: number;
  /** RSS after IDLE_SECONDS without a request (fw gives back start-up's young generation at a quiet moment). */
  idleRss: number;
}

const children = new ChildServers();
const dir = mkdtempSync(join(tmpdir(), 'fw-peers-bench-'));

function cleanUp(): void {
  children.killAll();
  rmSync(dir, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  console.error(`\nThe peers bench ran past ${DEADLINE_MS / 1000} s and was stopped.`);
  cleanUp();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

function stats(server: Server): Promise<StatsMessage> {
  return new Promise((resolve) => {
    server.child.once('message', (message) => resolve(message as StatsMessage));
    server.child.send('stats');
  });
}

const cpuMs = (cpu: NodeJS.CpuUsage): number => (cpu.user + cpu.system) / 1000;

async function start(kind: BenchKind): Promise<Server> {
  const [script, serverKind] = kind === 'fw-before' ? [BEFORE_SCRIPT, 'fw'] : [SERVER_SCRIPT, kind];
  mkdirSync(join(dir, kind));
  // fw runs as its start command runs it (`npm start`: SERVE_NODE_FLAGS); the peers as their
  // users run them, with node's defaults.
  const nodeFlags = kind === 'fw-before' && BEFORE_NODE_FLAGS.length > 0 ? BEFORE_NODE_FLAGS : kind === 'fw' || kind === 'fw-before' ? SERVE_NODE_FLAGS : [];
  const child = spawn(process.execPath, [...process.execArgv, ...nodeFlags, script, serverKind, join(dir, kind)], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} server did not start within 60 s`)), 60_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve((message as ReadyMessage).url);
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} server exited (code ${code}) before listening`));
    });
  });
  const server: Server = { kind, url, child, readyRss: 0, idleRss: 0 };
  server.readyRss = (await stats(server)).rss;
  return server;
}

/** Cookie headers (`name=value; …`) from an answer's Set-Cookie headers, as a browser sends them back. */
function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(';')[0] ?? '')
    .join('; ');
}

/** A browser that opened the login form: its new session's cookies and the form's token. */
interface LoginForm {
  cookie: string;
  token: string;
}

const TOKEN = /name="_token" value="([^"]+)"/u;

async function openLoginForm(server: Server): Promise<LoginForm> {
  if (server.kind === 'better-auth') return { cookie: '', token: '' };
  const response = await fetch(`${server.url}/login`);
  const body = await response.text();
  const cookie = cookieHeader(response);
  const token = TOKEN.exec(body)?.[1];
  if (response.status !== 200 || cookie === '' || token === undefined) throw new Error(`${server.kind}: GET /login answered ${response.status} without a cookie or a token`);
  return { cookie, token };
}

async function openLoginForms(server: Server, count: number): Promise<LoginForm[]> {
  const forms: LoginForm[] = [];
  for (let n = 0; n < count; n += 8) forms.push(...(await Promise.all(Array.from({ length: Math.min(8, count - n) }, () => openLoginForm(server)))));
  return forms;
}

interface LoginRequest {
  path: string;
  headers: Record<string, string>;
  body: string;
}

function loginRequest(server: Server, form: LoginForm, user: number, password = PASSWORD): LoginRequest {
  if (server.kind === 'better-auth') {
    return {
      path: '/api/auth/sign-in/email',
      headers: { 'content-type': 'application/json', origin: server.url },
      body: JSON.stringify({ email: benchEmail(user), password }),
    };
  }
  return {
    path: '/login',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: form.cookie },
    body: new URLSearchParams({ _token: form.token, email: benchEmail(user), password }).toString(),
  };
}

/** Whether a login answer is a success: 303 to /account (better-auth: 200 and its session cookie). */
function loginSucceeded(server: Server, status: number, location: string | undefined, setsCookie: boolean): boolean {
  if (server.kind === 'better-auth') return status === 200 && setsCookie;
  return status === 303 && location !== undefined && location.endsWith('/account') && setsCookie;
}

async function postLogin(server: Server, request: LoginRequest): Promise<Response> {
  return fetch(`${server.url}${request.path}`, { method: 'POST', redirect: 'manual', headers: request.headers, body: request.body });
}

/** Signs bench user `user` in as a browser does and answers the signed-in cookie header. */
async function signIn(server: Server, user: number): Promise<string> {
  const form = await openLoginForm(server);
  const response = await postLogin(server, loginRequest(server, form, user));
  await response.text();
  const fresh = cookieHeader(response);
  if (!loginSucceeded(server, response.status, response.headers.get('location') ?? undefined, fresh !== '')) {
    throw new Error(`${server.kind}: POST login answered ${response.status} (location ${response.headers.get('location')})`);
  }
  // The browser keeps the form's cookies that the login did not replace (crumb's token cookie).
  const jar = new Map<string, string>();
  for (const pair of [...form.cookie.split('; '), ...fresh.split('; ')]) if (pair !== '') jar.set(pair.split('=')[0] ?? '', pair);
  return [...jar.values()].join('; ');
}

function check(condition: boolean, message: string): void {
  if (!condition) throw new Error(`verification failed: ${message}`);
}

/** Each row's work, checked on each server before the clock starts. */
async function verify(server: Server, row: RowId): Promise<void> {
  const name = `${server.kind} ${row}`;
  switch (row) {
    case 'health': {
      const response = await fetch(`${server.url}/health`);
      const body = (await response.json()) as { status?: string };
      check(response.status === 200 && body.status === 'ok', `${name}: ${response.status} ${JSON.stringify(body)}`);
      return;
    }
    case 'login-page': {
      const response = await fetch(`${server.url}/login`);
      const body = await response.text();
      check(response.status === 200 && body.includes('<form method="post" action="/login">') && TOKEN.test(body), `${name}: ${response.status}, form with a token`);
      check(response.headers.getSetCookie().length > 0, `${name}: no cookie for the new session`);
      return;
    }
    case 'account': {
      const cookie = await signIn(server, 1);
      const response = await fetch(`${server.url}/account`, { headers: { cookie } });
      const body = await response.text();
      check(response.status === 200 && body.includes(`Welcome back, ${benchName(1)}`) && body.includes(benchEmail(1)), `${name}: ${response.status}, the user's page`);
      const guest = await fetch(`${server.url}/account`, { redirect: 'manual' });
      await guest.text();
      check(guest.status !== 200, `${name}: a guest got the page`);
      return;
    }
    case 'login-post': {
      await signIn(server, 2);
      // The CSRF check (better-auth: the Origin check) refuses a forged post.
      const form = await openLoginForm(server);
      const forged = loginRequest(server, { cookie: form.cookie, token: server.kind === 'better-auth' ? '' : 'forged-token' }, 2);
      const response = await postLogin(server, server.kind === 'better-auth' ? { ...forged, headers: { ...forged.headers, origin: 'https://evil.example' } } : forged);
      await response.text();
      check(response.status >= 400 && response.status < 500, `${name}: a forged post answered ${response.status}`);
      // A wrong password is refused.
      const wrong = await postLogin(server, loginRequest(server, await openLoginForm(server), 2, 'wrong password'));
      await wrong.text();
      check(!loginSucceeded(server, wrong.status, wrong.headers.get('location') ?? undefined, wrong.headers.getSetCookie().length > 0) || wrong.status >= 400, `${name}: a wrong password answered ${wrong.status}`);
      return;
    }
  }
}

interface Measured {
  rps: number;
  p99: number;
  /** Server CPU time per counted request, µs. */
  cpuUs: number;
  unexpected: number;
  /** What the unexpected answers were: `status` or `reused form`, `error`, `timeout`, with counts. */
  unexpectedKinds: Record<string, number>;
  /** A login run that ended before its time rather than post a form twice. */
  stoppedEarly?: boolean;
}

async function measurePage(server: Server, row: RowId, seconds: number, cookie: string | null, warmUp: boolean): Promise<Measured> {
  const path = row === 'health' ? '/health' : row === 'login-page' ? '/login' : '/account';
  const options = { url: `${server.url}${path}`, connections: CONNECTIONS, pipelining: 1, headers: cookie === null ? {} : { cookie } };
  if (warmUp) await autocannon({ ...options, duration: WARMUP_SECONDS });
  const before = await stats(server);
  const result = await autocannon({ ...options, duration: seconds });
  const after = await stats(server);
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    cpuUs: ((cpuMs(after.cpu) - cpuMs(before.cpu)) * 1000) / Math.max(1, result.requests.total),
    unexpected: result.non2xx + result.errors + result.timeouts,
    unexpectedKinds: { 'non-2xx': result.non2xx, error: result.errors, timeout: result.timeouts },
  };
}

/** The highest login rate seen per server, to open enough forms for the next round. */
const loginRates = new Map<BenchKind, number>();

async function measureLogins(server: Server, seconds: number, warmUp: boolean): Promise<Measured> {
  const run = async (duration: number): Promise<Measured> => {
    // Each form is posted once: a session store deletes the form's session at the login, so a
    // form posted again is refused in microseconds, and a run that outlived its forms used to
    // turn into thousands of such refusals (the express rows). Forms for three times the best
    // rate seen (the warm-up's is well below a quiet machine's), and each connection stops once
    // its share is posted (autocannon's maxOverallRequests) rather than post one twice: such a
    // run ends early, and its rate is over the time it ran.
    const forms = await openLoginForms(server, Math.max(64, Math.ceil((loginRates.get(server.kind) ?? 30) * duration * FORMS_PER_EXPECTED_LOGIN)));
    const outcomes = { succeeded: 0, other: 0, reused: 0 };
    const kinds: Record<string, number> = {};
    let next = 0;
    const before = await stats(server);
    const result = await autocannon({
      url: server.url,
      connections: LOGIN_CONNECTIONS,
      pipelining: 1,
      duration,
      maxOverallRequests: forms.length,
      requests: [
        {
          method: 'POST',
          setupRequest: (request) => {
            const index = next++;
            if (index >= forms.length) outcomes.reused++;
            const login = loginRequest(server, forms[index % forms.length] as LoginForm, index % BENCH_USERS);
            return { ...request, path: login.path, headers: { ...request.headers, ...login.headers }, body: login.body };
          },
          onResponse: (status, _body, _context, headers) => {
            // Header names as the server wrote them (express: `Location`, `Set-Cookie`).
            const named = new Map(Object.entries(headers ?? {}).map(([name, value]) => [name.toLowerCase(), value]));
            const location = named.get('location');
            const setsCookie = named.get('set-cookie') !== undefined;
            if (loginSucceeded(server, status, typeof location === 'string' ? location : undefined, setsCookie)) {
              outcomes.succeeded++;
            } else {
              outcomes.other++;
              const kind = `${status}${setsCookie ? '' : ' without a cookie'}`;
              kinds[kind] = (kinds[kind] ?? 0) + 1;
            }
          },
        },
      ],
    });
    const stoppedEarly = result.duration < duration * 0.95;
    const after = await stats(server);
    const perSecond = outcomes.succeeded / result.duration;
    loginRates.set(server.kind, Math.max(perSecond, loginRates.get(server.kind) ?? 0));
    return {
      rps: perSecond,
      p99: result.latency.p99,
      cpuUs: ((cpuMs(after.cpu) - cpuMs(before.cpu)) * 1000) / Math.max(1, outcomes.succeeded),
      unexpected: outcomes.other + outcomes.reused + result.errors + result.timeouts,
      unexpectedKinds: { ...kinds, 'reused form': outcomes.reused, error: result.errors, timeout: result.timeouts },
      stoppedEarly,
    };
  };
  if (warmUp) await run(WARMUP_SECONDS);
  return run(seconds);
}

function median(values: number[]): number {
  const sorted = [...values].filter((value) => Number.isFinite(value)).sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(0)}`;

const measured = new Map<string, Measured[]>();
const loads: number[] = [];
const memory: { kind: BenchKind; ready: number; idle: number; after: number; peak: number }[] = [];
const started = Date.now();

try {
  const servers = new Map<BenchKind, Server>();
  // One at a time: the servers seed their users (Argon2 hashes) while nothing is measured.
  for (const kind of serverKinds) servers.set(kind, await start(kind));
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  for (const server of servers.values()) server.idleRss = (await stats(server)).rss;
  for (const row of rows) for (const kind of row.servers) await verify(servers.get(kind) as Server, row.id);
  console.log(`Verified: ${rows.map((row) => `${row.id} on ${row.servers.join(', ')}`).join('; ')}`);
  for (let round = 0; round < ROUNDS; round++) {
    const forward = round % 2 === 0;
    for (const row of rows) {
      for (const kind of forward ? row.servers : [...row.servers].reverse()) {
        const server = servers.get(kind) as Server;
        loads.push(loadavg()[0] ?? NaN);
        const result =
          row.id === 'login-post'
            ? await measureLogins(server, ROUND_SECONDS, round === 0)
            : await measurePage(server, row.id, ROUND_SECONDS, row.id === 'account' ? await signIn(server, round % BENCH_USERS) : null, round === 0);
        measured.set(`${row.id}:${kind}`, [...(measured.get(`${row.id}:${kind}`) ?? []), result]);
      }
    }
  }
  for (const server of servers.values()) {
    const last = await stats(server);
    memory.push({ kind: server.kind, ready: server.readyRss, idle: server.idleRss, after: last.rss, peak: last.maxRss });
    await children.stop(server.child);
  }
} finally {
  cleanUp();
}

/** fw/peer: the median of the rounds' ratios (each round's two ran under the same load). */
function ratio(row: RowId, peer: BenchKind): number {
  const fw = measured.get(`${row}:fw`) ?? [];
  const other = measured.get(`${row}:${peer}`) ?? [];
  return median(fw.map((m, index) => m.rps / (other[index]?.rps ?? NaN)));
}

const misses: string[] = [];
const warnings: string[] = [];
const pad = (text: string, width: number, left = false): string => (left ? text.padEnd(width) : text.padStart(width));
const header = [pad('row / server', 34, true), pad('req/s', 8), pad('p99 ms', 7), pad('CPU µs/req', 11), pad('fw/peer', 8), pad('target', 13)].join('  ');
console.log(
  `\nPeers: autocannon over 127.0.0.1, ${CONNECTIONS} connections (${LOGIN_CONNECTIONS} for logins), ${ROUNDS} rounds of ${ROUND_SECONDS} s, servers taking turns; medians; ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
console.log(`Machine load (1 min) during the rounds: median ${median(loads).toFixed(1)}, from ${Math.min(...loads).toFixed(1)} to ${Math.max(...loads).toFixed(1)}`);
console.log('');
console.log(header);
console.log('-'.repeat(header.length));
for (const row of rows) {
  console.log(row.label);
  for (const kind of row.servers) {
    const rounds = measured.get(`${row.id}:${kind}`) ?? [];
    const unexpected = rounds.reduce((sum, m) => sum + m.unexpected, 0);
    const short = rounds.filter((m) => m.stoppedEarly === true).length;
    if (short > 0) warnings.push(`${row.label} on ${kind}: ${short} of ${rounds.length} rounds ended early, out of login forms (their rate is over the time they ran)`);
    if (unexpected > 0) {
      const kinds = new Map<string, number>();
      for (const m of rounds) for (const [name, count] of Object.entries(m.unexpectedKinds)) kinds.set(name, (kinds.get(name) ?? 0) + count);
      const detail = [...kinds].filter(([, count]) => count > 0).map(([name, count]) => `${name}: ${count}`).join(', ');
      warnings.push(`${row.label} on ${kind}: ${unexpected} unexpected answers, errors or reused login forms (${detail})`);
    }
    const versus = kind === 'fw' || !serverKinds.includes('fw') ? NaN : ratio(row.id, kind);
    const target = row.targets[kind];
    let verdict = '';
    if (target !== undefined && Number.isFinite(versus)) {
      verdict = `≥ ${target.toFixed(1)} ${versus >= target ? 'PASS' : 'MISS'}`;
      if (versus < target) misses.push(`${row.label}: fw/${LABELS[kind]} ${versus.toFixed(2)} < ${target.toFixed(1)}`);
    }
    console.log(
      [
        pad(`  ${LABELS[kind]}`, 34, true),
        pad(median(rounds.map((m) => m.rps)).toFixed(row.id === 'login-post' ? 1 : 0), 8),
        pad(median(rounds.map((m) => m.p99)).toFixed(0), 7),
        pad(median(rounds.map((m) => m.cpuUs)).toFixed(0), 11),
        pad(Number.isFinite(versus) ? versus.toFixed(2) : '', 8),
        pad(verdict, 13),
      ].join('  '),
    );
  }
}
console.log('');
console.log(`Memory (RSS, MB): once ready / idle (${IDLE_SECONDS} s without a request) / after the run / peak`);
for (const entry of memory) console.log(`  ${pad(LABELS[entry.kind], 24, true)} ${mb(entry.ready).padStart(5)} / ${mb(entry.idle).padStart(5)} / ${mb(entry.after).padStart(5)} / ${mb(entry.peak).padStart(5)}`);
const fwMemory = memory.find((entry) => entry.kind === 'fw');
if (fwMemory !== undefined) {
  if (fwMemory.idle > 100 * 1024 * 1024) misses.push(`memory: fw idle ${mb(fwMemory.idle)} MB > 100 MB`);
  if (fwMemory.after > 1.5 * fwMemory.idle) misses.push(`memory: fw after the run ${mb(fwMemory.after)} MB > 1.5 × idle`);
}
console.log('');
for (const warning of warnings) console.log(`WARNING ${warning}`);
if (misses.length === 0) console.log('All targets met.');
else for (const miss of misses) console.log(`MISS ${miss}`);
