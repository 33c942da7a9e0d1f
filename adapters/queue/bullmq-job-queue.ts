import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { Job, Queue, Worker } from 'bullmq';
import type { JobJson } from 'bullmq';
import { Redis } from 'ioredis';
import type { Backoff } from '../../domain/queue/backoff.js';
import { LEASE_GRACE_MS } from '../../domain/queue/lease.js';
import { DEFAULT_TIMEOUT_MS } from '../../domain/queue/job-options.js';
import type { ClaimedJob, CompletedAndClaimed, EnqueueResult, FailedJob, JobQueue, JobWatch, NewJob, QueueCount } from '../../ports/job-queue.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';

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

/** How long one BZPOPMIN on the markers blocks (BullMQ caps its own at 10 s for reconnections). */
const MARKER_BLOCK_SECONDS = 5;
/** The wait before blocking again after the marker connection failed. */
const MARKER_RETRY_MS = 1000;

/** BullMQ refuses a move by a worker that no longer holds the job's lock. */
function lockRefused(error: unknown): boolean {
  return error instanceof Error && /lock/iu.test(error.message);
}

/**
 * BullMQ's id for the job of an idempotency key. BullMQ refuses a custom id with a colon unless
 * it has exactly two (its old repeatable jobs' form), so `key:once` or `key:a:b:c` failed to
 * dispatch: colons are escaped (and `%`, to keep two keys from meeting). A key with exactly one
 * colon (`welcome:7`, the only kind that worked before) keeps its earlier id `key:welcome:7`, so
 * a twin queued before an upgrade is still found; the two forms cannot meet (`key:` / `key-`).
 */
export function keyJobId(key: string): string {
  if (key.indexOf(':') !== -1 && key.indexOf(':') === key.lastIndexOf(':')) return `key:${key}`;
  return `key-${key.replaceAll('%', '%25').replaceAll(':', '%3A')}`;
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
  /** The workers' own connection: a worker's round trips never queue behind this process's dispatches. */
  private workerConnection: Redis | null = null;
  private readonly queues = new Map<string, Queue>();
  private readonly workers = new Map<string, Worker>();
  private readonly graceMs: number;
  /** The lease of a job with the default timeout: the lock BullMQ takes when it hands a job out. */
  private readonly defaultLeaseMs: number;
  /** Queue names this process has recorded in Redis (one SADD per name, not per job). */
  private readonly known = new Set<string>();
  /**
   * Leases are this queue's random name and a count (as BullMQ's Worker makes its tokens):
   * unique across processes, with no random bytes drawn per claim.
   */
  private readonly leaseName = randomBytes(12).toString('base64url');
  private leases = 0;
  /** The jobs this process holds, by lease: finishing one needs no fetch. */
  private readonly held = new Map<string, Job<JobData>>();

  constructor(private readonly options: BullMqJobQueueOptions) {
    // BullMQ wants commands to wait for a reconnect rather than fail after a few tries. No
    // auto-pipelining: measured, it costs more CPU per dispatch than it saves in writes, alone
    // (25–60 → 75–119 µs) and with 16 in flight (16–17 → 20–22 µs); ioredis already sends
    // concurrent commands without waiting for the replies (docs/performance.md).
    this.connection = new Redis(options.url, { maxRetriesPerRequest: null });
    if (options.onError !== undefined) this.connection.on('error', options.onError);
    this.graceMs = options.graceMs ?? LEASE_GRACE_MS;
    this.defaultLeaseMs = DEFAULT_TIMEOUT_MS + this.graceMs;
  }

  async enqueue(job: NewJob, now: Date): Promise<EnqueueResult> {
    const queue = this.queue(job.queue);
    if (!this.known.has(job.queue)) await this.remember(job.queue);
    const jobId = job.idempotencyKey === null ? undefined : keyJobId(job.idempotencyKey);
    if (jobId !== undefined && (await queue.getJob(jobId)) !== undefined) return { kind: 'duplicate', id: this.id(job.queue, jobId) };
    const added = await queue.add(job.name, this.data(job), this.addOptions(job, now, jobId));
    return { kind: 'queued', id: this.id(job.queue, String(added.id)) };
  }

  /**
   * The jobs of each queue in one MULTI of BullMQ's add script (its `addBulk`: one round trip,
   * all or none within the queue; the queues are sent side by side, so not across them). A job with an idempotency key goes through `enqueue`, which looks for its
   * twin first.
   */
  async enqueueMany(jobs: readonly NewJob[], now: Date): Promise<EnqueueResult[]> {
    const results: EnqueueResult[] = new Array<EnqueueResult>(jobs.length);
    const byQueue = new Map<string, number[]>();
    for (const [at, job] of jobs.entries()) {
      if (job.idempotencyKey !== null) continue;
      const positions = byQueue.get(job.queue) ?? [];
      positions.push(at);
      byQueue.set(job.queue, positions);
    }
    await Promise.all(
      [...byQueue].map(async ([name, positions]) => {
        if (!this.known.has(name)) await this.remember(name);
        const added = await this.queue(name).addBulk(
          positions.map((at) => {
            const job = jobs[at]!;
            return { name: job.name, data: this.data(job), opts: this.addOptions(job, now, undefined) };
          }),
        );
        for (const [n, at] of positions.entries()) results[at] = { kind: 'queued', id: this.id(name, String(added[n]!.id)) };
      }),
    );
    for (const [at, job] of jobs.entries()) if (job.idempotencyKey !== null) results[at] = await this.enqueue(job, now);
    return results;
  }

  private data(job: NewJob): JobData {
    return { payload: job.payload, tries: job.tries, backoff: job.backoff, timeoutMs: job.timeoutMs, batchId: job.batchId };
  }

  private addOptions(job: NewJob, now: Date, jobId: string | undefined) {
    const delay = job.availableAt.getTime() - now.getTime();
    return { ...(jobId === undefined ? {} : { jobId }), ...(delay > 0 ? { delay } : {}), attempts: 1, removeOnComplete: true, removeOnFail: false };
  }

  /** Records a queue's name in Redis (the commands list its failed jobs), once per process. */
  private async remember(name: string): Promise<void> {
    await this.connection.sadd(this.namesKey(), name);
    this.known.add(name);
  }

  async claim(queues: readonly string[], _now: Date): Promise<ClaimedJob | null> {
    for (const name of queues) {
      const lease = `${this.leaseName}:${++this.leases}`;
      const job = (await this.worker(name).getNextJob(lease, { block: false })) as Job<JobData> | undefined;
      if (job !== undefined) return this.hold(name, job, lease);
    }
    return null;
  }

  complete(claimed: ClaimedJob): Promise<boolean> {
    return this.withLock(claimed, (job) => job.moveToCompleted(null, claimed.lease, false));
  }

  /**
   * One round trip where the worker's loop spends most of its time: BullMQ's `moveToCompleted`
   * with fetch-next (as its own Worker does) completes the job and hands out the next one of the
   * same queue, under the same lease token. Only for a job of the first queue asked: the next job
   * of a later queue may not be taken while an earlier queue has one.
   */
  async completeAndClaim(claimed: ClaimedJob, queues: readonly string[], now: Date): Promise<CompletedAndClaimed> {
    const job = this.held.get(claimed.lease);
    if (claimed.queue !== queues[0] || job === undefined) {
      const completed = await this.complete(claimed);
      return { completed, next: await this.claim(queues, now) };
    }
    this.held.delete(claimed.lease);
    let fetched: unknown;
    try {
      fetched = await job.moveToCompleted(null, claimed.lease, true);
    } catch (error) {
      if (!lockRefused(error)) throw error;
      return { completed: false, next: await this.claim(queues, now) };
    }
    // [job data, job id, rate-limit delay, next delayed timestamp] when a job was handed out.
    const [data, jobId] = Array.isArray(fetched) ? (fetched as [JobJson | undefined, string | undefined]) : [];
    if (data !== undefined && jobId !== undefined && data !== null && typeof data === 'object') {
      const next = Job.fromJSON<JobData>(this.worker(claimed.queue), data, jobId);
      next.token = claimed.lease;
      return { completed: true, next: await this.hold(claimed.queue, next, claimed.lease) };
    }
    return { completed: true, next: queues.length > 1 ? await this.claim(queues.slice(1), now) : null };
  }

  retryLater(claimed: ClaimedJob, at: Date): Promise<boolean> {
    return this.withLock(claimed, (job) => job.moveToDelayed(at.getTime(), claimed.lease));
  }

  fail(claimed: ClaimedJob, error: string, _now: Date): Promise<boolean> {
    const failure = new FrameworkError('queue.job-failed', error);
    failure.stack = '';
    return this.withLock(claimed, (job) => job.moveToFailed(failure, claimed.lease, false));
  }

  /**
   * Blocks on BullMQ's marker keys of the worker's queues (BZPOPMIN on a connection of its own,
   * as BullMQ's Worker waits): a job added to one wakes idle workers at once, and a delayed
   * one's marker (scored with its time) wakes them when it comes due. No polling while idle.
   * BullMQ adds the marker again when it hands out a job and others wait, so workers in
   * other processes wake in turn. While none of the worker's loops waits (`waiting(false)`)
   * it does not block: under a backlog every hand-out sets the marker again, and popping it
   * would cost a round trip per job that wakes no one. The marker stays in Redis meanwhile,
   * so the first pop after a loop went idle hears it.
   */
  watch(listener: () => void, queues: readonly string[] = []): Promise<JobWatch> {
    if (queues.length === 0) return Promise.reject(new MisuseError('queue.no-queues', 'The Redis queue watches named queues only'));
    const markers = queues.map((name) => this.queue(name).toKey('marker'));
    let closed = false;
    const open = () => {
      const opened = this.connection.duplicate();
      opened.on('error', () => undefined);
      return opened;
    };
    let connection = open();
    let dueTimer: NodeJS.Timeout | undefined;
    let dueAt = Number.POSITIVE_INFINITY;
    /** Set while none of the worker's loops waits; resolved when one does again (or the watch closes). */
    let allBusy: { promise: Promise<void>; resolve: () => void } | null = null;
    const wakeAt = (at: number) => {
      if (at <= Date.now()) return listener();
      if (at >= dueAt) return;
      clearTimeout(dueTimer);
      dueAt = at;
      dueTimer = setTimeout(() => ((dueAt = Number.POSITIVE_INFINITY), listener()), at - Date.now());
    };
    const loop = async () => {
      while (!closed) {
        if (allBusy !== null) {
          await allBusy.promise;
          continue;
        }
        const current = connection;
        let watchdog: NodeJS.Timeout | undefined;
        try {
          // A blocking command can hang on a connection that was cut and came back: past its
          // timeout plus a margin the connection is replaced (as BullMQ's own watchdog does).
          const hung = new Promise<null>((resolve) => {
            watchdog = setTimeout(() => {
              connection = open();
              current.disconnect();
              resolve(null);
            }, (MARKER_BLOCK_SECONDS + 5) * 1000);
          });
          const popped = await Promise.race([current.bzpopmin(...markers, MARKER_BLOCK_SECONDS), hung]);
          // [key, member, score]: score 0 for a job waiting now, a time for a delayed one.
          if (popped !== null) wakeAt(Number(popped[2]));
        } catch {
          if (!closed) await sleep(MARKER_RETRY_MS);
        } finally {
          clearTimeout(watchdog);
        }
      }
    };
    const looping = loop();
    return Promise.resolve({
      waiting: (anyone: boolean) => {
        if (anyone) {
          const ended = allBusy;
          allBusy = null;
          ended?.resolve();
        } else if (allBusy === null) {
          let resolve: () => void = () => undefined;
          const promise = new Promise<void>((done) => (resolve = done));
          allBusy = { promise, resolve };
        }
      },
      close: async () => {
        closed = true;
        clearTimeout(dueTimer);
        allBusy?.resolve();
        connection.disconnect();
        await looping;
      },
    });
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
    this.workerConnection?.disconnect();
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
      if (this.workerConnection === null) {
        this.workerConnection = this.connection.duplicate();
        if (this.options.onError !== undefined) this.workerConnection.on('error', this.options.onError);
      }
      worker = new Worker(name, null, {
        connection: this.workerConnection,
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

  /** Records a job BullMQ handed out (locked for the default lease) as held under `lease`. */
  private async hold(name: string, job: Job<JobData>, lease: string): Promise<ClaimedJob> {
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

  private async withLock(claimed: ClaimedJob, move: (job: Job<JobData>) => Promise<unknown>): Promise<boolean> {
    const job = this.held.get(claimed.lease) ?? ((await this.queue(claimed.queue).getJob(this.jobId(claimed.id))) as Job<JobData> | undefined);
    this.held.delete(claimed.lease);
    if (job === undefined) return false;
    try {
      await move(job);
      return true;
    } catch (error) {
      if (lockRefused(error)) return false;
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
