/**
 * An idle worker starts a dispatched job at once, not at its next poll: on PostgreSQL a
 * dispatch from another process (another pool, no listener of its own) wakes it through
 * LISTEN/NOTIFY; on both engines a dispatch in the worker's own process wakes it directly,
 * after the commit for one made in a transaction; on Redis BullMQ's marker keys wake it (a
 * dispatch through another connection, and a delayed job when it comes due). The workers here
 * poll once a minute, so a job that waited for the poll would fail the test's few seconds.
 */
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../adapters/clock/system-clock.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import { SqlTransactions } from '../../../adapters/persistence/mikro-orm/sql-transactions.js';
import { PostgresJobNotifications } from '../../../adapters/queue/postgres-job-notifications.js';
import { SqlJobQueue } from '../../../adapters/queue/sql-job-queue.js';
import { BullMqJobQueue } from '../../../adapters/queue/bullmq-job-queue.js';
import { JobWorker } from '../../../adapters/worker/job-worker.js';
import type { JobQueue, NewJob } from '../../../ports/job-queue.js';
import { useEngines } from '../../support/databases.js';
import { useMigratedDatabase, useSecondPool } from '../../support/migrated-database.js';
import { deleteRedisKeys, redisAvailable, redisTestPrefix, redisUrl } from '../../support/redis-server.js';

const MINUTE = 60_000;

function job(availableAt = new Date()): NewJob {
  return { name: 'ping', queue: 'default', payload: '{}', tries: 1, backoff: { kind: 'fixed', delayMs: 0 }, timeoutMs: 5000, availableAt, idempotencyKey: null, batchId: null };
}

const workers: JobWorker[] = [];
afterEach(async () => {
  await Promise.all(workers.splice(0).map((worker) => worker.stop()));
});

/** A worker polling once a minute; resolves `started` with the ms from `since()` to each start. */
function idleWorker(queue: JobQueue, logger = new MemoryLogger()): { started: Promise<number>; since: (at: number) => void } {
  let from = 0;
  let resolve: (ms: number) => void = () => undefined;
  const started = new Promise<number>((done) => (resolve = done));
  const worker = new JobWorker(
    { queue, handler: () => () => (resolve(Date.now() - from), Promise.resolve()), clock: new SystemClock(), random: () => 0, logger },
    { queues: ['default'], concurrency: 2, pollMs: MINUTE },
  );
  workers.push(worker);
  void worker.run();
  return { started, since: (at) => (from = at) };
}

/** Lets the worker's first (empty) claim finish, so it is asleep when the dispatch comes. */
const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`idle workers on ${engine.name}`, () => {
    const db = useMigratedDatabase(engine);
    const second = useSecondPool(engine);
    const clear = () => db().raw.session((sql) => sql.exec('DELETE FROM jobs'));

    it('start a job dispatched in their own process at once', async () => {
      await clear();
      const queue = new SqlJobQueue(db().raw);
      const worker = idleWorker(queue);
      await settle();
      worker.since(Date.now());
      await queue.enqueue(job(), new Date());
      expect(await worker.started).toBeLessThan(2000);
    });

    it('start a job dispatched in a transaction once it commits, and never one rolled back', async () => {
      await clear();
      const queue = new SqlJobQueue(db().raw);
      let ran = 0;
      const worker = new JobWorker(
        { queue, handler: () => () => (ran++, Promise.resolve()), clock: new SystemClock(), random: () => 0, logger: new MemoryLogger() },
        { queues: ['default'], concurrency: 1, pollMs: MINUTE },
      );
      workers.push(worker);
      void worker.run();
      await settle();
      const transactions = new SqlTransactions(db().raw);
      await expect(transactions.run(async (tx) => (await queue.enqueueWithin(tx, job(), new Date()), Promise.reject(new Error('rolled back'))))).rejects.toThrow('rolled back');
      const at = Date.now();
      await transactions.run((tx) => queue.enqueueWithin(tx, job(), new Date()));
      while (ran === 0 && Date.now() - at < 3000) await new Promise((resolve) => setTimeout(resolve, 10));
      expect(ran).toBe(1);
      expect(Date.now() - at).toBeLessThan(2000);
    });

    it.runIf(engine.name === 'postgres')('start a job another process dispatched at once (LISTEN/NOTIFY)', async () => {
      await clear();
      const url = engine.url().replace(/^postgres(ql)?:/u, 'postgres:');
      const listening = new SqlJobQueue(db().raw, new PostgresJobNotifications(url));
      const elsewhere = new SqlJobQueue(second().raw);
      const worker = idleWorker(listening);
      await settle();
      worker.since(Date.now());
      await elsewhere.enqueue(job(), new Date());
      expect(await worker.started).toBeLessThan(2000);
    });
  });
}

/** Resolves 'started' when `started` does, or 'not started' after a deadline well under the workers' minute of polling. */
function within(started: Promise<number>, ms = 20_000): Promise<'started' | 'not started'> {
  const deadline = new Promise<'not started'>((resolve) => setTimeout(() => resolve('not started'), ms).unref());
  return Promise.race([started.then(() => 'started' as const), deadline]);
}

describe.skipIf(!(await redisAvailable()))('idle workers on Redis', () => {
  const prefix = `${redisTestPrefix}wake`;
  const opened: BullMqJobQueue[] = [];
  const open = () => {
    const queue = new BullMqJobQueue({ url: redisUrl, prefix });
    opened.push(queue);
    return queue;
  };
  afterEach(async () => {
    await Promise.all(workers.splice(0).map((worker) => worker.stop()));
    await Promise.all(opened.splice(0).map((queue) => queue.close()));
    await deleteRedisKeys(prefix);
  });

  it('start a job dispatched through another connection at once (BullMQ marker)', async () => {
    const worker = idleWorker(open());
    await settle();
    await open().enqueue(job(), new Date());
    expect(await within(worker.started)).toBe('started');
  });

  it('start a delayed job when it comes due, not at the next poll', async () => {
    const worker = idleWorker(open());
    await settle();
    await open().enqueue(job(new Date(Date.now() + 1000)), new Date());
    expect(await within(worker.started)).toBe('started');
  });

  /** Counts the blocking pops on this file's marker keys while `work` runs. */
  async function markerPops(work: () => Promise<void>): Promise<number> {
    const prototype = Redis.prototype as unknown as { sendCommand: (command: { name: string; args: unknown[] }, ...rest: unknown[]) => unknown };
    const send = prototype.sendCommand;
    let pops = 0;
    prototype.sendCommand = function (this: unknown, command, ...rest) {
      if (command.name === 'bzpopmin' && String(command.args[0]).startsWith(prefix)) pops++;
      return send.call(this, command, ...rest);
    };
    try {
      await work();
    } finally {
      prototype.sendCommand = send;
    }
    return pops;
  }

  it('do not pop the marker for each job of a backlog their loops are busy with, and still wake after it', async () => {
    const JOBS = 300;
    const queue = open();
    for (let n = 0; n < JOBS; n++) await queue.enqueue(job(), new Date());
    let ran = 0;
    let drained: () => void = () => undefined;
    const backlogRan = new Promise<void>((resolve) => (drained = resolve));
    let started: (at: number) => void = () => undefined;
    const worker = new JobWorker(
      { queue, handler: () => () => (++ran === JOBS ? drained() : ran > JOBS && started(Date.now()), Promise.resolve()), clock: new SystemClock(), random: () => 0, logger: new MemoryLogger() },
      { queues: ['default'], concurrency: 2, pollMs: MINUTE },
    );
    workers.push(worker);
    const pops = await markerPops(async () => {
      void worker.run();
      await backlogRan;
    });
    // BullMQ sets the marker again at every hand-out while jobs wait: popping it each time would be one round trip per job.
    expect(pops).toBeLessThan(JOBS / 10);
    await settle();
    const woken = new Promise<number>((resolve) => (started = resolve));
    const at = Date.now();
    await open().enqueue(job(), new Date());
    expect(await within(woken.then((when) => when - at))).toBe('started');
  });

  it('keep one error listener on the marker connection however often they wake', async () => {
    const warnings: string[] = [];
    const heard = (warning: Error) => warnings.push(warning.name);
    process.on('warning', heard);
    try {
      const queue = open();
      let ran = 0;
      let next: () => void = () => undefined;
      const worker = new JobWorker(
        { queue, handler: () => () => (ran++, next(), Promise.resolve()), clock: new SystemClock(), random: () => 0, logger: new MemoryLogger() },
        { queues: ['default'], concurrency: 1, pollMs: MINUTE },
      );
      workers.push(worker);
      void worker.run();
      const dispatcher = open();
      // Each job is dispatched while the worker sleeps on the marker: one blocking pop per job.
      for (let n = 0; n < 15; n++) {
        await new Promise((resolve) => setTimeout(resolve, 50));
        const done = new Promise<void>((resolve) => (next = resolve));
        await dispatcher.enqueue(job(), new Date());
        await done;
      }
      expect(ran).toBe(15);
      await new Promise((resolve) => setImmediate(resolve));
      expect(warnings).not.toContain('MaxListenersExceededWarning');
    } finally {
      process.off('warning', heard);
    }
  });
});
