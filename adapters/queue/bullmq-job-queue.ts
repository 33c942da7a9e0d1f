import { randomBytes } from 'node:crypto';
import { Queue, Worker } from 'bullmq';
import type { Job } from 'bullmq';
import { Redis } from 'ioredis';
import type { Backoff } from '../../domain/queue/backoff.js';
import { LEASE_GRACE_MS } from '../../domain/queue/lease.js';
import { DEFAULT_TIMEOUT_MS } from '../../domain/queue/job-options.js';
import type { ClaimedJob, EnqueueResult, FailedJob, JobQueue, NewJob, QueueCount } from '../../ports/job-queue.js';

interface JobData {
  payload: string;
  tries: number;
  backoff: Backoff;
  timeoutMs: number;
  batchId?: string | null;
}

export interface BullMqJobQueueOptions {
  url: string;
  /** Every key starts with it (QUEUE_PREFIX): apps, or test files, sharing a Redis never meet. */
  prefix: string;
  /** Added to a job's timeout for its lease (default the domain's 5 s). */
  graceMs?: number;
  /** How often this process looks for jobs whose worker died (default 5 s); they come back within two looks. */
  stalledIntervalMs?: number;
  onError?: (error: Error) => void;
}

/** Separates the queue from BullMQ's own id in the ids the commands show (`mail#17`); queue names cannot hold it. */
const ID_SEPARATOR = '#';

/**
 * QUEUE_CONNECTION=redis, on BullMQ (the distributed engine for apps that outgrow one
 * database). BullMQ keeps the jobs, the leases (its job locks, extended to the job's own
 * timeout) and the return of a dead worker's jobs (its stalled-job check); the framework's
 * worker keeps the decisions (retry with its backoff, or fail), as on every driver. Workers
 * run in BullMQ's manual mode: `getNextJob` per queue in the order asked.
 */
export class BullMqJobQueue implements JobQueue {
  readonly driver = 'redis';
  private readonly connection: Redis;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  private readonly graceMs: number;
  /** The lease of a job with the default timeout: the lock BullMQ takes when it hands a job out. */
  private readonly defaultLeaseMs: number;
  /** Queue names this process has recorded in Redis (one SADD per name, not per job). */
  private readonly known = new Set<string>();
  /** The jobs this process holds, by lease: finishing one needs no fetch. */
  private readonly held = new Map<string, Job<JobData>>();

  constructor(private readonly options: BullMqJobQueueOptions) {
    // BullMQ wants commands to wait for a reconnect rather than fail after a few tries.
    this.connection = new Redis(options.url, { maxRetriesPerRequest: null });
    if (options.onError !== undefined) this.connection.on('error', options.onError);
    this.graceMs = options.graceMs ?? LEASE_GRACE_MS;
    this.defaultLeaseMs = DEFAULT_TIMEOUT_MS + this.graceMs;
  }

  async enqueue(job: NewJob, now: Date): Promise<EnqueueResult> {
    const queue = this.queue(job.queue);
    if (!this.known.has(job.queue)) {
      await this.connection.sadd(this.namesKey(), job.queue);
      this.known.add(job.queue);
    }
    const data: JobData = { payload: job.payload, tries: job.tries, backoff: job.backoff, timeoutMs: job.timeoutMs, batchId: job.batchId };
    const jobId = job.idempotencyKey === null ? undefined : `key:${job.idempotencyKey}`;
    if (jobId !== undefined && (await queue.getJob(jobId)) !== undefined) return { kind: 'duplicate', id: this.id(job.queue, jobId) };
    const added = await queue.add(job.name, data, {
      ...(jobId === undefined ? {} : { jobId }),
      delay: Math.max(0, job.availableAt.getTime() - now.getTime()),
      attempts: 1,
      removeOnComplete: true,
      removeOnFail: false,
    });
    return { kind: 'queued', id: this.id(job.queue, String(added.id)) };
  }

  async claim(queues: readonly string[], _now: Date): Promise<ClaimedJob | null> {
    for (const name of queues) {
      const lease = randomBytes(12).toString('base64url');
      const job = (await this.worker(name).getNextJob(lease, { block: false })) as Job<JobData> | undefined;
      if (job === undefined) continue;
      const leaseMs = job.data.timeoutMs + this.graceMs;
      // BullMQ took the lock for the worker's lockDuration, set to the lease of a job with the
      // default timeout: only a job with a timeout of its own costs a second round trip.
      if (leaseMs !== this.defaultLeaseMs) await job.extendLock(lease, leaseMs);
      this.held.set(lease, job);
      return {
        id: this.id(name, String(job.id)),
        name: job.name,
        queue: name,
        payload: job.data.payload,
        attempts: job.attemptsStarted,
        tries: job.data.tries,
        backoff: job.data.backoff,
        timeoutMs: job.data.timeoutMs,
        availableAt: new Date(job.timestamp + (job.opts.delay ?? 0)),
        leasedUntil: new Date(Date.now() + leaseMs),
        lease,
        batchId: job.data.batchId ?? null,
      };
    }
    return null;
  }

  complete(claimed: ClaimedJob): Promise<boolean> {
    return this.withLock(claimed, (job) => job.moveToCompleted(null, claimed.lease, false));
  }

  retryLater(claimed: ClaimedJob, at: Date): Promise<boolean> {
    return this.withLock(claimed, (job) => job.moveToDelayed(at.getTime(), claimed.lease));
  }

  fail(claimed: ClaimedJob, error: string, _now: Date): Promise<boolean> {
    const failure = new Error(error);
    failure.stack = '';
    return this.withLock(claimed, (job) => job.moveToFailed(failure, claimed.lease, false));
  }

  async failed(): Promise<FailedJob[]> {
    const failed: FailedJob[] = [];
    for (const name of await this.names()) {
      for (const job of (await this.queue(name).getFailed()) as Job<JobData>[]) {
        failed.push({
          id: this.id(name, String(job.id)),
          name: job.name,
          queue: name,
          payload: job.data.payload,
          attempts: job.attemptsStarted,
          error: job.failedReason,
          failedAt: new Date(job.finishedOn ?? 0),
        });
      }
    }
    return failed.sort((a, b) => b.failedAt.getTime() - a.failedAt.getTime() || b.id.localeCompare(a.id, 'en', { numeric: true }));
  }

  async retryFailed(which: 'all' | { readonly id: string }, _now: Date): Promise<number> {
    const jobs = which === 'all' ? await this.allFailed() : await this.failedJob(which.id).then((job) => (job === null ? [] : [job]));
    for (const job of jobs) await job.retry('failed', { resetAttemptsMade: true, resetAttemptsStarted: true });
    return jobs.length;
  }

  async forgetFailed(id: string): Promise<boolean> {
    const job = await this.failedJob(id);
    if (job === null) return false;
    await job.remove();
    return true;
  }

  async flushFailed(): Promise<number> {
    let count = 0;
    for (const name of await this.names()) count += (await this.queue(name).clean(0, 0, 'failed')).length;
    return count;
  }

  async pruneFailed(before: Date): Promise<number> {
    let count = 0;
    for (const job of await this.allFailed()) {
      if ((job.finishedOn ?? 0) > before.getTime()) continue;
      await job.remove();
      count++;
    }
    return count;
  }

  async counts(_now: Date): Promise<QueueCount[]> {
    const counts: QueueCount[] = [];
    for (const name of (await this.names()).sort()) {
      const c = await this.queue(name).getJobCounts('wait', 'prioritized', 'delayed', 'active', 'failed');
      const states = [
        ['delayed', c['delayed'] ?? 0],
        ['failed', c['failed'] ?? 0],
        ['running', c['active'] ?? 0],
        ['waiting', (c['wait'] ?? 0) + (c['prioritized'] ?? 0)],
      ] as const;
      for (const [state, count] of states) if (count > 0) counts.push({ queue: name, state, count });
    }
    return counts;
  }

  async close(): Promise<void> {
    await Promise.all([...this.workers.values()].map((worker) => worker.close(true)));
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
    this.connection.disconnect();
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (queue === undefined) {
      queue = new Queue(name, { connection: this.connection, prefix: this.options.prefix });
      if (this.options.onError !== undefined) queue.on('error', this.options.onError);
      this.queues.set(name, queue);
    }
    return queue;
  }

  private worker(name: string): Worker {
    let worker = this.workers.get(name);
    if (worker === undefined) {
      worker = new Worker(name, null, {
        connection: this.connection,
        prefix: this.options.prefix,
        autorun: false,
        lockDuration: this.defaultLeaseMs,
        // A job stalls only when its worker died or hung; it goes back to wait however often.
        maxStalledCount: Number.MAX_SAFE_INTEGER,
        stalledInterval: this.options.stalledIntervalMs ?? 5000,
      });
      worker.on('error', this.options.onError ?? (() => undefined));
      void worker.startStalledCheckTimer();
      this.workers.set(name, worker);
    }
    return worker;
  }

  private async withLock(claimed: ClaimedJob, move: (job: Job<JobData>) => Promise<unknown>): Promise<boolean> {
    const job = this.held.get(claimed.lease) ?? ((await this.queue(claimed.queue).getJob(this.jobId(claimed.id))) as Job<JobData> | undefined);
    this.held.delete(claimed.lease);
    if (job === undefined) return false;
    try {
      await move(job);
      return true;
    } catch (error) {
      // BullMQ refuses a move by a worker that no longer holds the job's lock.
      if (error instanceof Error && /lock/iu.test(error.message)) return false;
      throw error;
    }
  }

  private async failedJob(id: string): Promise<Job<JobData> | null> {
    const at = id.lastIndexOf(ID_SEPARATOR);
    if (at <= 0) return null;
    const job = (await this.queue(id.slice(0, at)).getJob(id.slice(at + 1))) as Job<JobData> | undefined;
    return job !== undefined && (await job.isFailed()) ? job : null;
  }

  private async allFailed(): Promise<Job<JobData>[]> {
    const jobs: Job<JobData>[] = [];
    for (const name of await this.names()) jobs.push(...((await this.queue(name).getFailed()) as Job<JobData>[]));
    return jobs;
  }

  private names(): Promise<string[]> {
    return this.connection.smembers(this.namesKey());
  }

  private namesKey(): string {
    return `${this.options.prefix}:fw:queues`;
  }

  private id(queue: string, jobId: string): string {
    return `${queue}${ID_SEPARATOR}${jobId}`;
  }

  private jobId(id: string): string {
    return id.slice(id.lastIndexOf(ID_SEPARATOR) + 1);
  }
}
