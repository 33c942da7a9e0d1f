import { randomBytes } from 'node:crypto';
import { jobState } from '../../domain/queue/job-state.js';
import { leaseUntil } from '../../domain/queue/lease.js';
import type { ClaimedJob, EnqueueResult, FailedJob, JobQueue, NewJob, QueueCount } from '../../ports/job-queue.js';

interface StoredJob {
  id: string;
  job: NewJob;
  attempts: number;
  availableAt: Date;
  leasedUntil: Date | null;
  lease: string | null;
  failedAt: Date | null;
  error: string | null;
}

/**
 * Jobs in this process's memory: what QUEUE_CONNECTION=sync runs inline, and the reference the
 * contract suite holds the other drivers to. Lost when the process ends.
 */
export class MemoryJobQueue implements JobQueue {
  readonly driver: string = 'memory';
  private readonly jobs = new Map<string, StoredJob>();
  private nextId = 1;

  enqueue(job: NewJob, _now: Date): Promise<EnqueueResult> {
    if (job.idempotencyKey !== null) {
      for (const stored of this.jobs.values()) {
        if (stored.job.idempotencyKey === job.idempotencyKey) return Promise.resolve({ kind: 'duplicate', id: stored.id });
      }
    }
    const id = String(this.nextId++);
    this.jobs.set(id, { id, job, attempts: 0, availableAt: job.availableAt, leasedUntil: null, lease: null, failedAt: null, error: null });
    return Promise.resolve({ kind: 'queued', id });
  }

  claim(queues: readonly string[], now: Date): Promise<ClaimedJob | null> {
    for (const queue of queues) {
      const next = [...this.jobs.values()]
        .filter((stored) => stored.job.queue === queue && jobState(stored, now) === 'waiting')
        .sort((a, b) => a.availableAt.getTime() - b.availableAt.getTime() || Number(a.id) - Number(b.id))[0];
      if (next === undefined) continue;
      next.attempts += 1;
      next.lease = randomBytes(12).toString('base64url');
      next.leasedUntil = leaseUntil(now, next.job.timeoutMs);
      const { name, payload, tries, backoff, timeoutMs } = next.job;
      return Promise.resolve({
        id: next.id,
        name,
        queue,
        payload,
        tries,
        backoff,
        timeoutMs,
        attempts: next.attempts,
        availableAt: next.availableAt,
        leasedUntil: next.leasedUntil,
        lease: next.lease,
        batchId: next.job.batchId,
      });
    }
    return Promise.resolve(null);
  }

  complete(job: ClaimedJob): Promise<boolean> {
    const held = this.held(job);
    if (held !== null) this.jobs.delete(held.id);
    return Promise.resolve(held !== null);
  }

  retryLater(job: ClaimedJob, at: Date): Promise<boolean> {
    const held = this.held(job);
    if (held !== null) Object.assign(held, { availableAt: at, lease: null, leasedUntil: null });
    return Promise.resolve(held !== null);
  }

  fail(job: ClaimedJob, error: string, now: Date): Promise<boolean> {
    const held = this.held(job);
    if (held !== null) Object.assign(held, { failedAt: now, error, lease: null, leasedUntil: null });
    return Promise.resolve(held !== null);
  }

  failed(): Promise<FailedJob[]> {
    const failed = [...this.jobs.values()].filter((stored) => stored.failedAt !== null);
    failed.sort((a, b) => (b.failedAt?.getTime() ?? 0) - (a.failedAt?.getTime() ?? 0) || Number(b.id) - Number(a.id));
    return Promise.resolve(
      failed.map((stored) => ({
        id: stored.id,
        name: stored.job.name,
        queue: stored.job.queue,
        payload: stored.job.payload,
        attempts: stored.attempts,
        error: stored.error ?? '',
        failedAt: stored.failedAt ?? new Date(0),
      })),
    );
  }

  retryFailed(which: 'all' | { readonly id: string }, now: Date): Promise<number> {
    let count = 0;
    for (const stored of this.jobs.values()) {
      if (stored.failedAt === null || (which !== 'all' && stored.id !== which.id)) continue;
      Object.assign(stored, { failedAt: null, error: null, attempts: 0, availableAt: now });
      count++;
    }
    return Promise.resolve(count);
  }

  forgetFailed(id: string): Promise<boolean> {
    const stored = this.jobs.get(id);
    const failed = stored !== undefined && stored.failedAt !== null;
    if (failed) this.jobs.delete(id);
    return Promise.resolve(failed);
  }

  flushFailed(): Promise<number> {
    return this.pruneFailed(new Date(8.64e15));
  }

  pruneFailed(before: Date): Promise<number> {
    let count = 0;
    for (const stored of [...this.jobs.values()]) {
      if (stored.failedAt !== null && stored.failedAt.getTime() <= before.getTime()) {
        this.jobs.delete(stored.id);
        count++;
      }
    }
    return Promise.resolve(count);
  }

  counts(now: Date): Promise<QueueCount[]> {
    const counts = new Map<string, QueueCount>();
    for (const stored of this.jobs.values()) {
      const state = jobState(stored, now);
      const key = `${stored.job.queue}\u0000${state}`;
      counts.set(key, { queue: stored.job.queue, state, count: (counts.get(key)?.count ?? 0) + 1 });
    }
    return Promise.resolve([...counts.values()].sort((a, b) => a.queue.localeCompare(b.queue)));
  }

  close(): Promise<void> {
    return Promise.resolve();
  }

  private held(job: ClaimedJob): StoredJob | null {
    const stored = this.jobs.get(job.id);
    return stored !== undefined && stored.lease === job.lease && stored.lease !== null ? stored : null;
  }
}
