import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe } from 'vitest';
import { BullMqJobQueue } from '../../adapters/queue/bullmq-job-queue.js';
import { deleteRedisKeys, redisAvailable, redisTestPrefix, redisUrl } from '../support/redis-server.js';
import { MemoryJobQueue } from '../../adapters/queue/memory-job-queue.js';
import { SqlJobQueue } from '../../adapters/queue/sql-job-queue.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase, useSecondPool } from '../support/migrated-database.js';
import { jobQueueContract } from './job-queue.contract.js';
import type { QueueTime } from './job-queue.contract.js';

/** Time that moves only when told, at once. */
function movingTime(): QueueTime {
  let now = new Date('2026-11-24T10:00:00.000Z').getTime();
  return {
    now: () => new Date(now),
    pass: (milliseconds) => {
      now += milliseconds;
      return Promise.resolve();
    },
  };
}

jobQueueContract('memory', () => Promise.resolve({ queue: new MemoryJobQueue(), time: movingTime() }));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    // A second pool on the same database: what a second worker process has.
    const second = useSecondPool(engine);
    jobQueueContract(`database on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM jobs'));
      return { queue: new SqlJobQueue(db().raw), sibling: new SqlJobQueue(second().raw), time: movingTime() };
    });
  });
}

describe.skipIf(!(await redisAvailable()))('redis', () => {
  const opened: BullMqJobQueue[] = [];
  let run = 0;
  afterAll(async () => {
    await Promise.all(opened.map((queue) => queue.close()));
    await deleteRedisKeys(redisTestPrefix);
  });
  // BullMQ keeps time by the real clock: the contract's time really waits.
  const realTime: QueueTime = { now: () => new Date(), pass: (milliseconds) => sleep(milliseconds) };
  jobQueueContract('redis (BullMQ)', () => {
    // A prefix per test: each starts from an empty queue.
    const prefix = `${redisTestPrefix}q${++run}`;
    const make = () => {
      const queue = new BullMqJobQueue({ url: redisUrl, prefix, graceMs: 100, stalledIntervalMs: 150 });
      opened.push(queue);
      return queue;
    };
    // A dead worker's job returns within two stalled checks after its lock ends.
    return Promise.resolve({ queue: make(), sibling: make(), time: realTime, graceMs: 100 + 3 * 150 });
  });
});
