/**
 * What the framework's HTTP kernel costs per request, against two baselines measured in this
 * same run, so machines of any speed compare:
 *
 * - bare: `Hapi.server()` alone, `/health` as JSON, hapi's own 404, `/form` the same template rendered per request, without a session;
 * - yar: hapi with @hapi/yar (iron with a string password, the usual setup) rendering the same
 *   `/form` template with plain nunjucks and a CSRF-like token kept in the session cookie.
 *
 * Each server runs in a child process of its own (http-kernel.server.ts), one after the other,
 * and autocannon loads it from here over 127.0.0.1: one core each. The targets are the issue's;
 * a MISS is reported, never fatal (a benchmark informs, it does not fail CI).
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
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
const ROUNDS = 3;
const ROUND_SECONDS = 2;
/** The whole run stays under 90 s; past this the bench gives up (and says so). */
const DEADLINE_MS = 85_000;

type Scenario = 'health' | 'missing' | 'form-new' | 'form-cookie';

interface ScenarioSpec {
  id: Scenario;
  label: string;
  path: string;
  /** The status class every answer must have, or the row is flagged. */
  expect: '2xx' | '404';
  /** Send the session cookie of a first visit (a resumed session). */
  withCookie: boolean;
  servers: readonly ServerKind[];
  /** The targets: minimum fw/bare and fw/yar ratios. */
  minVsBare: number | null;
  minVsYar: number | null;
}

const SCENARIOS: readonly ScenarioSpec[] = [
  { id: 'health', label: 'GET /health', path: '/health', expect: '2xx', withCookie: false, servers: ['bare', 'fw'], minVsBare: 0.6, minVsYar: null },
  { id: 'missing', label: 'GET /nope (404)', path: '/nope', expect: '404', withCookie: false, servers: ['bare', 'fw'], minVsBare: null, minVsYar: null },
  { id: 'form-new', label: 'GET /form, no cookie', path: '/form', expect: '2xx', withCookie: false, servers: ['bare', 'fw', 'yar'], minVsBare: 0.3, minVsYar: 2.0 },
  { id: 'form-cookie', label: 'GET /form, session cookie', path: '/form', expect: '2xx', withCookie: true, servers: ['bare', 'fw', 'yar'], minVsBare: 0.3, minVsYar: 2.0 },
];

interface Measured {
  rps: number;
  p99: number;
  /** Answers of the wrong status class, connection errors and timeouts. */
  unexpected: number;
}

interface Started {
  url: string;
  child: ChildProcess;
}

const children = new Set<ChildProcess>();
const dir = mkdtempSync(join(tmpdir(), 'fw-http-bench-'));

function cleanUp(): void {
  for (const child of children) if (child.exitCode === null) child.kill('SIGKILL');
  rmSync(dir, { recursive: true, force: true });
}

const deadline = setTimeout(() => {
  console.error(`\nThe HTTP bench ran past ${DEADLINE_MS / 1000} s and was stopped.`);
  cleanUp();
  process.exit(1);
}, DEADLINE_MS);
deadline.unref();

function start(kind: ServerKind): Promise<Started> {
  // The same Node with the same loader (tsx) as this process.
  const child = spawn(process.execPath, [...process.execArgv, SERVER_SCRIPT, kind, dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
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

async function stop(started: Started): Promise<void> {
  const { child } = started;
  if (child.exitCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send('stop');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
  children.delete(child);
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

async function measure(url: string, spec: ScenarioSpec, cookie: string | null, warmUp: boolean): Promise<Measured> {
  const options = {
    url: `${url}${spec.path}`,
    connections: CONNECTIONS,
    pipelining: 1,
    headers: cookie === null ? {} : { cookie },
  };
  if (warmUp) await autocannon({ ...options, duration: WARMUP_SECONDS });
  const result = await autocannon({ ...options, duration: ROUND_SECONDS });
  const wrong = spec.expect === '2xx' ? result.non2xx : result.requests.total - result['4xx'];
  return { rps: result.requests.average, p99: result.latency.p99, unexpected: wrong + result.errors + result.timeouts };
}

/** Every round's measurement of each server and row, as `<kind>:<row id>`. */
const rounds = new Map<string, Measured[]>();
const pages: string[] = [];

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? NaN) : ((sorted[middle - 1] ?? NaN) + (sorted[middle] ?? NaN)) / 2;
}

try {
  // All three wait, idle, while another is measured: idle servers cost no CPU.
  const servers = new Map<ServerKind, { started: Started; cookie: string }>();
  for (const kind of ['bare', 'fw', 'yar'] as const) {
    const started = await start(kind);
    // The cookie of a first visit, sent back on every request of the cookie row. The bare
    // server keeps no session: it gets a cookie header of a session's size all the same.
    const first = await visit(started.url);
    let cookie = first.cookie ?? `session=${randomBytes(300).toString('base64url')}`;
    if (first.cookie !== null) {
      const again = await visit(started.url, first.cookie);
      const resumed = first.token !== null && again.token === first.token;
      pages.push(`${kind}: /form is ${first.bytes} bytes, cookie ${first.cookie.length} chars, session resumed with the cookie: ${resumed ? 'yes' : 'NO'}`);
      cookie = first.cookie;
    } else {
      pages.push(`${kind}: /form is ${first.bytes} bytes, no session (a ${cookie.length}-char cookie header is sent in the cookie row)`);
    }
    servers.set(kind, { started, cookie });
  }
  for (let round = 0; round < ROUNDS; round++) {
    for (const spec of SCENARIOS) {
      for (const [kind, { started, cookie }] of servers) {
        if (!spec.servers.includes(kind)) continue;
        const measured = await measure(started.url, spec, spec.withCookie ? cookie : null, round === 0);
        rounds.set(`${kind}:${spec.id}`, [...(rounds.get(`${kind}:${spec.id}`) ?? []), measured]);
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
  { title: 'yar req/s', width: 10 },
  { title: 'fw/yar', width: 7 },
  { title: 'target', width: 11 },
  { title: 'p99 ms bare/fw/yar', width: 18 },
];
const line = (cells: string[]): string =>
  cells.map((cell, index) => (index === 0 ? cell.padEnd(columns[index]?.width ?? 0) : cell.padStart(columns[index]?.width ?? 0))).join('  ');

const rows: string[] = [];
for (const spec of SCENARIOS) {
  const bare = results.get(`bare:${spec.id}`);
  const fw = results.get(`fw:${spec.id}`);
  const yar = results.get(`yar:${spec.id}`);
  for (const [kind, measured] of [['bare', bare], ['fw', fw], ['yar', yar]] as const) {
    if (measured !== undefined && measured.unexpected > 0) flagged.push(`${spec.label} on ${kind}: ${measured.unexpected} answers of another status than ${spec.expect}, or errors`);
  }
  const vsBare = ratio(`fw:${spec.id}`, `bare:${spec.id}`);
  const vsYar = ratio(`fw:${spec.id}`, `yar:${spec.id}`);
  const rps = (measured: Measured | undefined): string => (measured === undefined ? '—' : measured.rps.toFixed(0));
  const p99 = [bare, fw, yar].map((measured) => (measured === undefined ? '—' : String(measured.p99))).join(' / ');
  rows.push(
    line([
      spec.label,
      rps(bare),
      rps(fw),
      vsBare === null ? '—' : vsBare.toFixed(2),
      verdict(vsBare, spec.minVsBare, spec.label, 'bare'),
      rps(yar),
      vsYar === null ? '—' : vsYar.toFixed(2),
      verdict(vsYar, spec.minVsYar, spec.label, 'yar'),
      p99,
    ]),
  );
}

console.log(
  `\nHTTP kernel: autocannon, ${CONNECTIONS} connections, pipelining 1, 127.0.0.1; ${ROUNDS} rounds of ${ROUND_SECONDS} s per row, servers taking turns (${WARMUP_SECONDS} s warm-up first); medians`,
);
for (const page of pages) console.log(`  ${page}`);
console.log('');
const header = line(columns.map((column) => column.title));
console.log(header);
console.log('-'.repeat(header.length));
for (const row of rows) console.log(row);
console.log('');
for (const flag of flagged) console.log(`WARNING ${flag}`);
if (misses.length === 0) console.log('All targets met.');
else for (const miss of misses) console.log(`MISS ${miss}`);
