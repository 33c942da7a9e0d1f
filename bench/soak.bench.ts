/**
 * The memory soak of the kernel issue: fw (the peers bench's fw server, peers.server.ts) serves
 * 1 000 000 requests in rounds, and its RSS is read after each round, after a forced GC.
 * Each round mixes the three kinds of page request a site sees most: `GET /health`, `GET /login`
 * (a new session each time, its CSRF token in the page) and `GET /account` signed in (the user
 * loaded from SQLite). Targets (the issue's): RSS after the run at most 1.5× the idle RSS, and no
 * growth from one round to the next (the slope over the second half of the rounds, which a leak
 * keeps and a warming heap does not, stays within noise: under 1 MB per 100 000 requests).
 *
 * Environment: SOAK_REQUESTS (1 000 000), SOAK_ROUNDS (10), SOAK_IDLE_SECONDS (12: the idle
 * reading's wait, as in the peers bench). Node flags after the script's name go to the server
 * after fw's own (SERVE_NODE_FLAGS, as `npm start` gives them; `node dist/bench/soak.bench.js
 * --max-semi-space-size=16`: V8's own sizing, for a before/after).
 * Misses are reported, never fatal.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { SERVE_NODE_FLAGS } from '../composition/serve-node-flags.js';
import { ChildServers } from './support/child-servers.js';
import { PASSWORD, benchEmail } from './support/peers.js';
import type { ReadyMessage, StatsMessage } from './support/peers.js';

const SERVER_SCRIPT = fileURLToPath(new URL(`./peers.server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const TOTAL = Number(process.env['SOAK_REQUESTS'] ?? 1_000_000);
const ROUNDS = Number(process.env['SOAK_ROUNDS'] ?? 10);
const CONNECTIONS = 10;
const IDLE_SECONDS = Number(process.env['SOAK_IDLE_SECONDS'] ?? 12);
const MB = 1024 * 1024;

const children = new ChildServers();
const dir = mkdtempSync(join(tmpdir(), 'fw-soak-bench-'));
const cleanUp = (): void => {
  children.killAll();
  rmSync(dir, { recursive: true, force: true });
};

function stats(child: ReturnType<typeof spawn>, message: 'stats' | 'gc'): Promise<StatsMessage> {
  return new Promise((resolve) => {
    child.once('message', (answer) => resolve(answer as StatsMessage));
    child.send(message);
  });
}

function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(';')[0] ?? '')
    .join('; ');
}

/** Signs the first bench user in as a browser does; answers the signed-in cookie header. */
async function signIn(url: string): Promise<string> {
  const page = await fetch(`${url}/login`);
  const token = /name="_token" value="([^"]+)"/u.exec(await page.text())?.[1];
  if (token === undefined) throw new Error('GET /login gave no CSRF token');
  const answer = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: cookieHeader(page) },
    body: new URLSearchParams({ _token: token, email: benchEmail(0), password: PASSWORD }).toString(),
  });
  await answer.text();
  if (answer.status !== 303) throw new Error(`POST /login answered ${answer.status}`);
  return cookieHeader(answer);
}

/** Least-squares slope of y over x. */
function slope(points: readonly (readonly [number, number])[]): number {
  const n = points.length;
  const mx = points.reduce((sum, [x]) => sum + x, 0) / n;
  const my = points.reduce((sum, [, y]) => sum + y, 0) / n;
  const sxy = points.reduce((sum, [x, y]) => sum + (x - mx) * (y - my), 0);
  const sxx = points.reduce((sum, [x]) => sum + (x - mx) ** 2, 0);
  return sxx === 0 ? 0 : sxy / sxx;
}

async function main(): Promise<void> {
  const child = children.add(
    spawn(process.execPath, ['--expose-gc', ...SERVE_NODE_FLAGS, ...process.execArgv, ...process.argv.slice(2), SERVER_SCRIPT, 'fw', dir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    child.once('message', (message) => resolve((message as ReadyMessage).url));
    child.once('exit', (code) => reject(new Error(`the fw server exited (code ${code}) before listening`)));
  });
  // Idle as in the peers bench: after a while without a request (fw gives back the young
  // generation that start-up grew at its first quiet moment).
  await new Promise((resolve) => setTimeout(resolve, IDLE_SECONDS * 1000));
  const idleStats = await stats(child, 'gc');
  const idle = idleStats.rss;
  const cookie = await signIn(url);
  const perRound = Math.ceil(TOTAL / ROUNDS);
  // The three rows share a round in the proportions a site sees them: pages most.
  const rows = [
    { path: '/health', share: 0.2, headers: {} },
    { path: '/login', share: 0.4, headers: {} },
    { path: '/account', share: 0.4, headers: { cookie } },
  ];
  console.log(`fw soak: ${TOTAL.toLocaleString('en')} requests in ${ROUNDS} rounds; idle RSS ${(idle / MB).toFixed(1)} MB, V8 heap ${(idleStats.heapTotal / MB).toFixed(1)} MB (live ${(idleStats.heapUsed / MB).toFixed(1)})`);
  console.log('round  requests   req/s   non-2xx   RSS after GC (MB)   V8 heap / live (MB)   load');
  const points: [number, number][] = [];
  const livePoints: [number, number][] = [];
  let served = 0;
  let unexpected = 0;
  for (let round = 1; round <= ROUNDS; round++) {
    const started = process.hrtime.bigint();
    let requests = 0;
    for (const row of rows) {
      const result = await autocannon({ url: `${url}${row.path}`, connections: CONNECTIONS, amount: Math.round(perRound * row.share), headers: row.headers });
      requests += result.requests.total;
      unexpected += result.non2xx + result.errors + result.timeouts;
    }
    const seconds = Number(process.hrtime.bigint() - started) / 1e9;
    served += requests;
    const after = await stats(child, 'gc');
    const rss = after.rss;
    points.push([served, rss]);
    livePoints.push([served, after.heapUsed]);
    const heap = `${(after.heapTotal / MB).toFixed(1)} / ${(after.heapUsed / MB).toFixed(1)}`;
    console.log(
      `${String(round).padStart(5)}  ${String(requests).padStart(8)}  ${String(Math.round(requests / seconds)).padStart(6)}  ${String(unexpected).padStart(8)}   ${(rss / MB).toFixed(1).padStart(17)}   ${heap.padStart(19)}   ${loadavg()[0]?.toFixed(1)}`,
    );
  }
  const peak = (await stats(child, 'stats')).maxRss;
  const after = points.at(-1)?.[1] ?? idle;
  const secondHalf = points.slice(Math.floor(points.length / 2));
  const growthPer100k = (slope(secondHalf) * 100_000) / MB;
  const afterRatio = after / idle;
  console.log(`\nidle ${(idle / MB).toFixed(1)} MB, after ${(after / MB).toFixed(1)} MB (${afterRatio.toFixed(2)}× idle; target ≤ 1.5×: ${afterRatio <= 1.5 ? 'met' : 'MISS'}), peak ${(peak / MB).toFixed(1)} MB`);
  console.log(`growth over the second half: ${growthPer100k.toFixed(2)} MB per 100 000 requests (target < 1: ${growthPer100k < 1 ? 'met' : 'MISS'})`);
  // RSS also holds what the allocator and V8 keep for reuse, which swings between rounds; the
  // live heap after a GC is what a JavaScript leak would grow.
  const liveGrowth = (slope(livePoints.slice(Math.floor(livePoints.length / 2))) * 100_000) / MB;
  console.log(`V8 live heap over the second half: ${liveGrowth.toFixed(2)} MB per 100 000 requests; RSS over all rounds: ${((slope(points) * 100_000) / MB).toFixed(2)}`);
  if (unexpected > 0) console.log(`MISS: ${unexpected} answers were not 2xx or failed`);
  await children.stop(child);
}

main()
  .catch((error: unknown) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanUp);
