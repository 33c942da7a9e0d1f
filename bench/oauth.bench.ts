/**
 * What a social sign-in costs: complete `provider_b` (GitHub-shaped OAuth 2.0) sign-ins per
 * second of an existing linked user, through the default app (`createDefaultApp`), against a
 * fake provider on loopback, on SQLite (a file) and on PostgreSQL; and where the time goes.
 *
 * Three kinds of process, all this file (the role is its first argument, so the bench is one file):
 *
 * - the fake provider (`fake`): node:http on 127.0.0.1, `POST /login/oauth/access_token` (any
 *   code; `code-<n>` names person n), `GET /user` and `GET /user/emails` (a verified primary
 *   address), JSON as GitHub answers; it counts its requests and the time from each request's
 *   headers to the end of its answer ("inside the fake").
 * - two app servers (`app`): the default app as it runs in production (cookie sessions, memory
 *   counters, pino at warn, behind a proxy on 127.0.0.1 that names each browser's address in
 *   X-Forwarded-For: the sign-in routes allow 30 requests a minute per address), with
 *   PROVIDER_B_CLIENT_ID/_SECRET and PROVIDER_B_*_URL pointing at the fake and APP_URL its own
 *   address, on a SQLite file and on a PostgreSQL database made for the run (`fw_bench_<random>`
 *   on DATABASE_URL's server or the local default; dropped at the end). Migrated by `serve()`;
 *   the bench signs each of PERSONS provider accounts in once first, which registers and links
 *   its user: every measured sign-in is then the login of an existing linked user.
 *   Instrumented, to say where the time goes: the app's HttpClient is the framework's own
 *   (FetchHttpClient) wrapped in a stopwatch (per call, until the answer's headers); every SQL
 *   statement is timed at the driver (pg's `Client.prototype.query`, better-sqlite3's
 *   prepare/exec/run/get/all, so the ORM and the raw SQL of the OAuth adapter alike); @hapi/iron's
 *   seal and unseal (the cookie session) are timed; Node's `http.server.request.start` channel
 *   counts the requests; and the process's CPU clock and event loop utilisation are read. Each
 *   wrapper costs a few hundred nanoseconds a call.
 * - this process (no argument): autocannon over 127.0.0.1, rows measured in rounds, the servers
 *   taking turns; the tables show medians over the rounds (rates, latencies) and totals over
 *   the rounds (the breakdown). The counters are read around each row once the app has settled
 *   (nothing open, nothing moving), so that the work of the requests autocannon leaves in
 *   flight counts in their row; PostgreSQL's CPU time is read from /proc (the server on this
 *   machine, whoever uses it).
 *
 * Rows, each with a fresh browser per sign-in (an empty cookie jar and an address of its own),
 * BROWSERS of them at a time:
 *
 * - GET /health: the pipeline's floor (the baseline of the ratios).
 * - password sign-in, GET /login + POST /login (one Argon2 verify): the other baseline.
 * - OAuth sign-in, GET /auth/provider_b/redirect, the state read from `location`, then
 *   GET /auth/provider_b/callback?code&state (code exchange and two profile reads at the fake,
 *   the database, a new session): 303 to / with a session cookie counts as a sign-in.
 *   Latencies of the two rows are of the whole loop, first request out to last answer in.
 * - the redirect alone; the callback alone (on redirects made beforehand), with BROWSERS at a
 *   time and with one at a time (no queueing: the latency's anatomy).
 *
 * The bench has no targets: it informs (a PostgreSQL that cannot be reached leaves its columns
 * empty).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { subscribe } from 'node:diagnostics_channel';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer as createNetServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import Iron from '@hapi/iron';
import autocannon from 'autocannon';
import pg from 'pg';
import { BenchDatabase } from './support/bench-database.js';
import { FetchHttpClient } from '../adapters/outbound-http/fetch-http-client.js';
import { loadSqliteBinding } from '../adapters/persistence/mikro-orm/sqlite-binding.js';
import { TOKENS, createDefaultApp } from '../composition/index.js';
import type { HttpClient, HttpRequestInit } from '../ports/http-client.js';
import { benchEnvironment, ChildServers, serveParent } from './support/child-servers.js';

// Whichever this file is, TypeScript through tsx or compiled JavaScript in dist/, its children are it.
const SELF = fileURLToPath(import.meta.url);
const CORES = availableParallelism();

/** Browsers at a time (autocannon connections) in every row but the one-at-a-time callback. */
const BROWSERS = 8;
/** Provider accounts (each linked to a user of its own), taken in turn by the sign-ins. */
const PERSONS = 8;
/** Rounds of every row, the servers taking turns (forward, then backward). */
const ROUNDS = 3;
/** Seconds of each row in a round. */
const SECONDS = { health: 1, password: 2.5, oauth: 3, redirect: 1.5, 'redirect-1': 1, callback: 2, 'callback-1': 2 } as const;
/** Seconds of the warm-up (JIT, pools, connections to the fake), not counted. */
const WARMUP_SECONDS = { health: 1, password: 1, oauth: 1.5 } as const;
/** Redirects made beforehand for a callback row: this many times the highest callback rate seen so far. */
const POOL_MARGIN = 1.6;
/** How long the app's counters must stay still to count as settled, ms. */
const SETTLE_MS = 30;
/** Past this the bench gives up (and says so); the whole run takes about a hundred seconds on an idle machine. */
const DEADLINE_MS = 170_000;

const PASSWORD_EMAIL = 'password-bench@example.com';
const PASSWORD = 'correct horse battery staple';
const CLIENT_ID = 'bench-client';
const CLIENT_SECRET = 'bench-secret';
const REDIRECT_PATH = '/auth/provider_b/redirect';
const CALLBACK_PATH = '/auth/provider_b/callback';
const TOKEN_PATH = '/login/oauth/access_token';
const AUTHORIZE_PATH = '/login/oauth/authorize';

const personEmail = (n: number): string => `oauth-bench-${n}@example.com`;

// ——— What the children tell ————————————————————————————————————————————————————————

/** A count of calls and the wall time they took, ms. */
interface Timing {
  count: number;
  ms: number;
}

const APP_TIMINGS = ['token', 'user', 'emails', 'profile', 'otherOutbound', 'db', 'dbWrite', 'seal', 'unseal'] as const;
type AppTiming = (typeof APP_TIMINGS)[number];
const FAKE_TIMINGS = ['token', 'user', 'emails', 'other'] as const;
type FakeTiming = (typeof FAKE_TIMINGS)[number];

/**
 * The app server's counters so far: CPU ms, event loop (active and idle ms), HTTP requests
 * received and still open, the stopwatches.
 */
interface AppStats {
  cpuMs: number;
  asked: number;
  open: number;
  loopActive: number;
  loopIdle: number;
  timings: Record<AppTiming, Timing>;
}

interface FakeStats {
  cpuMs: number;
  timings: Record<FakeTiming, Timing>;
}

interface Ready {
  url: string;
}

/** Rows of the app's tables, asked once set up and once at the end. */
interface Counts {
  users: number;
  links: number;
  activity: number;
}

const timings = <K extends string>(names: readonly K[]): Record<K, Timing> => Object.fromEntries(names.map((name) => [name, { count: 0, ms: 0 }])) as Record<K, Timing>;

const cpuMs = (): number => {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
};

// ——— The fake provider (role `fake`) ————————————————————————————————————————————————

/** `code-<n>` names person n (modulo PERSONS); any other code, person 0. */
function personOfCode(code: string): number {
  const n = /^code-(\d+)/u.exec(code)?.[1];
  return n === undefined ? 0 : Number(n) % PERSONS;
}

/** Tokens are `bench-token-<n>-<serial>`. */
function personOfToken(authorization: string | undefined): number | null {
  const n = /^Bearer bench-token-(\d+)-/u.exec(authorization ?? '')?.[1];
  return n === undefined ? null : Number(n);
}

function sendJson(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
  response.end(text);
}

async function runFake(): Promise<void> {
  const stats: FakeStats = { cpuMs: 0, timings: timings(FAKE_TIMINGS) };
  let issued = 0;
  const server = createServer((request: IncomingMessage, response: ServerResponse) => {
    const start = performance.now();
    const path = (request.url ?? '').split('?')[0] ?? '';
    const route: FakeTiming = request.method === 'POST' && path === TOKEN_PATH ? 'token' : request.method === 'GET' && path === '/user' ? 'user' : request.method === 'GET' && path === '/user/emails' ? 'emails' : 'other';
    response.once('finish', () => {
      const timing = stats.timings[route];
      timing.count++;
      timing.ms += performance.now() - start;
    });
    if (route === 'token') {
      const chunks: Buffer[] = [];
      request.on('data', (chunk: Buffer) => chunks.push(chunk));
      request.on('end', () => {
        const code = new URLSearchParams(Buffer.concat(chunks).toString('utf8')).get('code') ?? '';
        issued++;
        sendJson(response, 200, { access_token: `bench-token-${personOfCode(code)}-${issued}`, token_type: 'bearer', scope: 'read:user,user:email' });
      });
      return;
    }
    const person = personOfToken(request.headers.authorization);
    if (route === 'other') sendJson(response, 404, { message: 'Not Found' });
    else if (person === null) sendJson(response, 401, { message: 'Bad credentials' });
    else if (route === 'user') sendJson(response, 200, { id: 7001 + person, login: `bench${person}`, name: `OAuth Bench ${person}`, avatar_url: `https://avatars.example.test/${person}` });
    else sendJson(response, 200, [{ email: personEmail(person), primary: true, verified: true, visibility: 'private' }]);
  });
  // The app's fetch keeps its connections to the fake open between sign-ins.
  server.keepAliveTimeout = 60_000;
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  const running = {
    stop: async (): Promise<void> => {
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
  serveParent(running, { url: `http://127.0.0.1:${port}` } satisfies Ready, (message) => {
    if (message === 'stats') process.send?.({ ...stats, cpuMs: cpuMs() } satisfies FakeStats);
  });
}

// ——— The app server (role `app`) ——————————————————————————————————————————————————————

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

/**
 * Wraps the methods `names` of `target` in a stopwatch adding to `timing` (counting the calls
 * when `count`), and to `writes` too when `isWrite` says the call was one.
 */
function timeMethods(target: object, names: readonly string[], timing: Timing, count: boolean, writes: Timing | null = null, isWrite: (self: unknown) => boolean = () => false): void {
  const methods = target as Record<string, unknown>;
  for (const name of names) {
    const original = methods[name];
    if (typeof original !== 'function') throw new Error(`no method ${name} to time`);
    const fn = original as AnyFunction;
    methods[name] = function (this: unknown, ...args: unknown[]): unknown {
      const start = performance.now();
      try {
        return fn.apply(this, args);
      } finally {
        const ms = performance.now() - start;
        if (count) timing.count++;
        timing.ms += ms;
        if (writes !== null && isWrite(this)) {
          writes.count++;
          writes.ms += ms;
        }
      }
    };
  }
}

/** Anything but a query: INSERT, UPDATE, DELETE, BEGIN, COMMIT… (a commit waits for the disk). */
const isWriteSql = (sql: unknown): boolean => typeof sql === 'string' && !/^\s*(SELECT|WITH)\b/iu.test(sql);

/**
 * Every SQL statement, at the driver. better-sqlite3 is synchronous: its time is the app's
 * thread's. pg's is a round trip: from the query handed to the connection (after the pool) to
 * its answer read, callbacks (knex) and promises (the raw SQL of the OAuth adapter) alike.
 */
function instrumentDatabases(timing: Timing, writes: Timing): void {
  // The build of better-sqlite3 the app loads on this Node line (see sqlite-binding.ts).
  const BetterSqlite = loadSqliteBinding();
  const probe = new BetterSqlite(':memory:');
  const statementPrototype = Object.getPrototypeOf(probe.prepare('SELECT 1')) as object;
  probe.close();
  timeMethods(statementPrototype, ['run', 'get', 'all'], timing, true, writes, (statement) => (statement as { reader?: boolean }).reader !== true);
  timeMethods(BetterSqlite.prototype, ['exec'], timing, true, writes, () => true);
  // Preparing is part of a statement's time, not a statement of its own.
  timeMethods(BetterSqlite.prototype, ['prepare'], timing, false);

  const client = pg.Client.prototype as unknown as { query: AnyFunction };
  const query = client.query;
  client.query = function (this: unknown, ...args: unknown[]): unknown {
    const start = performance.now();
    const [first] = args;
    const write = isWriteSql(typeof first === 'object' && first !== null ? (first as { text?: unknown }).text : first);
    const done = (): void => {
      const ms = performance.now() - start;
      timing.count++;
      timing.ms += ms;
      if (write) {
        writes.count++;
        writes.ms += ms;
      }
    };
    const last = args.at(-1);
    if (typeof last === 'function') {
      const callback = last as AnyFunction;
      args[args.length - 1] = function (this: unknown, ...results: unknown[]): unknown {
        done();
        return callback.apply(this, results);
      };
      return query.apply(this, args);
    }
    const result = query.apply(this, args);
    if (result instanceof Promise) return result.finally(done);
    return result;
  };
}

/** The cookie session's crypto: every seal and unseal of @hapi/iron (CookieSealer calls them through the module's exports). */
function instrumentIron(seal: Timing, unseal: Timing): void {
  const iron = Iron as unknown as Record<'seal' | 'unseal', (...args: unknown[]) => Promise<unknown>>;
  for (const [name, timing] of [['seal', seal], ['unseal', unseal]] as const) {
    const original = iron[name];
    iron[name] = async (...args: unknown[]): Promise<unknown> => {
      const start = performance.now();
      try {
        return await original(...args);
      } finally {
        timing.count++;
        timing.ms += performance.now() - start;
      }
    };
  }
}

/**
 * The framework's HttpClient in a stopwatch: each call until the answer's headers, by
 * endpoint; and the two profile reads (concurrent, with the same bearer token) as one span,
 * from the first out to the last in: the part of a callback's latency they make.
 */
function timedHttpClient(inner: HttpClient, stats: AppStats): HttpClient {
  const spans = new Map<string, { start: number; left: number }>();
  return {
    async fetch(url: string, init?: HttpRequestInit): Promise<Response> {
      const path = new URL(url).pathname;
      const name: AppTiming = path.endsWith(TOKEN_PATH) ? 'token' : path.endsWith('/user/emails') ? 'emails' : path.endsWith('/user') ? 'user' : 'otherOutbound';
      const start = performance.now();
      const bearer = name === 'user' || name === 'emails' ? new Headers(init?.headers).get('authorization') : null;
      let span: { start: number; left: number } | undefined;
      if (bearer !== null) {
        span = spans.get(bearer) ?? { start, left: 2 };
        spans.set(bearer, span);
      }
      try {
        return await inner.fetch(url, init);
      } finally {
        const end = performance.now();
        stats.timings[name].count++;
        stats.timings[name].ms += end - start;
        if (span !== undefined && bearer !== null && --span.left === 0) {
          spans.delete(bearer);
          stats.timings.profile.count++;
          stats.timings.profile.ms += end - span.start;
        }
      }
    },
  };
}

async function runApp(tempDir: string, databaseUrl: string, fakeUrl: string, port: string): Promise<void> {
  const stats: AppStats = { cpuMs: 0, asked: 0, open: 0, loopActive: 0, loopIdle: 0, timings: timings(APP_TIMINGS) };
  // Node's own HTTP server channel: every request the app is asked, open until its answer is done or dropped.
  subscribe('http.server.request.start', (message) => {
    stats.asked++;
    stats.open++;
    const { response } = message as { response: ServerResponse };
    response.once('close', () => stats.open--);
  });
  instrumentDatabases(stats.timings.db, stats.timings.dbWrite);
  instrumentIron(stats.timings.seal, stats.timings.unseal);
  const root = join(tempDir, `app-${randomBytes(4).toString('hex')}`);
  mkdirSync(root, { recursive: true });
  const app = createDefaultApp({
    root,
    envFile: false,
    httpClient: timedHttpClient(new FetchHttpClient(), stats),
    environment: benchEnvironment(databaseUrl, {
      APP_URL: `http://127.0.0.1:${port}`,
      PORT: port,
      MAIL_URL: 'log:',
      TRUSTED_PROXIES: '127.0.0.1',
      PROVIDER_B_CLIENT_ID: CLIENT_ID,
      PROVIDER_B_CLIENT_SECRET: CLIENT_SECRET,
      PROVIDER_B_AUTHORIZE_URL: `${fakeUrl}${AUTHORIZE_PATH}`,
      PROVIDER_B_TOKEN_URL: `${fakeUrl}${TOKEN_PATH}`,
      PROVIDER_B_API_URL: fakeUrl,
    }),
  });
  const running = await app.serve();
  const created = await running.services.get(TOKENS.createUser).execute({ name: 'Password Bench', email: PASSWORD_EMAIL, password: PASSWORD, verified: true });
  if (created.kind !== 'created') throw new Error(`the password user was not created: ${JSON.stringify(created)}`);
  const database = running.services.get(TOKENS.database);
  const count = async (table: string): Promise<number> => {
    const [row] = await database.raw.session((sql) => sql.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`));
    return Number(row?.n ?? NaN);
  };
  serveParent(running, { url: running.url } satisfies Ready, (message) => {
    if (message === 'stats') {
      const loop = performance.eventLoopUtilization();
      process.send?.({ ...stats, cpuMs: cpuMs(), loopActive: loop.active, loopIdle: loop.idle } satisfies AppStats);
    } else if (message === 'counts') {
      void Promise.all([count('users'), count('oauth_accounts'), count('activity_log')]).then(([users, links, activity]) => process.send?.({ users, links, activity } satisfies Counts));
    }
  });
}

// ——— The bench (no role) ————————————————————————————————————————————————————————————

type Engine = 'sqlite' | 'postgres';
const ENGINE_NAMES: Record<Engine, string> = { sqlite: 'SQLite', postgres: 'PostgreSQL' };

interface Child {
  url: string;
  child: ChildProcess;
}

/** A redirect made, waiting for its callback: the browser's address, its session cookie and the state. */
interface Pending {
  ip: string;
  cookie: string;
  state: string;
}

interface Server extends Child {
  engine: Engine;
  /** Redirects made beforehand for the callback rows (sealed with this server's key). */
  pool: Pending[];
}

type RowId = 'health' | 'password' | 'oauth' | 'redirect' | 'redirect-1' | 'callback' | 'callback-1';

const ROWS: readonly { id: RowId; label: string }[] = [
  { id: 'health', label: 'GET /health' },
  { id: 'password', label: 'password sign-in (GET+POST /login)' },
  { id: 'oauth', label: 'OAuth sign-in (redirect+callback)' },
  { id: 'redirect', label: `  redirect alone, ${BROWSERS} at a time` },
  { id: 'redirect-1', label: '  redirect alone, 1 at a time' },
  { id: 'callback', label: `  callback alone, ${BROWSERS} at a time` },
  { id: 'callback-1', label: '  callback alone, 1 at a time' },
];

/** What the servers did during a row: the app's and the fake's counters, PostgreSQL's CPU time. */
interface Delta {
  app: AppStats;
  fake: FakeStats;
  /** All PostgreSQL processes on this machine (null when none can be read). */
  postgresCpuMs: number | null;
}

interface Run {
  /** Successes a second (sign-ins, or answers as expected). */
  perSecond: number;
  /** Of the successes (a whole loop for the sign-in rows), ms. */
  p50: number;
  p99: number;
  /** Their sum, ms (means for the breakdown). */
  latencySum: number;
  successes: number;
  /** Wrong answers, errors, timeouts, callbacks short of a redirect made beforehand. */
  unexpected: number;
  delta: Delta;
}

const children = new ChildServers();
/** The run's temporary folder (the SQLite file, the apps' roots), made by `main`. */
let dir = '';
const benchDatabase = new BenchDatabase();


async function cleanUp(): Promise<void> {
  children.killAll();
  await benchDatabase.drop();
  if (dir !== '') rmSync(dir, { recursive: true, force: true });
}


/** A port nobody listens on now, so that APP_URL can name the app's own address before it starts. */
async function freePort(): Promise<number> {
  const server = createNetServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  server.close();
  await once(server, 'close');
  return port;
}

function startChild(name: string, args: string[]): Promise<Child> {
  // The same Node with the same loader (tsx) as this process.
  const child = spawn(process.execPath, [...process.execArgv, SELF, ...args], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${name} did not start within 60 s`)), 60_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve({ url: (message as Ready).url, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${name} exited (code ${code}) before listening`));
    });
  });
}

/** Asks a child one question over IPC and waits for its answer (one question at a time per child). */
function ask<T>(child: ChildProcess, question: string): Promise<T> {
  return new Promise((resolve) => {
    child.once('message', (message) => resolve(message as T));
    child.send(question);
  });
}

let clients = 0;

/**
 * An address of its own for each browser, sent as X-Forwarded-For (the servers trust 127.0.0.1
 * as their proxy): the sign-in routes' and login form's throttles (30 a minute per address)
 * then count per browser, as in production.
 */
function nextClient(): string {
  const n = clients++;
  return `10.${(n >> 16) & 255}.${(n >> 8) & 255}.${n & 255}`;
}

/** autocannon's headers (a name once: a string, several times: a list), by lower-case name. */
function headerValues(headers: autocannon.Request['headers'], name: string): string[] {
  for (const [key, value] of Object.entries(headers ?? {})) {
    if (key.toLowerCase() !== name) continue;
    return value === undefined ? [] : Array.isArray(value) ? value : [String(value)];
  }
  return [];
}

/** The `cookie` header a browser sends back after these Set-Cookie headers. */
function cookieOf(setCookies: readonly string[]): string | null {
  const pairs = setCookies.map((setCookie) => setCookie.split(';')[0] ?? '').filter((pair) => pair !== '');
  return pairs.length === 0 ? null : pairs.join('; ');
}

let authorizeUrl = '';

/** A redirect to the fake's authorize endpoint with a state, and the session cookie that remembers it; or null. */
function pendingFrom(status: number, location: string | undefined, setCookies: readonly string[], ip: string): Pending | null {
  if (status !== 303 || location === undefined || !location.startsWith(`${authorizeUrl}?`)) return null;
  const state = new URL(location).searchParams.get('state');
  const cookie = cookieOf(setCookies);
  return state === null || cookie === null ? null : { ip, cookie, state };
}

/** A login: 303 to / with a new session cookie. */
const signedIn = (status: number, location: string | undefined, setCookies: readonly string[]): boolean => status === 303 && location === '/' && setCookies.length > 0;

let nextPerson = 0;
const callbackPath = (state: string): string => `${CALLBACK_PATH}?code=code-${nextPerson++ % PERSONS}&state=${encodeURIComponent(state)}`;

/** What the requests of a row count: successes with their latencies, and the rest. */
interface Tally {
  successes: number;
  latencies: number[];
  unexpected: number;
}

/** A browser (autocannon's context, fresh for each loop of the requests: an empty cookie jar). */
interface Browser {
  ip?: string;
  start?: number;
  cookie?: string;
  state?: string;
  token?: string;
}

const browser = (context: object): Browser => context;

function succeeded(tally: Tally, context: object): void {
  tally.successes++;
  tally.latencies.push(performance.now() - (browser(context).start ?? NaN));
}

/** A new browser's first request: its address, and the loop's clock started. */
function firstRequest(request: autocannon.Request, context: object): autocannon.Request {
  const b = browser(context);
  b.ip = nextClient();
  b.start = performance.now();
  return { ...request, headers: { 'x-forwarded-for': b.ip } };
}

function oauthLoop(tally: Tally): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path: REDIRECT_PATH,
      setupRequest: (request, context) => firstRequest(request, context),
      onResponse: (status, _body, context, headers) => {
        const b = browser(context);
        const pending = pendingFrom(status, headerValues(headers, 'location')[0], headerValues(headers, 'set-cookie'), b.ip ?? '');
        if (pending === null) return;
        b.cookie = pending.cookie;
        b.state = pending.state;
      },
    },
    {
      method: 'GET',
      path: CALLBACK_PATH,
      setupRequest: (request, context) => {
        const b = browser(context);
        return { ...request, path: callbackPath(b.state ?? 'none'), headers: { cookie: b.cookie ?? '', 'x-forwarded-for': b.ip ?? '' } };
      },
      onResponse: (status, _body, context, headers) => {
        if (signedIn(status, headerValues(headers, 'location')[0], headerValues(headers, 'set-cookie'))) succeeded(tally, context);
        else tally.unexpected++;
      },
    },
  ];
}

function passwordLoop(server: Server, tally: Tally): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path: '/login',
      setupRequest: (request, context) => firstRequest(request, context),
      onResponse: (status, body, context, headers) => {
        const b = browser(context);
        const cookie = cookieOf(headerValues(headers, 'set-cookie'));
        const token = /name="_token" value="([^"]*)"/u.exec(body)?.[1];
        if (status !== 200 || cookie === null || token === undefined) return;
        b.cookie = cookie;
        b.token = token;
      },
    },
    {
      method: 'POST',
      path: '/login',
      setupRequest: (request, context) => {
        const b = browser(context);
        return {
          ...request,
          headers: { cookie: b.cookie ?? '', 'x-forwarded-for': b.ip ?? '', referer: `${server.url}/login`, 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ _token: b.token ?? '', email: PASSWORD_EMAIL, password: PASSWORD }).toString(),
        };
      },
      onResponse: (status, _body, context, headers) => {
        if (signedIn(status, headerValues(headers, 'location')[0], headerValues(headers, 'set-cookie'))) succeeded(tally, context);
        else tally.unexpected++;
      },
    },
  ];
}

/** Redirects alone, each kept in the server's pool for a callback row. */
function redirects(server: Server, tally: Tally): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path: REDIRECT_PATH,
      setupRequest: (request, context) => firstRequest(request, context),
      onResponse: (status, _body, context, headers) => {
        const pending = pendingFrom(status, headerValues(headers, 'location')[0], headerValues(headers, 'set-cookie'), browser(context).ip ?? '');
        if (pending === null) {
          tally.unexpected++;
          return;
        }
        succeeded(tally, context);
        server.pool.push(pending);
      },
    },
  ];
}

/** Callbacks alone, each for a redirect made beforehand; one short of them is sent with a made-up state, and counted. */
function callbacks(server: Server, tally: Tally): autocannon.Request[] {
  return [
    {
      method: 'GET',
      path: CALLBACK_PATH,
      setupRequest: (request, context) => {
        const b = browser(context);
        const pending = server.pool.pop() ?? { ip: nextClient(), cookie: '', state: 'none' };
        b.start = performance.now();
        return { ...request, path: callbackPath(pending.state), headers: { cookie: pending.cookie, 'x-forwarded-for': pending.ip } };
      },
      onResponse: (status, _body, context, headers) => {
        if (signedIn(status, headerValues(headers, 'location')[0], headerValues(headers, 'set-cookie'))) succeeded(tally, context);
        else tally.unexpected++;
      },
    },
  ];
}

/**
 * The CPU time of every `postgres` process this machine shows, ms: the backends' own, and the
 * postmaster's children's (backends that have exited). Whoever else uses the server counts too.
 */
function postgresCpuMs(): number | null {
  let ticks = 0;
  let seen = false;
  let pids: string[];
  try {
    pids = readdirSync('/proc').filter((name) => /^\d+$/u.test(name));
  } catch {
    return null;
  }
  for (const pid of pids) {
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue;
    }
    // pid (comm) state ppid …: fields after the command's closing parenthesis, utime is the 14th field.
    const close = stat.lastIndexOf(')');
    if (!stat.slice(stat.indexOf('(') + 1, close).startsWith('postgres')) continue;
    const fields = stat.slice(close + 2).split(' ');
    seen = true;
    for (const index of [11, 12, 13, 14]) ticks += Number(fields[index] ?? 0);
  }
  // USER_HZ: 100 on Linux.
  return seen ? ticks * 10 : null;
}

/**
 * The app's counters once it is done with what it was asked: no request open, and no statement,
 * code exchange or seal for SETTLE_MS (at most a second). The work of a row's last requests,
 * which autocannon leaves unanswered when its time is up, counts in that row, not the next.
 */
async function settledAppStats(server: Server): Promise<AppStats> {
  const progress = (stats: AppStats): string => `${stats.open} ${stats.timings.db.count} ${stats.timings.token.count} ${stats.timings.seal.count}`;
  let last = await ask<AppStats>(server.child, 'stats');
  for (let tries = 0; tries < 1000 / SETTLE_MS; tries++) {
    await sleep(SETTLE_MS);
    const now = await ask<AppStats>(server.child, 'stats');
    if (now.open === 0 && progress(now) === progress(last)) return now;
    last = now;
  }
  return last;
}

async function snapshot(server: Server, fake: Child): Promise<Delta> {
  const app = await settledAppStats(server);
  const fakeStats = await ask<FakeStats>(fake.child, 'stats');
  return { app, fake: fakeStats, postgresCpuMs: postgresCpuMs() };
}

function minusTimings<K extends string>(after: Record<K, Timing>, before: Record<K, Timing>): Record<K, Timing> {
  return Object.fromEntries(Object.entries<Timing>(after).map(([name, timing]) => [name, { count: timing.count - before[name as K].count, ms: timing.ms - before[name as K].ms }])) as Record<K, Timing>;
}

function minus(after: Delta, before: Delta): Delta {
  return {
    app: {
      cpuMs: after.app.cpuMs - before.app.cpuMs,
      asked: after.app.asked - before.app.asked,
      open: after.app.open,
      loopActive: after.app.loopActive - before.app.loopActive,
      loopIdle: after.app.loopIdle - before.app.loopIdle,
      timings: minusTimings(after.app.timings, before.app.timings),
    },
    fake: { cpuMs: after.fake.cpuMs - before.fake.cpuMs, timings: minusTimings(after.fake.timings, before.fake.timings) },
    postgresCpuMs: after.postgresCpuMs === null || before.postgresCpuMs === null ? null : after.postgresCpuMs - before.postgresCpuMs,
  };
}

function quantile(sorted: readonly number[], q: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))] ?? NaN;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

/** One row for `seconds` (or `amount` requests), the servers' counters read around it. */
async function measure(
  server: Server,
  fake: Child,
  build: (tally: Tally) => autocannon.Request[],
  options: { seconds?: number; amount?: number; connections?: number; requestsPerLoop?: number },
): Promise<Run> {
  const tally: Tally = { successes: 0, latencies: [], unexpected: 0 };
  const before = await snapshot(server, fake);
  const result = await autocannon({
    url: server.url,
    connections: options.connections ?? BROWSERS,
    pipelining: 1,
    ...(options.amount === undefined ? { duration: options.seconds ?? 1 } : { amount: options.amount }),
    requests: build(tally),
  });
  const delta = minus(await snapshot(server, fake), before);
  const sorted = tally.latencies.sort((a, b) => a - b);
  return {
    perSecond: tally.successes / result.duration,
    p50: quantile(sorted, 0.5),
    p99: quantile(sorted, 0.99),
    latencySum: sorted.reduce((sum, value) => sum + value, 0),
    successes: tally.successes,
    unexpected: tally.unexpected + result.errors + result.timeouts,
    delta,
  };
}

/** GET /health: autocannon's own latencies (whole ms), the requests unchanged, so that the load generator stays light. */
async function measureHealth(server: Server, fake: Child, seconds: number): Promise<Run> {
  const before = await snapshot(server, fake);
  const result = await autocannon({ url: `${server.url}/health`, connections: BROWSERS, pipelining: 1, duration: seconds });
  const delta = minus(await snapshot(server, fake), before);
  const ok = result['2xx'];
  return {
    perSecond: ok / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    latencySum: result.latency.mean * ok,
    successes: ok,
    unexpected: result.non2xx + result.errors + result.timeouts,
    delta,
  };
}

/** Redirects made beforehand, so that a callback row of `seconds` at `rate` does not run short. */
async function fillPool(server: Server, fake: Child, seconds: number, rate: number): Promise<void> {
  const wanted = Math.ceil(seconds * rate * POOL_MARGIN) + BROWSERS;
  if (server.pool.length >= wanted) return;
  const run = await measure(server, fake, (tally) => redirects(server, tally), { amount: wanted - server.pool.length });
  if (run.unexpected > 0) throw new Error(`${run.unexpected} redirects of ${server.engine} went wrong while filling the pool`);
}

interface BrowserAnswer {
  status: number;
  location: string | null;
  cookie: string | null;
  body: string;
}

async function get(url: string, ip: string, cookie: string | null = null): Promise<BrowserAnswer> {
  const response = await fetch(url, { redirect: 'manual', headers: { 'x-forwarded-for': ip, ...(cookie === null ? {} : { cookie }) } });
  const body = await response.text();
  return { status: response.status, location: response.headers.get('location'), cookie: cookieOf(response.headers.getSetCookie()), body };
}

/** The spec's recipe, as a browser with fetch: the redirect, the state from `location`, the callback; the signed-in cookie. */
async function signInOnce(server: Server, person: number): Promise<{ cookie: string; authorize: URL }> {
  const ip = nextClient();
  const start = await get(`${server.url}${REDIRECT_PATH}`, ip);
  const pending = pendingFrom(start.status, start.location ?? undefined, start.cookie === null ? [] : [start.cookie], ip);
  if (pending === null) throw new Error(`GET ${REDIRECT_PATH} on ${server.engine} answered ${start.status} to ${start.location ?? 'nowhere'}, not to ${authorizeUrl} with a state and a cookie`);
  const back = await get(`${server.url}${CALLBACK_PATH}?code=code-${person}&state=${encodeURIComponent(pending.state)}`, ip, pending.cookie);
  if (back.status !== 303 || back.location !== '/' || back.cookie === null) throw new Error(`the callback on ${server.engine} answered ${back.status} to ${back.location ?? 'nowhere'} for person ${person}`);
  return { cookie: back.cookie, authorize: new URL(start.location ?? '') };
}

// ——— The run ————————————————————————————————————————————————————————————————————

async function main(): Promise<void> {
  const began = performance.now();
  const loadBefore = loadavg()[0] ?? NaN;
  dir = mkdtempSync(join(tmpdir(), 'fw-oauth-bench-'));
  const deadline = setTimeout(() => {
    console.error(`\nThe OAuth bench ran past ${DEADLINE_MS / 1000} s and was stopped.`);
    void cleanUp().finally(() => process.exit(1));
  }, DEADLINE_MS);
  deadline.unref();

  const checks: string[] = [];
  const warnings: string[] = [];
  const runs = new Map<`${Engine}:${RowId}`, Run[]>();
  const servers: Server[] = [];
  try {
    const fake = await startChild('fake provider', ['fake']);
    authorizeUrl = `${fake.url}${AUTHORIZE_PATH}`;
    const start = async (engine: Engine, databaseUrl: string): Promise<Server> => {
      const port = await freePort();
      const child = await startChild(`${engine} app server`, ['app', dir, databaseUrl, fake.url, String(port)]);
      return { ...child, engine, pool: [] };
    };
    servers.push(await start('sqlite', `sqlite:${join(dir, 'bench.sqlite')}`));
    const database = await benchDatabase.create();
    if ('url' in database) servers.push(await start('postgres', database.url));
    else warnings.push(`PostgreSQL: no database (${database.problem}); its columns are empty`);

    // The linked users: each provider account signs in once, which registers and links it.
    // Then what the rows load, checked once: a second sign-in logs the linked user in (the
    // account page shows them), the fake answered three requests per sign-in, a password login works.
    for (const server of servers) {
      const name = ENGINE_NAMES[server.engine];
      const before = await snapshot(server, fake);
      let authorize: URL | null = null;
      for (let person = 0; person < PERSONS; person++) {
        const first = await signInOnce(server, person);
        authorize ??= first.authorize;
      }
      const again = await signInOnce(server, 0);
      const account = await get(`${server.url}/account`, nextClient(), again.cookie);
      const used = minus(await snapshot(server, fake), before);
      const fakeRequests = FAKE_TIMINGS.reduce((sum, t) => sum + used.fake.timings[t].count, 0);
      const counts = await ask<Counts>(server.child, 'counts');
      const ip = nextClient();
      const form = await get(`${server.url}/login`, ip);
      const token = /name="_token" value="([^"]*)"/u.exec(form.body)?.[1] ?? '';
      const login = await fetch(`${server.url}/login`, {
        method: 'POST',
        redirect: 'manual',
        headers: { cookie: form.cookie ?? '', 'x-forwarded-for': ip, referer: `${server.url}/login`, 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ _token: token, email: PASSWORD_EMAIL, password: PASSWORD }).toString(),
      });
      await login.text();
      const greets = account.status === 200 && account.body.includes(personEmail(0));
      if (!greets) throw new Error(`${name}: after a second sign-in, /account answered ${account.status} ${account.body.includes(personEmail(0)) ? 'with' : 'without'} ${personEmail(0)}`);
      if (login.status !== 303 || login.headers.get('location') !== '/') throw new Error(`${name}: the password login answered ${login.status} to ${login.headers.get('location') ?? 'nowhere'}`);
      checks.push(
        `${name}: ${PERSONS} provider accounts signed in once (${counts.users - 1} users registered and ${counts.links} linked); a second sign-in of the first lands on / and /account shows ${personEmail(0)}; ` +
          `the fake answered ${(fakeRequests / (PERSONS + 1)).toFixed(1)} requests per sign-in; the redirect sends client_id ${authorize?.searchParams.get('client_id') ?? '?'}, ${authorize?.searchParams.get('code_challenge_method') ?? 'no'} PKCE, redirect_uri ${authorize?.searchParams.get('redirect_uri') ?? '?'}; a password login answers 303 to /`,
      );
    }

    // Warm-up (JIT, pools, keep-alive connections to the fake), not counted.
    let callbackRate = 0;
    for (const server of servers) {
      await measureHealth(server, fake, WARMUP_SECONDS.health);
      await measure(server, fake, (tally) => passwordLoop(server, tally), { seconds: WARMUP_SECONDS.password });
      const warm = await measure(server, fake, oauthLoop, { seconds: WARMUP_SECONDS.oauth });
      // A callback alone goes faster than the loop: at most the loop's rate times the requests of a loop.
      callbackRate = Math.max(callbackRate, 2 * warm.perSecond);
    }

    const record = (server: Server, row: RowId, run: Run): Run => {
      runs.set(`${server.engine}:${row}`, [...(runs.get(`${server.engine}:${row}`) ?? []), run]);
      return run;
    };
    for (let round = 0; round < ROUNDS; round++) {
      for (const server of round % 2 === 0 ? servers : [...servers].reverse()) {
        record(server, 'health', await measureHealth(server, fake, SECONDS.health));
        record(server, 'password', await measure(server, fake, (tally) => passwordLoop(server, tally), { seconds: SECONDS.password }));
        record(server, 'oauth', await measure(server, fake, oauthLoop, { seconds: SECONDS.oauth }));
        record(server, 'redirect', await measure(server, fake, (tally) => redirects(server, tally), { seconds: SECONDS.redirect }));
        record(server, 'redirect-1', await measure(server, fake, (tally) => redirects(server, tally), { seconds: SECONDS['redirect-1'], connections: 1 }));
        await fillPool(server, fake, SECONDS.callback, callbackRate);
        const many = record(server, 'callback', await measure(server, fake, (tally) => callbacks(server, tally), { seconds: SECONDS.callback }));
        callbackRate = Math.max(callbackRate, many.perSecond);
        await fillPool(server, fake, SECONDS['callback-1'], callbackRate);
        record(server, 'callback-1', await measure(server, fake, (tally) => callbacks(server, tally), { seconds: SECONDS['callback-1'], connections: 1 }));
      }
    }

    // Every measured sign-in logged a linked user in: nobody was registered or linked meanwhile.
    for (const server of servers) {
      const counts = await ask<Counts>(server.child, 'counts');
      const signIns = (['oauth', 'callback', 'callback-1'] as const).reduce((sum, row) => sum + (runs.get(`${server.engine}:${row}`) ?? []).reduce((s, run) => s + run.successes, 0), 0);
      checks.push(
        `${ENGINE_NAMES[server.engine]} after the run: ${counts.users} users (${PERSONS} linked + the password user), ${counts.links} links; ${signIns} measured sign-ins, ${counts.activity} activity_log rows`,
      );
      if (counts.users !== PERSONS + 1 || counts.links !== PERSONS) warnings.push(`${ENGINE_NAMES[server.engine]}: users or links were made during the run: not every sign-in was of an existing linked user`);
    }
    for (const server of servers) await children.stop(server.child);
    await children.stop(fake.child);
  } finally {
    await cleanUp();
  }
  const load = `the machine's load average (1 min) was ${loadBefore.toFixed(1)} at the start and ${(loadavg()[0] ?? NaN).toFixed(1)} at the end, on ${CORES} cores`;
  printTables(runs, checks, warnings, `The run took ${((performance.now() - began) / 1000).toFixed(0)} s; ${load}.`);
}

// ——— The tables ———————————————————————————————————————————————————————————————————

function printTables(runs: ReadonlyMap<`${Engine}:${RowId}`, Run[]>, checks: readonly string[], warnings: string[], footer: string): void {
  const engines: Engine[] = ['sqlite', 'postgres'];
  const line = (cells: string[], widths: number[]): string =>
    cells.map((cell, index) => (index === 0 ? cell.padEnd(widths[index] ?? 0) : cell.padStart(widths[index] ?? 0))).join('  ');
  const table = (titles: string[], widths: number[], rows: string[][]): void => {
    const header = line(titles, widths);
    console.log(header);
    console.log('-'.repeat(header.length));
    for (const row of rows) console.log(line(row, widths));
  };
  const fixed = (value: number | null | undefined, digits: number): string => (value === null || value === undefined || !Number.isFinite(value) ? '—' : value.toFixed(digits));
  const of = (engine: Engine, row: RowId): Run[] => runs.get(`${engine}:${row}`) ?? [];
  const med = (engine: Engine, row: RowId, pick: (run: Run) => number): number | null => {
    const list = of(engine, row);
    return list.length === 0 ? null : median(list.map(pick));
  };
  /** The median of the per-round ratios: each round's rows ran under the same load. */
  const ratio = (engine: Engine, row: RowId, baseline: RowId, other: Engine = engine): number | null => {
    const mine = of(engine, row);
    const theirs = of(other, baseline);
    if (mine.length === 0 || theirs.length === 0) return null;
    return median(mine.map((run, index) => run.perSecond / (theirs[index]?.perSecond ?? NaN)));
  };
  /** The app's event loop busy, % of the row's time. */
  const busy = (run: Run): number => (100 * run.delta.app.loopActive) / (run.delta.app.loopActive + run.delta.app.loopIdle);

  console.log(`\nOAuth: complete provider_b sign-ins of existing linked users against a fake provider on loopback, SQLite and PostgreSQL (${CORES} cores; the app, the fake, PostgreSQL and autocannon share them)`);
  for (const check of checks) console.log(`  ${check}`);
  console.log(
    `\n1. Rates: autocannon, pipelining 1, ${BROWSERS} browsers at a time (1 where it says so), a fresh browser (empty cookie jar, own address) per sign-in; ${ROUNDS} rounds of ${SECONDS.oauth} s (OAuth), ${SECONDS.password} s (password), ${SECONDS.health} s (health), ${SECONDS['redirect-1']}–${SECONDS.callback} s (parts), the servers taking turns; medians`,
  );
  console.log(
    '   /s: sign-ins (or answers) a second; p50/p99: of a whole sign-in (both requests) in the sign-in rows, of the request in the others (/health: autocannon\'s whole ms);',
  );
  console.log('   busy: the app\'s event loop, % of the row\'s time; CPU: the app process\'s CPU time (all threads: Argon2\'s too) per sign-in or answer, ms\n');
  const rowCells = (engine: Engine, row: RowId): string[] => [
    fixed(med(engine, row, (run) => run.perSecond), 0),
    fixed(med(engine, row, (run) => run.p50), row === 'health' ? 0 : 2),
    fixed(med(engine, row, (run) => run.p99), row === 'health' ? 0 : 2),
    fixed(med(engine, row, busy), 0),
    fixed(med(engine, row, (run) => run.delta.app.cpuMs / run.successes), row === 'health' ? 3 : 2),
  ];
  table(
    ['row', 'SQLite /s', 'p50 ms', 'p99 ms', 'busy %', 'CPU ms', 'PG /s', 'p50 ms', 'p99 ms', 'busy %', 'CPU ms', 'PG/SQLite'],
    [36, 9, 7, 7, 6, 6, 9, 7, 7, 6, 6, 9],
    ROWS.map(({ id, label }) => [label, ...rowCells('sqlite', id), ...rowCells('postgres', id), fixed(ratio('postgres', id, id, 'sqlite'), 2)]),
  );
  for (const engine of engines) {
    for (const { id, label } of ROWS) {
      const unexpected = of(engine, id).reduce((sum, run) => sum + run.unexpected, 0);
      if (unexpected > 0) warnings.push(`${ENGINE_NAMES[engine]}, ${label.trim()}: ${unexpected} wrong answers, errors, or callbacks short of a redirect made beforehand`);
    }
  }

  console.log('\n   Ratios (medians of the per-round ratios, same server):\n');
  table(
    ['ratio', 'SQLite', 'PostgreSQL'],
    [52, 9, 10],
    [
      ['OAuth sign-ins/s ÷ password sign-ins/s', ...engines.map((e) => fixed(ratio(e, 'oauth', 'password'), 2))],
      ['OAuth sign-ins/s ÷ GET /health req/s', ...engines.map((e) => fixed(ratio(e, 'oauth', 'health'), 3))],
      ['password sign-ins/s ÷ GET /health req/s', ...engines.map((e) => fixed(ratio(e, 'password', 'health'), 4))],
      ['callbacks/s (alone) ÷ redirects/s (alone)', ...engines.map((e) => fixed(ratio(e, 'callback', 'redirect'), 2))],
    ],
  );

  // The breakdown: totals over the rounds, per request the app was asked.
  const columns: { engine: Engine; row: RowId; title: string }[] = [
    { engine: 'sqlite', row: 'redirect-1', title: 'redir×1 SQL' },
    { engine: 'postgres', row: 'redirect-1', title: 'redir×1 PG' },
    { engine: 'sqlite', row: 'callback-1', title: 'cb×1 SQL' },
    { engine: 'postgres', row: 'callback-1', title: 'cb×1 PG' },
    { engine: 'sqlite', row: 'callback', title: `cb×${BROWSERS} SQL` },
    { engine: 'postgres', row: 'callback', title: `cb×${BROWSERS} PG` },
  ];
  interface Totals {
    /** Requests the app was asked (its counters include all their work: see settledAppStats). */
    requests: number;
    successes: number;
    latencyMs: number;
    app: AppStats;
    fake: FakeStats;
    postgresCpuMs: number;
  }
  const totals = (engine: Engine, row: RowId): Totals | null => {
    const list = of(engine, row);
    if (list.length === 0) return null;
    const sum = <K extends string>(pick: (run: Run) => Record<K, Timing>, names: readonly K[]): Record<K, Timing> =>
      Object.fromEntries(names.map((name) => [name, { count: list.reduce((s, run) => s + pick(run)[name].count, 0), ms: list.reduce((s, run) => s + pick(run)[name].ms, 0) }])) as Record<K, Timing>;
    return {
      requests: list.reduce((s, run) => s + run.delta.app.asked, 0),
      successes: list.reduce((s, run) => s + run.successes, 0),
      latencyMs: list.reduce((s, run) => s + run.latencySum, 0),
      app: {
        cpuMs: list.reduce((s, run) => s + run.delta.app.cpuMs, 0),
        asked: list.reduce((s, run) => s + run.delta.app.asked, 0),
        open: 0,
        loopActive: list.reduce((s, run) => s + run.delta.app.loopActive, 0),
        loopIdle: list.reduce((s, run) => s + run.delta.app.loopIdle, 0),
        timings: sum((run) => run.delta.app.timings, APP_TIMINGS),
      },
      fake: { cpuMs: list.reduce((s, run) => s + run.delta.fake.cpuMs, 0), timings: sum((run) => run.delta.fake.timings, FAKE_TIMINGS) },
      postgresCpuMs: list.reduce((s, run) => s + (run.delta.postgresCpuMs ?? NaN), 0),
    };
  };
  const all = columns.map((column) => totals(column.engine, column.row));
  const per = (pick: (t: Totals) => number, digits = 2): string[] => all.map((t) => (t === null || t.requests === 0 ? '—' : fixed(pick(t) / t.requests, digits)));
  const appMs = (t: Totals, name: AppTiming): number => t.app.timings[name].ms;
  const fakeRequests = (t: Totals): number => FAKE_TIMINGS.reduce((s, name) => s + t.fake.timings[name].count, 0);
  const fakeMs = (t: Totals): number => FAKE_TIMINGS.reduce((s, name) => s + t.fake.timings[name].ms, 0);
  const accounted = (t: Totals): number => appMs(t, 'token') + appMs(t, 'profile') + appMs(t, 'db') + appMs(t, 'seal') + appMs(t, 'unseal');
  const meanLatency = (t: Totals): number => (t.successes === 0 ? NaN : t.latencyMs / t.successes);
  const rows: string[][] = [
    ['latency, mean (autocannon side)', ...all.map((t) => (t === null ? '—' : fixed(meanLatency(t), 3)))],
    ['code exchange, POST token (app side)', ...per((t) => appMs(t, 'token'), 3)],
    ['profile, GET /user ‖ /user/emails (app, span)', ...per((t) => appMs(t, 'profile'), 3)],
    ['  inside the fake: its handlers, all requests', ...per(fakeMs, 3)],
    ['  requests to the fake (count)', ...per(fakeRequests, 1)],
    ['database: statements (count)', ...per((t) => t.app.timings.db.count, 1)],
    ['database: time (SQLite: app thread; PG: round trip)', ...per((t) => appMs(t, 'db'), 3)],
    ['  of which writes, BEGIN, COMMIT (count)', ...per((t) => t.app.timings.dbWrite.count, 1)],
    ['  of which writes, BEGIN, COMMIT (time)', ...per((t) => appMs(t, 'dbWrite'), 3)],
    ['session cookie: iron unseal + seal (count)', ...per((t) => t.app.timings.seal.count + t.app.timings.unseal.count, 1)],
    ['session cookie: iron unseal + seal (time)', ...per((t) => appMs(t, 'seal') + appMs(t, 'unseal'), 3)],
    ['rest = mean − the above (pipeline, openid-client,', ...all.map((t) => (t === null || t.requests === 0 ? '—' : fixed(meanLatency(t) - accounted(t) / t.requests, 3)))],
    ['  routing, events, activity log …; queueing under load)', ...all.map(() => '')],
    ['app CPU (all threads)', ...per((t) => t.app.cpuMs, 3)],
    ['app event loop busy, % of the row', ...all.map((t) => (t === null ? '—' : fixed((100 * t.app.loopActive) / (t.app.loopActive + t.app.loopIdle), 0)))],
    ['fake provider CPU', ...per((t) => t.fake.cpuMs, 3)],
    ['PostgreSQL CPU (all its processes on this machine)', ...per((t) => t.postgresCpuMs, 3)],
  ];
  console.log(
    `\n2. Where the time goes: ms per request the app was asked (a redirect, or a callback), totals over the ${ROUNDS} rounds; ×1: one browser at a time, so the latency has no queueing; ×${BROWSERS}: under load`,
  );
  console.log(
    '   app side: stopwatches in the app server around its HttpClient (until the answer\'s headers), the SQL drivers and @hapi/iron; inside the fake: from each request\'s headers to its answer\'s end;',
  );
  console.log('   CPU: the processes\' CPU clocks (PostgreSQL: /proc, 10 ms ticks; anyone else\'s queries count too, and show in the SQLite columns)\n');
  table(['per request, ms', ...columns.map((column) => column.title)], [52, 11, 10, 9, 9, 9, 9], rows);

  console.log(`\n   ${footer}`);
  for (const warning of warnings) console.log(`WARNING ${warning}`);
}

const [role, ...args] = process.argv.slice(2);
if (role === 'fake') {
  await runFake();
} else if (role === 'app') {
  const [appDir, databaseUrl, fakeUrl, port] = args;
  if (appDir === undefined || databaseUrl === undefined || fakeUrl === undefined || port === undefined) {
    console.error('usage: node dist/bench/oauth.bench.js app <temp folder> <DATABASE_URL> <fake provider URL> <port>');
    process.exit(2);
  }
  await runApp(appDir, databaseUrl, fakeUrl, port);
} else if (role === undefined) {
  await main();
} else {
  console.error('usage: node dist/bench/oauth.bench.js [fake | app …]');
  process.exit(2);
}
