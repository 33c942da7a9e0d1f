/**
 * Dispatch → start of one job reaching an idle worker (the common case of a quiet app: a
 * sign-up mail), p50 and p99 over ROUNDS jobs sent one at a time, each after the worker went
 * idle again. Before: the worker polls (1 s, the default without wake-ups). After: the queue
 * wakes it (SQLite: a dispatch in the worker's process; PostgreSQL: LISTEN/NOTIFY, the
 * dispatch made on another pool, as by a web process). Both with default worker options.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SystemClock } from '../adapters/clock/system-clock.js';
import { MemoryLogger } from '../adapters/log/memory-logger.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { SqlFileMigrator } from '../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { PostgresJobNotifications } from '../adapters/queue/postgres-job-notifications.js';
import { SqlJobQueue } from '../adapters/queue/sql-job-queue.js';
import { JobWorker } from '../adapters/worker/job-worker.js';
import { FRAMEWORK_ROOT } from '../composition/app.js';
import { Secret } from '../domain/shared/secret.js';
import type { JobQueue, NewJob } from '../ports/job-queue.js';
import { BenchDatabase } from './support/bench-database.js';

const ROUNDS = Number(process.env['WAKE_BENCH_ROUNDS'] ?? 20);
const job = (): NewJob => ({ name: 'ping', queue: 'default', payload: '{}', tries: 1, backoff: { kind: 'fixed', delayMs: 0 }, timeoutMs: 5000, availableAt: new Date(), idempotencyKey: null, batchId: null });

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/** The queue without its wake-ups: what the worker did before. */
function pollingOnly(queue: JobQueue): JobQueue {
  return new Proxy(queue, { get: (target, key) => (key === 'watch' ? undefined : Reflect.get(target, key, target) as unknown) });
}

async function latencies(workerQueue: JobQueue, dispatchQueue: JobQueue): Promise<number[]> {
  let started: (at: number) => void = () => undefined;
  const worker = new JobWorker(
    { queue: workerQueue, handler: () => () => (started(Date.now()), Promise.resolve()), clock: new SystemClock(), random: () => 0, logger: new MemoryLogger() },
    { queues: ['default'], concurrency: 2 },
  );
  void worker.run();
  const waits: number[] = [];
  try {
    for (let round = 0; round < ROUNDS; round++) {
      // Idle for a while, at a point of the poll cycle that varies.
      await new Promise((resolve) => setTimeout(resolve, 100 + Math.random() * 400));
      const start = new Promise<number>((resolve) => (started = resolve));
      const at = Date.now();
      await dispatchQueue.enqueue(job(), new Date());
      waits.push((await start) - at);
    }
  } finally {
    await worker.stop();
  }
  return waits;
}

async function migrated(database: Database): Promise<Database> {
  await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }], new SystemClock()).migrate();
  return database;
}

function report(name: string, before: number[], after: number[]): void {
  const line = (label: string, waits: number[]) => `  ${label.padEnd(28)} p50 ${percentile(waits, 50).toFixed(0).padStart(5)} ms   p99 ${percentile(waits, 99).toFixed(0).padStart(5)} ms`;
  console.log(`${name}: dispatch → start, idle worker, ${ROUNDS} jobs`);
  console.log(line('polling (before)', before));
  console.log(line('woken on dispatch (after)', after));
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-'));
const sqlite = await migrated(await openDatabase({ engine: 'sqlite', path: join(dir, 'bench.sqlite') }));
try {
  const queue = new SqlJobQueue(sqlite.raw);
  report('SQLite (same process)', await latencies(pollingOnly(queue), queue), await latencies(queue, queue));
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}

const scratch = new BenchDatabase();
const made = await scratch.create();
if ('problem' in made) console.log(`PostgreSQL: skipped (${made.problem})`);
else {
  const workerSide = await migrated(await openDatabase({ engine: 'postgres', url: new Secret(made.url) }));
  const webSide = await openDatabase({ engine: 'postgres', url: new Secret(made.url) });
  try {
    const dispatcher = new SqlJobQueue(webSide.raw);
    const listening = new SqlJobQueue(workerSide.raw, new PostgresJobNotifications(made.url));
    report('PostgreSQL (another pool)', await latencies(pollingOnly(listening), dispatcher), await latencies(listening, dispatcher));
  } finally {
    await workerSide.close();
    await webSide.close();
    await scratch.drop();
  }
}
