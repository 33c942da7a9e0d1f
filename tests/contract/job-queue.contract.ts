import { beforeEach, describe, expect, it } from 'vitest';
import { Backoffs } from '../../domain/queue/backoff.js';
import { LEASE_GRACE_MS } from '../../domain/queue/lease.js';
import type { JobQueue, NewJob } from '../../ports/job-queue.js';

/** Time as the queue under test sees it: a moving date for memory and SQL; Redis really waits. */
export interface QueueTime {
  now(): Date;
  pass(milliseconds: number): Promise<void>;
}

export interface QueueUnderTest {
  queue: JobQueue;
  time: QueueTime;
  /** The same backend through another connection (a second worker process); absent for memory. */
  sibling?: JobQueue;
  /** Lease grace of this driver (the domain's for memory and SQL). */
  graceMs?: number;
}

/** Short timeouts: Redis tests wait for leases to end for real. */
const TIMEOUT = 400;

export function newJob(overrides: Partial<NewJob> & { at: Date }): NewJob {
  const { at, ...rest } = overrides;
  return {
    name: 'test-job',
    queue: 'default',
    payload: '{"n":1}',
    tries: 3,
    backoff: Backoffs.fixed(1000),
    timeoutMs: TIMEOUT,
    availableAt: at,
    idempotencyKey: null,
    batchId: null,
    ...rest,
  };
}

/**
 * What every `JobQueue` driver must do, run against memory, SQLite, PostgreSQL and Redis, so a
 * worker tested on one behaves the same on the others.
 */
export function jobQueueContract(name: string, fresh: () => Promise<QueueUnderTest>): void {
  describe(`JobQueue contract: ${name}`, () => {
    let queue: JobQueue;
    let time: QueueTime;
    let sibling: JobQueue | undefined;
    let grace = LEASE_GRACE_MS;
    beforeEach(async () => {
      let graceMs: number | undefined;
      ({ queue, time, sibling, graceMs } = await fresh());
      grace = graceMs ?? LEASE_GRACE_MS;
    });
    const job = (overrides: Partial<NewJob> = {}) => newJob({ at: time.now(), ...overrides });
    const claim = (queues: readonly string[] = ['default']) => queue.claim(queues, time.now());

    it('hands a queued job to one claimer, with its payload and its first attempt', async () => {
      const queued = await queue.enqueue(job({ payload: '{"order":7}' }), time.now());
      expect(queued.kind).toBe('queued');
      const claimed = await claim();
      expect(claimed).toMatchObject({ id: queued.id, name: 'test-job', queue: 'default', payload: '{"order":7}', attempts: 1, tries: 3, timeoutMs: TIMEOUT });
      expect(claimed?.backoff).toEqual(Backoffs.fixed(1000));
      expect(await claim()).toBeNull();
    });

    it('takes the queues in the order given, and each queue oldest first', async () => {
      const low1 = await queue.enqueue(job({ queue: 'low', payload: '"low1"' }), time.now());
      const low2 = await queue.enqueue(job({ queue: 'low', payload: '"low2"' }), time.now());
      const high = await queue.enqueue(job({ queue: 'high', payload: '"high"' }), time.now());
      const order = [];
      for (let n = 0; n < 3; n++) order.push((await claim(['high', 'low']))?.id);
      expect(order).toEqual([high.id, low1.id, low2.id]);
    });

    it("carries a job's batch", async () => {
      await queue.enqueue(job({ batchId: 'batch-1' }), time.now());
      expect((await claim())?.batchId).toBe('batch-1');
    });

    it('ignores queues not asked for', async () => {
      await queue.enqueue(job({ queue: 'other' }), time.now());
      expect(await claim(['default'])).toBeNull();
      expect(await claim(['other'])).not.toBeNull();
    });

    it('keeps a delayed job until its time', async () => {
      await queue.enqueue(job({ availableAt: new Date(time.now().getTime() + 300) }), time.now());
      expect(await claim()).toBeNull();
      await time.pass(400);
      expect(await claim()).not.toBeNull();
    });

    it('deletes a completed job', async () => {
      await queue.enqueue(job(), time.now());
      const claimed = await claim();
      expect(claimed).not.toBeNull();
      expect(await queue.complete(claimed!)).toBe(true);
      expect(await queue.counts(time.now())).toEqual([]);
      expect(await claim()).toBeNull();
    });

    it("gives a job back after its worker's lease ends, and the late worker can no longer finish it", async () => {
      await queue.enqueue(job(), time.now());
      const first = await claim();
      expect(first).not.toBeNull();
      await time.pass(100);
      expect(await claim()).toBeNull();
      await time.pass(TIMEOUT + grace);
      const second = await claim();
      expect(second).toMatchObject({ id: first!.id, attempts: 2 });
      expect(await queue.complete(first!)).toBe(false);
      expect(await queue.complete(second!)).toBe(true);
    });

    it('retries later, keeping the attempts made', async () => {
      await queue.enqueue(job(), time.now());
      const first = await claim();
      expect(await queue.retryLater(first!, new Date(time.now().getTime() + 300))).toBe(true);
      expect(await claim()).toBeNull();
      await time.pass(400);
      expect(await claim()).toMatchObject({ id: first!.id, attempts: 2 });
    });

    it('keeps a failed job with its error until it is retried, forgotten, flushed or pruned', async () => {
      await queue.enqueue(job({ payload: '{"a":1}' }), time.now());
      await queue.enqueue(job({ payload: '{"a":2}' }), time.now());
      const one = await claim();
      const two = await claim();
      expect(await queue.fail(one!, 'Error: boom\n    at handler', time.now())).toBe(true);
      await time.pass(10);
      expect(await queue.fail(two!, 'Error: bang', time.now())).toBe(true);
      expect(await claim()).toBeNull();
      const failed = await queue.failed();
      expect(failed.map((f) => [f.id, f.error, f.payload, f.attempts])).toEqual([
        [two!.id, 'Error: bang', '{"a":2}', 1],
        [one!.id, 'Error: boom\n    at handler', '{"a":1}', 1],
      ]);
      expect(failed[0]?.failedAt).toBeInstanceOf(Date);

      expect(await queue.retryFailed({ id: one!.id }, time.now())).toBe(1);
      expect(await queue.retryFailed({ id: '999999' }, time.now())).toBe(0);
      expect(await claim()).toMatchObject({ id: one!.id, attempts: 1 });
      expect(await queue.forgetFailed(two!.id)).toBe(true);
      expect(await queue.forgetFailed(two!.id)).toBe(false);
      expect(await queue.failed()).toEqual([]);
    });

    it('flushes and prunes failed jobs', async () => {
      for (let n = 0; n < 3; n++) await queue.enqueue(job({ payload: String(n) }), time.now());
      await queue.fail((await claim())!, 'old', time.now());
      const cutoff = time.now();
      await time.pass(1000);
      await queue.fail((await claim())!, 'new', time.now());
      expect(await queue.pruneFailed(cutoff)).toBe(1);
      expect((await queue.failed()).map((f) => f.error)).toEqual(['new']);
      await queue.fail((await claim())!, 'newer', time.now());
      expect(await queue.retryFailed('all', time.now())).toBe(2);
      await queue.fail((await claim())!, 'again', time.now());
      await queue.fail((await claim())!, 'again', time.now());
      expect(await queue.flushFailed()).toBe(2);
      expect(await queue.failed()).toEqual([]);
    });

    it('adds a job with an idempotency key once while it exists', async () => {
      const first = await queue.enqueue(job({ idempotencyKey: 'welcome:7' }), time.now());
      const second = await queue.enqueue(job({ idempotencyKey: 'welcome:7' }), time.now());
      expect(second).toEqual({ kind: 'duplicate', id: first.id });
      await queue.enqueue(job({ idempotencyKey: 'welcome:8' }), time.now());
      const claimed = await claim();
      await queue.complete(claimed!);
      expect((await claim())?.id).not.toBe(first.id);
    });

    it('adds many jobs at once, answering in order, each claimable once, keys still checked', async (context) => {
      const enqueueMany = queue.enqueueMany?.bind(queue);
      if (enqueueMany === undefined) return context.skip();
      const keyed = await queue.enqueue(job({ idempotencyKey: 'once' }), time.now());
      const later = new Date(time.now().getTime() + 60_000);
      const results = await enqueueMany([job({ payload: '"a"' }), job({ queue: 'other', payload: '"b"' }), job({ idempotencyKey: 'once' }), job({ payload: '"c"' }), job({ payload: '"d"', availableAt: later })], time.now());
      expect(results.map((result) => result.kind)).toEqual(['queued', 'queued', 'duplicate', 'queued', 'queued']);
      expect(results[2]?.id).toBe(keyed.id);
      expect(new Set(results.map((result) => result.id)).size).toBe(5);
      const taken = [];
      for (let claimed = await claim(['default', 'other']); claimed !== null; claimed = await claim(['default', 'other'])) taken.push(claimed);
      // Oldest first: the keyed job, then a and c in the order given, then b of the later queue; d is delayed.
      expect(taken.map((claimed) => claimed.id)).toEqual([keyed.id, results[0]?.id, results[3]?.id, results[1]?.id]);
      expect(taken.map((claimed) => claimed.payload)).toEqual(['{"n":1}', '"a"', '"c"', '"b"']);
    });

    it('counts jobs per queue and state', async () => {
      await queue.enqueue(job({ queue: 'mail' }), time.now());
      await queue.enqueue(job({ queue: 'mail' }), time.now());
      await queue.enqueue(job({ queue: 'mail', availableAt: new Date(time.now().getTime() + 60_000) }), time.now());
      await queue.enqueue(job({ queue: 'reports' }), time.now());
      await queue.enqueue(job({ queue: 'reports' }), time.now());
      const running = await claim(['mail']);
      await queue.fail((await claim(['reports']))!, 'x', time.now());
      expect(running).not.toBeNull();
      const counts = await queue.counts(time.now());
      const sorted = [...counts].sort((a, b) => `${a.queue}${a.state}`.localeCompare(`${b.queue}${b.state}`));
      expect(sorted).toEqual([
        { queue: 'mail', state: 'delayed', count: 1 },
        { queue: 'mail', state: 'running', count: 1 },
        { queue: 'mail', state: 'waiting', count: 1 },
        { queue: 'reports', state: 'failed', count: 1 },
        { queue: 'reports', state: 'waiting', count: 1 },
      ]);
    });

    it('completes a job and hands out the next in one call, taking the queues in the order given', async (context) => {
      const completeAndClaim = queue.completeAndClaim?.bind(queue);
      if (completeAndClaim === undefined) return context.skip();
      const queues = ['high', 'low'];
      const low = await queue.enqueue(job({ queue: 'low', payload: '"low"' }), time.now());
      const first = await claim(queues);
      expect(first?.id).toBe(low.id);
      const high1 = await queue.enqueue(job({ queue: 'high', payload: '"high1"' }), time.now());
      const high2 = await queue.enqueue(job({ queue: 'high', payload: '"high2"' }), time.now());
      const low2 = await queue.enqueue(job({ queue: 'low', payload: '"low2"' }), time.now());
      const handedOut = [];
      let current = first!;
      for (;;) {
        const { completed, next } = await completeAndClaim(current, queues, time.now());
        expect(completed).toBe(true);
        if (next === null) break;
        expect(next).toMatchObject({ attempts: 1, tries: 3, timeoutMs: TIMEOUT });
        handedOut.push(next.id);
        current = next;
      }
      expect(handedOut).toEqual([high1.id, high2.id, low2.id]);
      expect(await queue.counts(time.now())).toEqual([]);
    });

    it('hands out the next job even when the completed one was taken over after its lease', async (context) => {
      const completeAndClaim = queue.completeAndClaim?.bind(queue);
      if (completeAndClaim === undefined) return context.skip();
      await queue.enqueue(job(), time.now());
      const late = await claim();
      await time.pass(TIMEOUT + grace + 100);
      const takenOver = await claim();
      expect(takenOver?.id).toBe(late!.id);
      const other = await queue.enqueue(job({ payload: '"other"' }), time.now());
      const { completed, next } = await completeAndClaim(late!, ['default'], time.now());
      expect(completed).toBe(false);
      expect(next?.id).toBe(other.id);
      expect(await queue.complete(takenOver!)).toBe(true);
      expect(await queue.complete(next!)).toBe(true);
      expect(await queue.counts(time.now())).toEqual([]);
    });

    it('wakes a watcher when a job is queued', async (context) => {
      if (queue.watch === undefined) return context.skip();
      let woken: () => void = () => undefined;
      const wake = new Promise<'woken'>((resolve) => (woken = () => resolve('woken')));
      const watch = await queue.watch(() => woken(), ['default']);
      try {
        await queue.enqueue(job(), time.now());
        const deadline = new Promise<'not woken'>((resolve) => setTimeout(() => resolve('not woken'), 10_000).unref());
        expect(await Promise.race([wake, deadline])).toBe('woken');
      } finally {
        await watch.close();
      }
    });

    it('never hands one job to two claimers racing on two connections', async (context) => {
      if (sibling === undefined) return context.skip();
      for (let n = 0; n < 60; n++) await queue.enqueue(job({ payload: String(n) }), time.now());
      const taken: string[] = [];
      const drain = async (q: JobQueue) => {
        for (;;) {
          const claimed = await q.claim(['default'], time.now());
          if (claimed === null) return;
          taken.push(claimed.id);
        }
      };
      await Promise.all([drain(queue), drain(sibling), drain(queue), drain(sibling)]);
      expect(taken).toHaveLength(60);
      expect(new Set(taken).size).toBe(60);
    });
  });
}
