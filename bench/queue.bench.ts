/**
 * Queued jobs per second and the wait from dispatch to start, on each driver, in one run, in
 * two ways:
 *
 * - while running: JOBS empty jobs dispatched one by one (each awaited, as a request would)
 *   while a worker with 2 concurrent loops (the framework's `queue:work --workers 2`, in this
 *   process, polling every 50 ms when idle) runs them; jobs/s is JOBS over the time from the
 *   first dispatch to the last job's end, and the latency is each job's start minus its
 *   dispatch (p50, p99);
 * - concurrent: the same with 16 senders each awaiting its own dispatch (many requests
 *   dispatching at once); batches: 100 at a time through `dispatchMany` (BullMQ: `addBulk`);
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
 * - Redis: a warm-up round, then QUEUE_BENCH_ROUNDS rounds of the pair (fw, BullMQ directly) in
 *   alternating order; each row prints this process's CPU per job (it dispatches and works; a
 *   backlog's phases apart), the Redis server's, the commands and writes per job, and the load.
 *
 * Targets on this machine: at least 2 000 jobs/s on Redis, 500 on SQLite.
 */
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { Queue, Worker } from 'bullmq';
import { Pipeline, Redis } from 'ioredis';
import pg from 'pg';
import { number, object } from 'superstruct';
import { App, TOKENS, defineJob } from '../composition/index.js';
import { BenchDatabase } from './support/bench-database.js';

const JOBS = Number(process.env['QUEUE_BENCH_JOBS'] ?? 3000);
/** Jobs per row: JOBS, or fewer in the Redis warm-up round (whose rows are not reported). */
let jobCount = JOBS;
const STARTING_LOAD = loadavg()[0] ?? Number.NaN;
const FW_REDIS = 'fw, Redis (BullMQ)';
const BULLMQ = 'BullMQ directly (baseline)';
const APP_KEY = `base64:${Buffer.alloc(32, 3).toString('base64')}`;
const REDIS_URL = process.env['REDIS_URL'] ?? 'redis://127.0.0.1:6379';
/** QUEUE_BENCH_ONLY=redis (or sqlite, postgres; comma-separated) runs those rows alone. */
const ONLY = new Set((process.env['QUEUE_BENCH_ONLY'] ?? 'sqlite,postgres,redis').split(',').map((name) => name.trim()));

/**
 * How jobs meet the workers: sent one by one while they run, sent by SENDERS concurrent senders
 * while they run (many requests dispatching at once), or all sent before they start.
 */
type Mode = 'while running' | 'concurrent' | 'batches' | 'backlog';
/** Jobs per `dispatchMany` (BullMQ: `addBulk`) in the `batches` rows, sent one batch at a time while the loops run. */
const BATCH = 100;
/** Dispatches in flight at once in the `concurrent` rows (QUEUE_BENCH_SENDERS, default 16). */
const SENDERS = Number(process.env['QUEUE_BENCH_SENDERS'] ?? 16);
/** Rounds of the Redis pair (fw, BullMQ directly), the order alternating (QUEUE_BENCH_ROUNDS, default 3). */
const ROUNDS = Number(process.env['QUEUE_BENCH_ROUNDS'] ?? 3);

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
  /**
   * This process's CPU per job in µs (process.cpuUsage): over the whole row, and, for a
   * backlog, the dispatch phase alone (the dispatching process's share) and the run alone (the
   * worker's); the Redis server's CPU per job over the row (INFO cpu; the server is shared, so
   * an indication). The load average as the row ended.
   */
  cpuPerJob: number;
  dispatchCpuPerJob: number;
  runCpuPerJob: number;
  redisCpuPerJob: number;
  /** Redis commands sent per job, and the socket writes they took (Redis rows only). */
  commandsPerJob: number;
  writesPerJob: number;
  load: number;
  round: number;
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
  if (++finished === jobCount) allDone();
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

const stamp = () => performance.timeOrigin + performance.now();

/** The Redis server's CPU seconds so far (user + system), or NaN when it is not the driver. */
let redisCpu: () => Promise<number> = () => Promise.resolve(Number.NaN);
let round = 0;

/**
 * Redis commands this process sent (every ioredis client, pipelined or not) and the writes they
 * took (an auto-pipeline's commands leave in one), counted on ioredis' sendCommand.
 */
const sent = { commands: 0, writes: 0 };
{
  const prototype = Redis.prototype as { sendCommand: (this: Redis, ...args: unknown[]) => unknown };
  const sendCommand = prototype.sendCommand;
  prototype.sendCommand = function (this: Redis, ...args: unknown[]) {
    sent.commands++;
    if ((args[1] as { isPipeline?: boolean } | undefined)?.isPipeline !== true) sent.writes++;
    return sendCommand.apply(this, args);
  };
  // A pipeline (a MULTI, dispatchMany's addBulk) leaves in one write.
  const pipeline = Pipeline.prototype as { exec: (this: Pipeline, ...args: unknown[]) => unknown };
  const exec = pipeline.exec;
  pipeline.exec = function (this: Pipeline, ...args: unknown[]) {
    sent.writes++;
    return exec.apply(this, args);
  };
}

/** This process's CPU time in µs. */
function cpuNow(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/**
 * One row: `dispatch` sends a job stamped with its dispatch time, `start` starts 2 concurrent
 * consumers and answers how to stop them. While running: the consumers start first and the
 * jobs follow one by one (or SENDERS at a time, `concurrent`); backlog: every job is sent
 * first, then the consumers start.
 */
async function measure(name: string, mode: Mode, dispatch: (t: number) => PromiseLike<unknown>, start: () => Promise<() => Promise<void>>, dispatchMany?: (stamps: number[]) => PromiseLike<unknown>): Promise<Row> {
  waits = [];
  finished = 0;
  const done = new Promise<void>((resolve) => (allDone = resolve));
  let stop: (() => Promise<void>) | null = mode === 'backlog' ? null : await start();
  try {
    const redisBefore = await redisCpu();
    const cpu0 = cpuNow();
    const { commands, writes } = sent;
    const began = performance.now();
    if (mode === 'concurrent') {
      let sent = 0;
      const sender = async () => {
        while (sent < jobCount) {
          sent++;
          await dispatch(stamp());
        }
      };
      await Promise.all(Array.from({ length: SENDERS }, sender));
    } else if (mode === 'batches' && dispatchMany !== undefined) {
      for (let n = 0; n < jobCount; n += BATCH) await dispatchMany(Array.from({ length: Math.min(BATCH, jobCount - n) }, stamp));
    } else for (let n = 0; n < jobCount; n++) await dispatch(stamp());
    const dispatched = performance.now();
    const cpu1 = cpuNow();
    stop ??= await start();
    const running = performance.now();
    const cpu2 = cpuNow();
    await done;
    const ended = performance.now();
    const cpu3 = cpuNow();
    const redisAfter = await redisCpu();
    const perSecond = (from: number, to: number) => jobCount / ((to - from) / 1000);
    return {
      name,
      mode,
      jobsPerSecond: perSecond(began, ended),
      p50: percentile(waits, 50),
      p99: percentile(waits, 99),
      dispatchPerSecond: perSecond(began, dispatched),
      runPerSecond: perSecond(running, ended),
      cpuPerJob: (cpu3 - cpu0) / jobCount,
      dispatchCpuPerJob: (cpu1 - cpu0) / jobCount,
      runCpuPerJob: (cpu3 - cpu2) / jobCount,
      redisCpuPerJob: ((redisAfter - redisBefore) * 1e6) / jobCount,
      commandsPerJob: (sent.commands - commands) / jobCount,
      writesPerJob: (sent.writes - writes) / jobCount,
      load: loadavg()[0] ?? Number.NaN,
      round,
    };
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
    return await measure(
      name,
      mode,
      (t) => jobs.dispatch(Empty.with({ t })),
      async () => {
        const worker = await app.worker({ concurrency: 2, pollMs: 50 });
        const running = worker.run();
        return async () => {
          await worker.stop();
          await running;
        };
      },
      (stamps) => jobs.dispatchMany(stamps.map((t) => Empty.with({ t }))),
    );
  } finally {
    await app.close();
  }
}

/**
 * BullMQ used directly (Queue.add, a Worker with concurrency 2): what the framework's Redis
 * driver adds on top of it. Its connections are set as the framework's are (the same honest
 * comparison): the Queue's, and the Worker's own (fw's worker never waits behind dispatches).
 */
async function bullmqDirect(mode: Mode, prefix: string): Promise<Row> {
  const connection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const workerConnection = new Redis(REDIS_URL, { maxRetriesPerRequest: null });
  const queue = new Queue('bench', { connection, prefix });
  try {
    return await measure(
      BULLMQ,
      mode,
      (t) => queue.add('empty', { t }, { removeOnComplete: true }),
      () => {
        const worker = new Worker('bench', (job) => Promise.resolve(started((job.data as { t: number }).t)), { connection: workerConnection, prefix, concurrency: 2 });
        return Promise.resolve(() => worker.close());
      },
      (stamps) => queue.addBulk(stamps.map((t) => ({ name: 'empty', data: { t }, opts: { removeOnComplete: true } }))),
    );
  } finally {
    await queue.close();
    connection.disconnect();
    workerConnection.disconnect();
  }
}

/** A plain `DELETE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED) RETURNING` loop (2 loops): what the framework's database driver adds. */
async function skipLockedLoop(mode: Mode, url: string): Promise<Row> {
  const pool = new pg.Pool({ connectionString: url, max: 3 });
  const table = `bench_jobs_${mode.replace(' ', '_')}`;
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

/** QUEUE_BENCH_MODES (comma-separated, e.g. `concurrent`) and QUEUE_BENCH_BASELINES=0 (fw's rows alone): for profiling one path. */
const MODES: readonly Mode[] = (['while running', 'concurrent', 'batches', 'backlog'] as const).filter((mode) => (process.env['QUEUE_BENCH_MODES'] ?? mode).split(',').includes(mode));
const BASELINES = process.env['QUEUE_BENCH_BASELINES'] !== '0';
const rows: (Row | { name: string; skipped: string })[] = [];
const folder = mkdtempSync(join(tmpdir(), 'fw-queue-bench-'));
try {
  if (ONLY.has('sqlite')) {
    // No `batches` rows on the database driver: its dispatchMany sends one by one (no enqueueMany yet).
    for (const mode of MODES.filter((each) => each !== 'batches')) rows.push(await framework('fw, SQLite file', mode, { DATABASE_URL: `sqlite:${join(folder, `${mode}.sqlite`)}`, QUEUE_CONNECTION: 'database' }));
  }
  const postgres = new BenchDatabase();
  const made = ONLY.has('postgres') ? await postgres.create() : null;
  if (made === null) {
    // Not asked for.
  } else if ('problem' in made) rows.push({ name: 'fw, PostgreSQL', skipped: made.problem });
  else {
    try {
      for (const mode of MODES.filter((each) => each !== 'batches')) {
        rows.push(await framework('fw, PostgreSQL', mode, { DATABASE_URL: made.url, QUEUE_CONNECTION: 'database' }));
        if (BASELINES) rows.push(await skipLockedLoop(mode, made.url));
      }
    } finally {
      await postgres.drop();
    }
  }
  if (!ONLY.has('redis')) {
    // Not asked for.
  } else if (await redisReachable()) {
    const prefix = `fw-bench-${randomBytes(4).toString('hex')}`;
    const info = new Redis(REDIS_URL);
    redisCpu = async () => {
      const text = await info.info('cpu');
      const field = (name: string) => Number(new RegExp(`^${name}:([0-9.]+)`, 'mu').exec(text)?.[1] ?? Number.NaN);
      return field('used_cpu_user') + field('used_cpu_sys');
    };
    try {
      let n = 0;
      // A warm-up round first (a tenth of the jobs, not reported): the first row of each side
      // otherwise pays for compiling its code and the app's start-up garbage (measured: fw's first
      // row 1.5–2.5x the CPU per job of its second). Then rounds of the pair with the order
      // alternating: the machine's load drifts, and neither may always run first.
      for (round = -1; round < ROUNDS; round++) {
        jobCount = round < 0 ? Math.ceil(JOBS / 10) : JOBS;
        const kept = rows.length;
        for (const mode of MODES) {
          const fw = () => framework(FW_REDIS, mode, { DATABASE_URL: `sqlite:${join(folder, `redis-app-${n}.sqlite`)}`, QUEUE_CONNECTION: 'redis', QUEUE_PREFIX: `${prefix}-${n}`, REDIS_URL });
          const direct = () => bullmqDirect(mode, `${prefix}-direct-${n}`);
          n++;
          for (const row of BASELINES ? (round % 2 === 0 ? [fw, direct] : [direct, fw]) : [fw]) rows.push(await row());
        }
        if (round < 0) rows.length = kept;
      }
    } finally {
      info.disconnect();
      await deletePrefix(prefix);
    }
  } else rows.push({ name: FW_REDIS, skipped: `Redis not reachable at ${REDIS_URL}` });
} finally {
  rmSync(folder, { recursive: true, force: true });
}

const measured = rows.filter((row): row is Row => !('skipped' in row));
const fixed = (value: number, digits = 0, width = 6) => (Number.isNaN(value) ? '-' : value.toFixed(digits)).padStart(width);
const cpu = (row: Row) =>
  row.mode === 'backlog'
    ? `CPU/job dispatch ${fixed(row.dispatchCpuPerJob, 0, 4)} µs, run ${fixed(row.runCpuPerJob, 0, 4)} µs, Redis ${fixed(row.redisCpuPerJob, 0, 4)} µs`
    : `CPU/job ${fixed(row.cpuPerJob, 0, 4)} µs, Redis ${fixed(row.redisCpuPerJob, 0, 4)} µs`;
const HEADINGS: Record<Mode, string> = {
  'while running': ' dispatched one by one while the loops run them:',
  concurrent: ` dispatched by ${SENDERS} concurrent senders while the loops run them:`,
  batches: ` dispatched ${BATCH} at a time (dispatchMany; BullMQ's addBulk) while the loops run them:`,
  backlog: ' all dispatched one by one first, then run (a backlog):',
};
console.log(`Queue: ${JOBS} empty jobs, 2 concurrent loops (load at start ${STARTING_LOAD.toFixed(1)}, at end ${loadavg()[0]?.toFixed(1) ?? '?'}; CPU per job of this process, which dispatches and works)`);
for (const mode of MODES) {
  if (!rows.some((row) => 'skipped' in row || row.mode === mode)) continue;
  console.log(HEADINGS[mode]);
  for (const row of rows) {
    if ('skipped' in row) {
      if (mode === 'while running') console.log(`  ${row.name.padEnd(36)} skipped: ${row.skipped}`);
      continue;
    }
    if (row.mode !== mode) continue;
    const label = `${row.name}${row.name === FW_REDIS || row.name === BULLMQ ? ` #${row.round + 1}` : ''}`.padEnd(36);
    const rate = `${fixed(row.jobsPerSecond)} jobs/s`;
    const detail =
      mode === 'backlog'
        ? `dispatch alone ${fixed(row.dispatchPerSecond)}/s   run alone ${fixed(row.runPerSecond)}/s`
        : `dispatch→start p50 ${fixed(row.p50, 1, 5)} ms   p99 ${fixed(row.p99, 1, 6)} ms`;
    const commands = row.commandsPerJob > 0 ? `   commands/job ${row.commandsPerJob.toFixed(2)} in ${row.writesPerJob.toFixed(2)} writes` : '';
    console.log(`  ${label} ${rate}   ${detail}   ${cpu(row)}${commands}   load ${row.load.toFixed(1)}`);
  }
}
const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? Number.NaN : (sorted[Math.floor((sorted.length - 1) / 2)]! + sorted[Math.ceil((sorted.length - 1) / 2)]!) / 2;
};
const of = (name: string, mode: Mode) => measured.filter((row) => row.name === name && row.mode === mode);
/** Per round, a over b (Redis rounds pair up by round); the median over the rounds, and the spread. */
const ratios = (a: string, b: string, mode: Mode, value: (row: Row) => number) => {
  const pairs = of(a, mode).flatMap((x) => of(b, mode).filter((y) => y.round === x.round).map((y) => value(x) / value(y)));
  if (pairs.length === 0) return 'n/a';
  return `${median(pairs).toFixed(2)}x${pairs.length > 1 ? ` (${Math.min(...pairs).toFixed(2)}–${Math.max(...pairs).toFixed(2)} over ${pairs.length} rounds)` : ''}`;
};
for (const mode of MODES) {
  const cpuRatio = mode === 'backlog' ? `; CPU/job dispatch ${ratios(FW_REDIS, BULLMQ, mode, (row) => row.dispatchCpuPerJob)}, run ${ratios(FW_REDIS, BULLMQ, mode, (row) => row.runCpuPerJob)}` : `; CPU/job ${ratios(FW_REDIS, BULLMQ, mode, (row) => row.cpuPerJob)}`;
  const p50 = mode === 'backlog' ? '' : `; p50 ${ratios(FW_REDIS, BULLMQ, mode, (row) => row.p50)}`;
  console.log(`  ${mode}: Redis fw / BullMQ directly ${ratios(FW_REDIS, BULLMQ, mode, (row) => row.jobsPerSecond)}${p50}${cpuRatio}; PostgreSQL fw / plain SKIP LOCKED ${ratios('fw, PostgreSQL', 'plain SKIP LOCKED loop (baseline)', mode, (row) => row.jobsPerSecond)}`);
}
const best = (name: string, mode: Mode) => Math.max(0, ...of(name, mode).map((row) => row.jobsPerSecond));
const met = (name: string, target: number) => MODES.filter((mode) => of(name, mode).length > 0).map((mode) => `${mode} ${best(name, mode) >= target ? 'met' : 'NOT met'} (median ${median(of(name, mode).map((row) => row.jobsPerSecond)).toFixed(0)})`).join(', ');
const targets = [
  [FW_REDIS, 'Redis', 2000],
  ['fw, SQLite file', 'SQLite', 500],
] as const;
for (const [name, label, target] of targets) if (measured.some((row) => row.name === name)) console.log(`  Target: ${label} ≥ ${target} jobs/s: ${met(name, target)}`);
