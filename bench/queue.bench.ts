/**
 * Queued jobs per second and the wait from dispatch to start, on each driver, in one run:
 *
 * - each row dispatches JOBS empty jobs one by one while a worker with 2 concurrent loops (the
 *   framework's `queue:work --workers 2`, in this process, polling every 50 ms when idle) runs
 *   them; jobs/s is JOBS over the time from the first dispatch to the last job's end, and the
 *   latency is each job's start minus its dispatch (p50, p99);
 * - baselines measured the same way in the same run: BullMQ used directly (Queue.add and a
 *   Worker with concurrency 2) for the Redis row, and a plain `DELETE … WHERE id = (SELECT …
 *   FOR UPDATE SKIP LOCKED) RETURNING` loop on its own table (2 loops) for the PostgreSQL row;
 * - SQLite: a file in a temporary folder; PostgreSQL: a scratch database (BenchDatabase);
 *   Redis: REDIS_URL or the local one, keys under a prefix of this run. A driver that cannot be
 *   reached is reported as skipped.
 *
 * Targets on this machine: at least 2 000 jobs/s on Redis, 500 on SQLite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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

interface Row {
  name: string;
  jobsPerSecond: number;
  p50: number;
  p99: number;
}

/** Start minus dispatch of each job, in ms (the dispatch time travels in the payload). */
let waits: number[] = [];
let finished = 0;
let allDone: () => void = () => undefined;

const Empty = defineJob({
  name: 'empty',
  payload: object({ t: number() }),
  handle: ({ t }) => {
    waits.push(performance.timeOrigin + performance.now() - t);
    if (++finished === JOBS) allDone();
    return Promise.resolve();
  },
});

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

function resetCounters(): Promise<void> {
  waits = [];
  finished = 0;
  return new Promise((resolve) => (allDone = resolve));
}

/** The framework on one QUEUE_CONNECTION: dispatch one by one while 2 loops run them. */
async function framework(name: string, environment: Record<string, string>): Promise<Row> {
  const app = App.create({ environment: { APP_KEY, LOG_LEVEL: 'error', ...environment }, envFile: false }).job(Empty);
  try {
    const services = await app.services();
    await services.get(TOKENS.migrator).migrate();
    const jobs = services.get(TOKENS.jobs);
    const worker = await app.worker({ concurrency: 2, pollMs: 50 });
    const done = resetCounters();
    const running = worker.run();
    const started = performance.now();
    for (let n = 0; n < JOBS; n++) await jobs.dispatch(Empty.with({ t: performance.timeOrigin + performance.now() }));
    await done;
    const seconds = (performance.now() - started) / 1000;
    await worker.stop();
    await running;
    return { name, jobsPerSecond: JOBS / seconds, p50: percentile(waits, 50), p99: percentile(waits, 99) };
  } finally {
    await app.close();
  }
}

/** BullMQ used directly: what the framework's Redis driver adds on top of it. */
async function bullmqDirect(prefix: string): Promise<Row> {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('bench', { connection, prefix });
  const done = resetCounters();
  const worker = new Worker(
    'bench',
    (job) => {
      const { t } = job.data as { t: number };
      waits.push(performance.timeOrigin + performance.now() - t);
      if (++finished === JOBS) allDone();
      return Promise.resolve();
    },
    { connection, prefix, concurrency: 2 },
  );
  try {
    const started = performance.now();
    for (let n = 0; n < JOBS; n++) await queue.add('empty', { t: performance.timeOrigin + performance.now() }, { removeOnComplete: true });
    await done;
    const seconds = (performance.now() - started) / 1000;
    return { name: 'BullMQ directly (baseline)', jobsPerSecond: JOBS / seconds, p50: percentile(waits, 50), p99: percentile(waits, 99) };
  } finally {
    await worker.close();
    await queue.close();
    connection.disconnect();
  }
}

/** A plain SKIP LOCKED loop on PostgreSQL: what the framework's database driver adds. */
async function skipLockedLoop(url: string): Promise<Row> {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  await pool.query('CREATE TABLE bench_jobs (id bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY, payload text NOT NULL)');
  const done = resetCounters();
  let stopping = false;
  const loop = async () => {
    while (!stopping) {
      const { rows } = await pool.query<{ payload: string }>('DELETE FROM bench_jobs WHERE id = (SELECT id FROM bench_jobs ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED) RETURNING payload');
      const row = rows[0];
      if (row === undefined) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        continue;
      }
      const { t } = JSON.parse(row.payload) as { t: number };
      waits.push(performance.timeOrigin + performance.now() - t);
      if (++finished === JOBS) allDone();
    }
  };
  const loops = [loop(), loop()];
  try {
    const started = performance.now();
    for (let n = 0; n < JOBS; n++) await pool.query('INSERT INTO bench_jobs (payload) VALUES ($1)', [JSON.stringify({ t: performance.timeOrigin + performance.now() })]);
    await done;
    const seconds = (performance.now() - started) / 1000;
    return { name: 'plain SKIP LOCKED loop (baseline)', jobsPerSecond: JOBS / seconds, p50: percentile(waits, 50), p99: percentile(waits, 99) };
  } finally {
    stopping = true;
    await Promise.all(loops);
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

const rows: (Row | { name: string; skipped: string })[] = [];
const folder = mkdtempSync(join(tmpdir(), 'fw-queue-bench-'));
try {
  if (ONLY.has('sqlite')) rows.push(await framework('fw, SQLite file', { DATABASE_URL: `sqlite:${join(folder, 'bench.sqlite')}`, QUEUE_CONNECTION: 'database' }));
  const postgres = new BenchDatabase();
  const made = ONLY.has('postgres') ? await postgres.create() : null;
  if (made === null) {
    // Not asked for.
  } else if ('problem' in made) rows.push({ name: 'fw, PostgreSQL', skipped: made.problem });
  else {
    try {
      rows.push(await framework('fw, PostgreSQL', { DATABASE_URL: made.url, QUEUE_CONNECTION: 'database' }));
      rows.push(await skipLockedLoop(made.url));
    } finally {
      await postgres.drop();
    }
  }
  if (!ONLY.has('redis')) {
    // Not asked for.
  } else if (await redisReachable()) {
    const prefix = `fw-bench-${randomBytes(4).toString('hex')}`;
    try {
      rows.push(await framework('fw, Redis (BullMQ)', { DATABASE_URL: `sqlite:${join(folder, 'redis-app.sqlite')}`, QUEUE_CONNECTION: 'redis', QUEUE_PREFIX: prefix, REDIS_URL }));
      rows.push(await bullmqDirect(`${prefix}-direct`));
    } finally {
      await deletePrefix(prefix);
    }
  } else rows.push({ name: 'fw, Redis (BullMQ)', skipped: `Redis not reachable at ${REDIS_URL}` });
} finally {
  rmSync(folder, { recursive: true, force: true });
}

console.log(`Queue: ${JOBS} empty jobs, dispatched one by one while 2 concurrent loops run them`);
for (const row of rows) {
  if ('skipped' in row) console.log(`  ${row.name.padEnd(36)} skipped: ${row.skipped}`);
  else console.log(`  ${row.name.padEnd(36)} ${row.jobsPerSecond.toFixed(0).padStart(6)} jobs/s   dispatch→start p50 ${row.p50.toFixed(1).padStart(7)} ms   p99 ${row.p99.toFixed(1).padStart(7)} ms`);
}
const rate = (name: string) => rows.find((row): row is Row => row.name === name && !('skipped' in row))?.jobsPerSecond;
const ratio = (a: string, b: string) => {
  const x = rate(a);
  const y = rate(b);
  return x === undefined || y === undefined ? 'n/a' : `${(x / y).toFixed(2)}x`;
};
console.log(`  Redis: fw / BullMQ directly ${ratio('fw, Redis (BullMQ)', 'BullMQ directly (baseline)')}; PostgreSQL: fw / plain SKIP LOCKED ${ratio('fw, PostgreSQL', 'plain SKIP LOCKED loop (baseline)')}`);
console.log(`  Targets: Redis ≥ 2000 jobs/s (${(rate('fw, Redis (BullMQ)') ?? 0) >= 2000 ? 'met' : 'NOT met'}), SQLite ≥ 500 jobs/s (${(rate('fw, SQLite file') ?? 0) >= 500 ? 'met' : 'NOT met'})`);
