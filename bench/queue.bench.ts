/**
 * Queued jobs per second and the wait from dispatch to start, on each driver, in one run, in
 * two ways:
 *
 * - while running: JOBS empty jobs dispatched one by one (each awaited, as a request would)
 *   while a worker with 2 concurrent loops (the framework's `queue:work --workers 2`, in this
 *   process, polling every 50 ms when idle) runs them; jobs/s is JOBS over the time from the
 *   first dispatch to the last job's end, and the latency is each job's start minus its
 *   dispatch (p50, p99);
 * - backlog: every job dispatched one by one first, then the worker starts; jobs/s over both,
 *   and each phase alone (dispatch alone: what one sender reaches; run alone: what 2 loops
 *   take from a full queue);
 * - baselines measured the same ways in the same run: BullMQ used directly (Queue.add and a
 *   Worker with concurrency 2) for the Redis rows, and a plain `DELETE … WHERE id = (SELECT …
 *   FOR UPDATE SKIP LOCKED) RETURNING` loop on its own table (2 loops) for the PostgreSQL rows;
 * - SQLite: a file in a temporary folder; PostgreSQL: a scratch database (BenchDatabase);
 *   Redis: REDIS_URL or the local one, keys under a prefix of this run. A driver that cannot be
 *   reached is reported as skipped.
 *
 * Targets on this machine: at least 2 000 jobs/s on Redis, 500 on SQLite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import pg from 'pg';
import { number, object } from 'superstruct';
import { App, TOKENS, defineJob } from '../composition/index.js';
import { BenchDatabase } from './support/bench-database.js';

const JOBS = Number(process.env['QUEUE_BENCH_JOBS'] ?? 3000);
const APP_KEY = `base64:${Buffer.alloc(32, 3).toString('base64')}`;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** QUEUE_BENCH_ONLY=redis (or sqlite, postgres; comma-separated) runs those rows alone. */
const ONLY = new Set((process.env['QUEUE_BENCH_ONLY'] ?? 'sqlite,postgres,redis').split(',').map((name) => name.trim()));

/** How jobs meet the workers: sent one by one while they run, or all sent before they start. */
type Mode = 'while running' | 'backlog';

interface Row {
  name: string;
  mode: Mode;
  /** Jobs over the time from the first dispatch to the last job's end. */
  jobsPerSecond: number;
  /** Start minus dispatch (while running only: in a backlog it is mostly the backlog's wait). */
  p50: number;
  p99: number;
  /** Backlog only: the dispatches alone, and the run alone (from the workers' start). */
  dispatchPerSecond: number;
  runPerSecond: number;
}

/** Start minus dispatch of each job, in ms (the dispatch time travels in the payload). */
let waits: number[] = [];
let finished = 0;
let allDone: () => void = () => undefined;

const Empty = defineJob({
  name: 'empty',
  payload: object({ t: number() }),
  handle: ({ t }) => {
    started(t);
    return Promise.resolve();
  },
});

/** Every runner's handler: notes the wait and counts the job. */
function started(t: number): void {
  waits.push(performance.timeOrigin + performance.now() - t);
  if (++finished === JOBS) allDone();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const stamp = () => performance.timeOrigin + performance.now();

/**
 * One row: `dispatch` sends a job stamped with its dispatch time, `start` starts 2 concurrent
 * consumers and answers how to stop them. While running: the consumers start first and the
 * jobs follow one by one; backlog: every job is sent first, then the consumers start.
 */
async function measure(name: string, mode: Mode, dispatch: (t: number) => PromiseLike<unknown>, start: () => Promise<() => Promise<void>>): Promise<Row> {
  waits = [];
  finished = 0;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  let stop: (() => Promise<void>) | null = mode === 'while running' ? await start() : null;
  try {
    const began = performance.now();
    for (let n = 0; n < JOBS; n++) await dispatch(stamp());
    const dispatched = performance.now();
    stop ??= await start();
    const running = performance.now();
    await done;
    const ended = performance.now();
    const perSecond = (from: number, to: number) => JOBS / ((to - from) / 1000);
    return { name, mode, jobsPerSecond: perSecond(began, ended), p50: percentile(waits, 50), p99: percentile(waits, 99), dispatchPerSecond: perSecond(began, dispatched), runPerSecond: perSecond(running, ended) };
  } finally {
    await stop?.();
  }
}

/** The framework on one QUEUE_CONNECTION: `queue:work --workers 2` in this process (polling every 50 ms when idle). */
async function framework(name: string, mode: Mode, environment: Record<string, string>): Promise<Row> {
  const app = App.create({ environment: { APP_KEY, LOG_LEVEL: 'error', ...environment }, envFile: false }).job(Empty);
  try {
    const services = await app.services();
    await services.get(TOKENS.migrator).migrate();
    const jobs = services.get(TOKENS.jobs);
    return await measure(name, mode, (t) => jobs.dispatch(Empty.with({ t })), async () => {
      const worker = await app.worker({ concurrency: 2, pollMs: 50 });
      const running = worker.run();
      return async () => {
        await worker.stop();
        await running;
      };
    });
  } finally {
    await app.close();
  }
}

/** BullMQ used directly (Queue.add, a Worker with concurrency 2): what the framework's Redis driver adds on top of it. */
async function bullmqDirect(mode: Mode, prefix: string): Promise<Row> {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('bench', { connection, prefix });
  try {
    return await measure(
      'BullMQ directly (baseline)',
      mode,
      (t) => queue.add('empty', { t }, { removeOnComplete: true }),
      () => {
        const worker = new Worker('bench', (job) => Promise.resolve(started((job.data as { t: number }).t)), { connection, prefix, concurrency: 2 });
        return Promise.resolve(() => worker.close());
      },
    );
  } finally {
    await queue.close();
    connection.disconnect();
  }
}

/** A plain `DELETE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING` loop (2 loops): what the framework's database driver adds. */
async function skipLockedLoop(mode: Mode, url: string): Promise<Row> {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const table = `bench_jobs_${mode === 'backlog' ? 'backlog' : 'running'}`;
  await pool.query(`CREATE TABLE ${table} (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, payload text NOT NULL)`);
  const loop = async (stopping: { now: boolean }) => {
    while (!stopping.now) {
      const { rows } = await pool.query<{ payload: string }>(`DELETE FROM ${table} WHERE id = (SELECT id FROM ${table} ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING payload`);
      const row = rows[0];
      if (row === undefined) await new Promise((resolve) => setTimeout(resolve, 50));
      else started((JSON.parse(row.payload) as { t: number }).t);
    }
  };
  try {
    return await measure(
      'plain SKIP LOCKED loop (baseline)',
      mode,
      (t) => pool.query(`INSERT INTO ${table} (payload) VALUES ($1)`, [JSON.stringify({ t })]),
      () => {
        const stopping = { now: false };
        const loops = [loop(stopping), loop(stopping)];
        return Promise.resolve(async () => {
          stopping.now = true;
          await Promise.all(loops);
        });
      },
    );
  } finally {
    await pool.end();
  }
}

async function redisReachable(): Promise<boolean> {
  const client = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null });
  client.on('error', () => undefined);
  try {
    await client.connect();
    return (await client.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    client.disconnect();
  }
}

async function deletePrefix(prefix: string): Promise<void> {
  const client = new Redis(REDIS_URL);
  let cursor = '0';
  do {
    const [next, keys] = await client.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 1000);
    if (keys.length > 0) await client.del(...keys);
    cursor = next;
  } while (cursor !== '0');
  client.disconnect();
}

const MODES: readonly Mode[] = ['while running', 'backlog'];
const rows: (Row | { name: string; skipped: string })[] = [];
const folder = mkdtempSync(join(tmpdir(), 'fw-queue-bench-'));
try {
  if (ONLY.has('sqlite')) {
    for (const mode of MODES) rows.push(await framework('fw, SQLite file', mode, { DATABASE_URL: `sqlite:${join(folder, `${mode}.sqlite`)}`, QUEUE_CONNECTION: 'database' }));
  }
  const postgres = new BenchDatabase();
  const made = ONLY.has('postgres') ? await postgres.create() : null;
  if (made === null) {
    // Not asked for.
  } else if ('problem' in made) rows.push({ name: 'fw, PostgreSQL', skipped: made.problem });
  else {
    try {
      for (const mode of MODES) {
        rows.push(await framework('fw, PostgreSQL', mode, { DATABASE_URL: made.url, QUEUE_CONNECTION: 'database' }));
        rows.push(await skipLockedLoop(mode, made.url));
      }
    } finally {
      await postgres.drop();
    }
  }
  if (!ONLY.has('redis')) {
    // Not asked for.
  } else if (await redisReachable()) {
    const prefix = `fw-bench-${randomBytes(4).toString('hex')}`;
    try {
      for (const [n, mode] of MODES.entries()) {
        rows.push(await framework('fw, Redis (BullMQ)', mode, { DATABASE_URL: `sqlite:${join(folder, `redis-app-${n}.sqlite`)}`, QUEUE_CONNECTION: 'redis', QUEUE_PREFIX: `${prefix}-${n}`, REDIS_URL }));
        rows.push(await bullmqDirect(mode, `${prefix}-direct-${n}`));
      }
    } finally {
      await deletePrefix(prefix);
    }
  } else rows.push({ name: 'fw, Redis (BullMQ)', skipped: `Redis not reachable at ${REDIS_URL}` });
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const jobsPerSecond = (row: Row) => row.jobsPerSecond.toFixed(0).padStart(6);
console.log(`Queue: ${JOBS} empty jobs, 2 concurrent loops (load ${loadavg()[0]?.toFixed(1) ?? '?'})`);
for (const mode of MODES) {
  console.log(mode === 'while running' ? ' dispatched one by one while the loops run them:' : ' all dispatched one by one first, then run (a backlog):');
  for (const row of rows) {
    if ('skipped' in row) {
      if (mode === 'while running') console.log(`  ${row.name.padEnd(36)} skipped: ${row.skipped}`);
    } else if (row.mode === mode && mode === 'while running') {
      console.log(`  ${row.name.padEnd(36)} ${jobsPerSecond(row)} jobs/s   dispatch→start p50 ${row.p50.toFixed(1).padStart(7)} ms   p99 ${row.p99.toFixed(1).padStart(7)} ms`);
    } else if (row.mode === mode) {
      console.log(`  ${row.name.padEnd(36)} ${jobsPerSecond(row)} jobs/s   dispatch alone ${row.dispatchPerSecond.toFixed(0).padStart(6)}/s   run alone ${row.runPerSecond.toFixed(0).padStart(6)}/s`);
    }
  }
}
const rate = (name: string, mode: Mode) => rows.find((row): row is Row => row.name === name && !('skipped' in row) && row.mode === mode)?.jobsPerSecond;
const ratio = (a: string, b: string, mode: Mode) => {
  const x = rate(a, mode);
  const y = rate(b, mode);
  return x === undefined || y === undefined ? 'n/a' : `${(x / y).toFixed(2)}x`;
};
for (const mode of MODES) {
  console.log(`  ${mode}: Redis fw / BullMQ directly ${ratio('fw, Redis (BullMQ)', 'BullMQ directly (baseline)', mode)}; PostgreSQL fw / plain SKIP LOCKED ${ratio('fw, PostgreSQL', 'plain SKIP LOCKED loop (baseline)', mode)}`);
}
const met = (name: string, target: number) => `${MODES.map((mode) => `${mode} ${(rate(name, mode) ?? 0) >= target ? 'met' : 'NOT met'}`).join(', ')}`;
console.log(`  Targets: Redis ≥ 2000 jobs/s (${met('fw, Redis (BullMQ)', 2000)}), SQLite ≥ 500 jobs/s (${met('fw, SQLite file', 500)})`);
