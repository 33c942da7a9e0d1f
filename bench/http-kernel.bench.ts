/**
 * What the framework's HTTP kernel costs per request, against two baselines measured in this
 * same run, so machines of any speed compare:
 *
 * - bare: `Hapi.server()` alone, `/health` as JSON, hapi's own 404, `/form` the same template rendered per request, without a session;
 * - yar: hapi with @hapi/yar (iron with a string password, the usual setup) rendering the same
 *   `/form` template with plain nunjucks and a CSRF-like token kept in the session cookie.
 *
 * Two rows measure the framework's sessions and security layers:
 *
 * - `GET /bench/account, signed in`: a page behind `.requireAuth()` rendering the same template with
 *   `ctx.user`'s data, requested with the cookie of a session signed in (`ctx.auth.login`) by
 *   the bench's own `POST /bench/sign-in` at the start of every round; against bare's `/form`.
 * - `GET /json-throttled`: `/json` under `.throttle()` (counters in the memory store, a limit
 *   no bench reaches), against the same server's unthrottled `/json` in the peer columns.
 *
 * KERNEL_BEFORE: the compiled http-kernel.server.js of another build of fw (an earlier commit's
 * dist/bench/, built in a worktree of its own) adds that build as one more server measured in the
 * same rounds on every fw row; the column fw/before is this build's speed against it, the one
 * before/after figure a loaded, shared machine gives honestly.
 *
 * Each server runs in a child process of its own (http-kernel.server.ts), one after the other,
 * and autocannon loads it from here over 127.0.0.1: one core each. The targets are the issue's;
 * a MISS is reported, never fatal (a benchmark informs, it does not fail CI).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { ChildServers } from './support/child-servers.js';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { unmaskToken } from '../domain/http/csrf-mask.js';
import type { ReadyMessage, ServerKind } from './http-kernel.server.js';

// Whichever this file is, TypeScript through tsx or compiled JavaScript in dist/, so is the server.
const SERVER_SCRIPT = fileURLToPath(new URL(`./http-kernel.server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const CONNECTIONS = 10;
const WARMUP_SECONDS = 1;
/**
 * Each row is measured in ROUNDS short rounds, the servers taking turns (bare, fw, yar, bare,
 * fw, yar, …), and the table shows medians. A shared machine's load drifts over a minute;
 * taking turns gives every server the same drift, and the median ignores a disturbed round.
 */
const ROUNDS = Number(process.env['KERNEL_ROUNDS'] ?? 3);
const ROUND_SECONDS = 2;
/** The whole run takes about two minutes (three with KERNEL_BEFORE); past this the bench gives up (and says so). */
const DEADLINE_MS = ((process.env['KERNEL_BEFORE'] === undefined ? 170_000 : 260_000) * ROUNDS) / 3;

type Scenario = 'health' | 'missing' | 'form-new' | 'form-cookie' | 'account' | 'throttled';

/** A row's columns: the baseline (bare), the server under test (fw), its peer, and the other build (KERNEL_BEFORE). */
type Role = 'bare' | 'fw' | 'peer' | 'before';

/** The servers: this build's three, and another build's fw. */
type BenchKind = ServerKind | 'fw-before';
const BEFORE_SCRIPT = process.env['KERNEL_BEFORE'] ?? '';

/**
 * The cookie header sent on every request: none; the server's session cookie of a first visit
 * (a resumed session; bare, which keeps none, gets a made-up cookie of a session's size); or
 * the cookie of a signed-in session (fw only), fetched anew at the start of every round.
 */
type CookieKind = 'none' | 'session' | 'signed-in';

interface Target {
  server: BenchKind;
  path: string;
  cookie: CookieKind;
}

const on = (server: ServerKind, path: string, cookie: CookieKind = 'none'): Target => ({ server, path, cookie });

interface ScenarioSpec {
  id: Scenario;
  label: string;
  /** The status class every answer must have, or the row is flagged. */
  expect: '2xx' | '404';
  bare: Target;
  fw: Target;
  peer: Target | null;
  /** The peer, as a MISS names it. */
  peerName: string;
  /** The targets: minimum fw/bare and fw/peer ratios. */
  minVsBare: number | null;
  minVsPeer: number | null;
}

const SCENARIOS: readonly ScenarioSpec[] = [
  { id: 'health', label: 'GET /health', expect: '2xx', bare: on('bare', '/health'), fw: on('fw', '/health'), peer: null, peerName: '', minVsBare: 0.6, minVsPeer: null },
  { id: 'missing', label: 'GET /nope (404)', expect: '404', bare: on('bare', '/nope'), fw: on('fw', '/nope'), peer: null, peerName: '', minVsBare: null, minVsPeer: null },
  {
    id: 'form-new',
    label: 'GET /form, no cookie',
    expect: '2xx',
    bare: on('bare', '/form'),
    fw: on('fw', '/form'),
    peer: on('yar', '/form'),
    peerName: 'yar',
    minVsBare: 0.3,
    minVsPeer: 2.0,
  },
  {
    id: 'form-cookie',
    label: 'GET /form, session cookie',
    expect: '2xx',
    bare: on('bare', '/form', 'session'),
    fw: on('fw', '/form', 'session'),
    peer: on('yar', '/form', 'session'),
    peerName: 'yar',
    minVsBare: 0.3,
    minVsPeer: 2.0,
  },
  // The pages' target: a signed-in page is a page. Its baseline is bare's /form (with a cookie
  // header of a session's size), as for the other pages.
  {
    id: 'account',
    label: 'GET /bench/account, signed in',
    expect: '2xx',
    bare: on('bare', '/form', 'session'),
    fw: on('fw', '/bench/account', 'signed-in'),
    peer: null,
    peerName: '',
    minVsBare: 0.3,
    minVsPeer: null,
  },
  {
    id: 'throttled',
    label: 'GET /json-throttled',
    expect: '2xx',
    bare: on('bare', '/json'),
    fw: on('fw', '/json-throttled'),
    peer: on('fw', '/json'),
    peerName: 'unthrottled',
    minVsBare: null,
    minVsPeer: 0.9,
  },
];

interface Measured {
  rps: number;
  p99: number;
  /** The server process's CPU time per answer (µs, from /proc: robust to a loaded machine's scheduling; NaN elsewhere). */
  cpuUs: number;
  /** Answers of the wrong status class, connection errors and timeouts. */
  unexpected: number;
}

interface Started {
  url: string;
  child: ChildProcess;
}

const children = new ChildServers();
const dir = mkdtempSync(join(tmpdir(), 'fw-http-bench-'));

function cleanUp(): void {
  children.killAll();
  rmSync(dir, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  console.error(`\nThe HTTP bench ran past ${DEADLINE_MS / 1000} s and was stopped.`);
  cleanUp();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

function start(kind: BenchKind): Promise<Started> {
  // The same Node with the same loader (tsx) as this process.
  const [script, serverKind] = kind === 'fw-before' ? [BEFORE_SCRIPT, 'fw'] : [SERVER_SCRIPT, kind];
  // The other build gets a folder of its own: each fw keeps its app and its SQLite database there.
  const folder = kind === 'fw-before' ? join(dir, 'before') : dir;
  mkdirSync(folder, { recursive: true });
  const child = spawn(process.execPath, [...process.execArgv, script, serverKind, folder], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  children.add(child);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the ${kind} server did not start within 30 s`)), 30_000);
    child.once('message', (message) => {
      clearTimeout(timer);
      resolve({ url: (message as ReadyMessage).url, child });
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the ${kind} server exited (code ${code}) before listening`));
    });
  });
}

function stop(started: Started): Promise<void> {
  return children.stop(started.child);
}

interface Visit {
  cookie: string | null;
  token: string | null;
  bytes: number;
}

async function visit(url: string, cookie: string | null = null): Promise<Visit> {
  const response = await fetch(`${url}/form`, cookie === null ? {} : { headers: { cookie } });
  const body = await response.text();
  if (response.status !== 200) throw new Error(`GET ${url}/form answered ${response.status}`);
  const [setCookie] = response.headers.getSetCookie();
  return {
    cookie: setCookie === undefined ? null : (setCookie.split(';')[0] ?? null),
    token: /name="_token" value="([^"]*)"/u.exec(body)?.[1] ?? null,
    bytes: Buffer.byteLength(body),
  };
}

/** Whether two printed CSRF tokens are the session's same token: equal, or (fw) masked afresh on each page over it. */
function sameToken(a: string, b: string): boolean {
  return a === b || (unmaskToken(a) !== null && unmaskToken(a) === unmaskToken(b));
}

/** Cookie headers (`name=value; …`) from an answer's Set-Cookie headers, as a browser sends them back. */
function cookieHeader(response: Response): string | null {
  const pairs = response.headers.getSetCookie().map((setCookie) => setCookie.split(';')[0] ?? '');
  return pairs.length === 0 ? null : pairs.join('; ');
}

/** Signs the bench's user in on fw (a new session) and answers the signed-in cookie. */
async function signIn(url: string): Promise<string> {
  const response = await fetch(`${url}/bench/sign-in`, { method: 'POST' });
  const body = await response.text();
  const cookie = cookieHeader(response);
  if (response.status !== 200 || cookie === null) throw new Error(`POST ${url}/bench/sign-in answered ${response.status} ${cookie === null ? 'without a cookie' : ''}: ${body}`);
  return cookie;
}

/** A process's user + system CPU time in µs, from /proc (Linux); NaN where there is none. */
function cpuOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime and stime are fields 14 and 15 of stat, 12 and 13 after the command's closing parenthesis.
    return ((Number(fields[11]) + Number(fields[12])) * 1e6) / CLOCK_TICKS;
  } catch {
    return NaN;
  }
}
/** USER_HZ: 100 on every Linux this runs on. */
const CLOCK_TICKS = 100;

async function measure(url: string, spec: ScenarioSpec, target: Target, cookie: string | null, seconds: number, warmUp: boolean, pid: number | undefined): Promise<Measured> {
  const options = {
    url: `${url}${target.path}`,
    connections: CONNECTIONS,
    pipelining: 1,
    headers: cookie === null ? {} : { cookie },
  };
  if (warmUp) await autocannon({ ...options, duration: WARMUP_SECONDS });
  const cpuBefore = cpuOf(pid);
  const result = await autocannon({ ...options, duration: seconds });
  const cpuUs = (cpuOf(pid) - cpuBefore) / Math.max(1, result.requests.total);
  const wrong = spec.expect === '2xx' ? result.non2xx : result.requests.total - result['4xx'];
  return { rps: result.requests.average, p99: result.latency.p99, cpuUs, unexpected: wrong + result.errors + result.timeouts };
}

/** Every round's measurement of each row's columns, as `<role>:<row id>`. */
const rounds = new Map<string, Measured[]>();
const pages: string[] = [];

/**
 * One round of a row: each column measured for ROUND_SECONDS. The columns take turns in both
 * orders (forward on even rounds), so none is always measured first after a switch. When fw
 * and the peer are routes of the same server (the throttled row), their small difference is
 * measured A-B-B-A in half rounds, which cancels a load that drifts during the round.
 */
async function measureRow(
  spec: ScenarioSpec,
  servers: ReadonlyMap<BenchKind, { started: Started; cookie: string }>,
  signedIn: ReadonlyMap<BenchKind, string>,
  forward: boolean,
  warmUp: boolean,
): Promise<Map<Role, Measured>> {
  const paired = spec.peer !== null && spec.peer.server === spec.fw.server;
  const whole = ROUND_SECONDS;
  const half = ROUND_SECONDS / 2;
  const before = servers.has('fw-before') && spec.fw.server === 'fw';
  const sequence: readonly (readonly [Role, number])[] = paired
    ? [['bare', whole], ['fw', half], ['peer', half], ['peer', half], ['fw', half]]
    : [['bare', whole], ['fw', whole], ...(before ? [['before', whole] as const] : []), ['peer', whole]];
  const parts = new Map<Role, Measured[]>();
  for (const [role, seconds] of forward ? sequence : [...sequence].reverse()) {
    const target = role === 'before' ? { ...spec.fw, server: 'fw-before' as const } : spec[role];
    if (target === null) continue;
    const server = servers.get(target.server);
    if (server === undefined) throw new Error(`the ${target.server} server did not start`);
    const cookie = target.cookie === 'session' ? server.cookie : target.cookie === 'signed-in' ? (signedIn.get(target.server) ?? null) : null;
    const earlier = parts.get(role) ?? [];
    earlier.push(await measure(server.started.url, spec, target, cookie, seconds, warmUp && earlier.length === 0, server.started.child.pid));
    parts.set(role, earlier);
  }
  // Halves add up to a round: their mean req/s, the worse p99, all their unexpected answers.
  return new Map(
    [...parts].map(([role, measured]) => [
      role,
      {
        rps: measured.reduce((sum, m) => sum + m.rps, 0) / measured.length,
        p99: Math.max(...measured.map((m) => m.p99)),
        cpuUs: measured.reduce((sum, m) => sum + m.cpuUs, 0) / measured.length,
        unexpected: measured.reduce((sum, m) => sum + m.unexpected, 0),
      },
    ]),
  );
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

try {
  // All three wait, idle, while another is measured: idle servers cost no CPU.
  const servers = new Map<BenchKind, { started: Started; cookie: string }>();
  for (const kind of ['bare', 'fw', 'yar', ...(BEFORE_SCRIPT === '' ? [] : (['fw-before'] as const))] as const) {
    const started = await start(kind);
    // The cookie of a first visit, sent back on every request of the cookie row. The bare
    // server keeps no session: it gets a cookie header of a session's size all the same.
    const first = await visit(started.url);
    let cookie = first.cookie ?? `session=${randomBytes(300).toString('base64url')}`;
    if (first.cookie !== null) {
      const again = await visit(started.url, first.cookie);
      const resumed = first.token !== null && again.token !== null && sameToken(first.token, again.token);
      pages.push(`${kind}: /form is ${first.bytes} bytes, cookie ${first.cookie.length} chars, session resumed with the cookie: ${resumed ? 'yes' : 'NO'}`);
      cookie = first.cookie;
    } else {
      pages.push(`${kind}: /form is ${first.bytes} bytes, no session (a ${cookie.length}-char cookie header is sent in the cookie rows)`);
    }
    servers.set(kind, { started, cookie });
  }
  const fw = servers.get('fw');
  if (fw === undefined) throw new Error('the fw server did not start');
  // What the signed-in and throttled rows load, checked once before the rounds.
  {
    const cookie = await signIn(fw.started.url);
    const page = await fetch(`${fw.started.url}/bench/account`, { headers: { cookie } });
    const body = await page.text();
    const guest = await fetch(`${fw.started.url}/bench/account`, { redirect: 'manual' });
    await guest.text();
    const greeted = body.includes('Welcome back, Bench User');
    pages.push(
      `fw: /bench/account signed in answers ${page.status}, ${Buffer.byteLength(body)} bytes, cookie ${cookie.length} chars, greets the user: ${greeted ? 'yes' : 'NO'}; a guest gets ${guest.status}`,
    );
    const throttled = await fetch(`${fw.started.url}/json-throttled`);
    await throttled.text();
    const unthrottled = await fetch(`${fw.started.url}/json`);
    await unthrottled.text();
    pages.push(
      `fw: /json-throttled answers ${throttled.status} with X-RateLimit-Limit ${throttled.headers.get('x-ratelimit-limit') ?? 'MISSING'}; /json answers ${unthrottled.status}, sets a cookie: ${unthrottled.headers.getSetCookie().length > 0 ? 'yes' : 'no'}`,
    );
  }
  for (let round = 0; round < ROUNDS; round++) {
    // A signed-in session of its own for each round, made before autocannon starts.
    const signedIn = new Map<BenchKind, string>();
    for (const kind of ['fw', 'fw-before'] as const) {
      const server = servers.get(kind);
      if (server !== undefined) signedIn.set(kind, await signIn(server.started.url));
    }
    const forward = round % 2 === 0;
    for (const spec of SCENARIOS) {
      for (const [role, parts] of await measureRow(spec, servers, signedIn, forward, round === 0)) {
        rounds.set(`${role}:${spec.id}`, [...(rounds.get(`${role}:${spec.id}`) ?? []), parts]);
      }
    }
  }
  for (const { started } of servers.values()) await stop(started);
} finally {
  cleanUp();
}

/** One row's median over the rounds: req/s, p99 and the rounds' unexpected answers added up. */
const results = new Map<string, Measured>();
for (const [key, measured] of rounds) {
  results.set(key, {
    rps: median(measured.map((m) => m.rps)),
    cpuUs: median(measured.map((m) => m.cpuUs)),
    p99: median(measured.map((m) => m.p99)),
    unexpected: measured.reduce((sum, m) => sum + m.unexpected, 0),
  });
}

/** The median of the per-round ratios: each round's servers ran under the same load. */
function ratio(fwKey: string, otherKey: string): number | null {
  const fw = rounds.get(fwKey);
  const other = rounds.get(otherKey);
  if (fw === undefined || other === undefined) return null;
  return median(fw.map((m, index) => m.rps / (other[index]?.rps ?? NaN)));
}

/** The median of the per-round CPU-per-answer ratios (before/fw: above 1 means this build uses less CPU). */
function cpuRatio(beforeKey: string, fwKey: string): string {
  const before = rounds.get(beforeKey);
  const fw = rounds.get(fwKey);
  if (before === undefined || fw === undefined) return '—';
  const value = median(before.map((m, index) => m.cpuUs / (fw[index]?.cpuUs ?? NaN)));
  return Number.isFinite(value) ? value.toFixed(2) : '—';
}

const misses: string[] = [];
const flagged: string[] = [];

function verdict(ratio: number | null, min: number | null, label: string, against: string): string {
  if (min === null) return '';
  if (ratio === null) return `≥ ${min.toFixed(1)} ?`;
  const pass = ratio >= min;
  if (!pass) misses.push(`${label}: fw/${against} ${ratio.toFixed(2)} < ${min.toFixed(1)}`);
  return `≥ ${min.toFixed(1)} ${pass ? 'PASS' : 'MISS'}`;
}

const columns = [
  { title: 'scenario', width: 26 },
  { title: 'bare req/s', width: 10 },
  { title: 'fw req/s', width: 10 },
  { title: 'fw/bare', width: 7 },
  { title: 'target', width: 11 },
  { title: 'peer req/s', width: 10 },
  { title: 'fw/peer', width: 7 },
  { title: 'target', width: 11 },
  { title: 'p99 ms bare/fw/peer', width: 19 },
  { title: 'CPU µs/req fw', width: 14 },
  ...(BEFORE_SCRIPT === '' ? [] : [{ title: 'fw/before', width: 9 }, { title: 'CPU µs before', width: 13 }, { title: 'CPU before/fw', width: 13 }]),
];
const line = (cells: string[]): string =>
  cells.map((cell, index) => (index === 0 ? cell.padEnd(columns[index]?.width ?? 0) : cell.padStart(columns[index]?.width ?? 0))).join('  ');

const rows: string[] = [];
for (const spec of SCENARIOS) {
  const bare = results.get(`bare:${spec.id}`);
  const fw = results.get(`fw:${spec.id}`);
  const peer = results.get(`peer:${spec.id}`);
  const before = results.get(`before:${spec.id}`);
  for (const [role, measured] of [['bare', bare], ['fw', fw], ['peer', peer], ['before', before]] as const) {
    const target = role === 'before' ? { ...spec.fw, server: 'fw-before' } : spec[role];
    if (target !== null && measured !== undefined && measured.unexpected > 0) {
      flagged.push(`${spec.label} on ${target.server} ${target.path}: ${measured.unexpected} answers of another status than ${spec.expect}, or errors`);
    }
  }
  const vsBare = ratio(`fw:${spec.id}`, `bare:${spec.id}`);
  const vsPeer = ratio(`fw:${spec.id}`, `peer:${spec.id}`);
  const vsBefore = ratio(`fw:${spec.id}`, `before:${spec.id}`);
  const rps = (measured: Measured | undefined): string => (measured === undefined ? '—' : measured.rps.toFixed(0));
  const p99 = [bare, fw, peer].map((measured) => (measured === undefined ? '—' : String(measured.p99))).join(' / ');
  rows.push(
    line([
      spec.label,
      rps(bare),
      rps(fw),
      vsBare === null ? '—' : vsBare.toFixed(2),
      verdict(vsBare, spec.minVsBare, spec.label, 'bare'),
      rps(peer),
      vsPeer === null ? '—' : vsPeer.toFixed(2),
      verdict(vsPeer, spec.minVsPeer, spec.label, spec.peerName),
      p99,
      fw === undefined ? '—' : fw.cpuUs.toFixed(0),
      ...(BEFORE_SCRIPT === '' ? [] : [vsBefore === null ? '—' : vsBefore.toFixed(2), before === undefined ? '—' : before.cpuUs.toFixed(0), cpuRatio(`before:${spec.id}`, `fw:${spec.id}`)]),
    ]),
  );
}

console.log(
  `\nHTTP kernel: autocannon, ${CONNECTIONS} connections, pipelining 1, 127.0.0.1; ${ROUNDS} rounds of ${ROUND_SECONDS} s per row, servers taking turns (${WARMUP_SECONDS} s warm-up first); medians`,
);
for (const page of pages) console.log(`  ${page}`);
if (BEFORE_SCRIPT !== '') console.log(`  fw/before: this build against ${BEFORE_SCRIPT}, measured in the same rounds`);
console.log('  bare column: bare hapi (/form for the page rows, /json for the throttled row)');
console.log(
  `  peer column: hapi + @hapi/yar on the /form rows; on GET /json-throttled, the same fw server's unthrottled /json (fw/peer = throttled/unthrottled, taking turns A-B-B-A in ${ROUND_SECONDS / 2} s halves)`,
);
console.log('');
const header = line(columns.map((column) => column.title));
console.log(header);
console.log('-'.repeat(header.length));
for (const row of rows) console.log(row);
console.log('');
for (const flag of flagged) console.log(`WARNING ${flag}`);
if (misses.length === 0) console.log('All targets met.');
else for (const miss of misses) console.log(`MISS ${miss}`);
