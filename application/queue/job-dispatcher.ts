import type { Clock } from '../../ports/clock.js';
import type { EnqueueResult, JobQueue, NewJob, TransactionStatements } from '../../ports/job-queue.js';
import type { Transactions } from '../../ports/transactions.js';
import type { JobBatches } from '../../ports/job-batches.js';
import type { RandomSource } from '../../ports/random-source.js';
import { batchProgress } from '../../domain/queue/batch.js';
import type { BatchProgress } from '../../domain/queue/batch.js';
import type { JobToDispatch } from './job-to-dispatch.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';
import { base64url } from '../../domain/shared/bytes.js';

/**
 * Queued (or found queued by its idempotency key), held until the transaction commits, or run
 * already (QUEUE_CONNECTION=sync).
 */
export type DispatchResult = EnqueueResult | { readonly kind: 'after-commit' } | { readonly kind: 'ran' };

/** `dispatch(job)`: sent when awaited; `.delay(…)` and `.onQueue(…)` change it first. */
export class PendingDispatch implements PromiseLike<DispatchResult> {
  private delayMs = 0;
  private queue: string;
  private batchId: string | null = null;

  constructor(
    private readonly job: JobToDispatch,
    private readonly send: (job: NewJob) => Promise<DispatchResult>,
    private readonly clock: Clock,
  ) {
    this.queue = job.options.queue;
  }

  /** Not before `milliseconds` from now, or not before the given time. */
  delay(wait: number | Date): this {
    const ms = wait instanceof Date ? wait.getTime() - this.clock.now().getTime() : wait;
    if (!Number.isFinite(ms)) throw new MisuseError('queue.bad-delay', `A job's delay must be a finite number of milliseconds, got ${ms}`);
    this.delayMs = Math.max(0, Math.round(ms));
    return this;
  }

  onQueue(queue: string): this {
    this.queue = queue;
    return this;
  }

  /** Part of a batch (`JobDispatcher.batch` sets it). */
  inBatch(batchId: string): this {
    this.batchId = batchId;
    return this;
  }

  /** The job as the queue takes it, as of now. */
  toNewJob(): NewJob {
    const now = this.clock.now();
    const { name, tries, backoff, timeoutMs } = this.job.options;
    return {
      name,
      queue: this.queue,
      payload: this.job.payload,
      tries,
      backoff,
      timeoutMs,
      availableAt: new Date(now.getTime() + this.delayMs),
      idempotencyKey: this.job.idempotencyKey,
      batchId: this.batchId,
    };
  }

  then<A = DispatchResult, B = never>(onFulfilled?: ((value: DispatchResult) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    return this.send(this.toNewJob()).then(onFulfilled, onRejected);
  }
}

export interface BatchOptions {
  /** Shown with its progress; default `batch`. */
  name?: string;
  /** Dispatched once every job of the batch succeeded. */
  then?: JobToDispatch;
  /** Dispatched once, when the first job of the batch fails for good. */
  catch?: JobToDispatch;
  /** Dispatched once every job of the batch ended, however. */
  finally?: JobToDispatch;
}

export interface BatchStatus extends BatchProgress {
  readonly id: string;
  readonly name: string;
  readonly total: number;
  readonly succeeded: number;
  readonly failed: number;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

/** What a transaction's work gets: the transaction's own statements, and dispatch inside it. */
export interface DispatchTransaction extends TransactionStatements {
  dispatch(job: JobToDispatch): PendingDispatch;
}

/**
 * Sends jobs to the queue (`QUEUE_CONNECTION`). With `runInline` (QUEUE_CONNECTION=sync) a
 * dispatch runs the job at once instead, once, and rejects with the handler's error.
 */
export class JobDispatcher {
  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly transactions: Transactions | null,
    private readonly runInline: ((job: NewJob) => Promise<void>) | null = null,
    private readonly batches: { store: JobBatches; random: RandomSource } | null = null,
  ) {}

  /**
   * Dispatches `jobs` as one batch: its progress is `batch(id)`, and `then`, `catch` and
   * `finally` are jobs dispatched when it succeeds, first fails, and ends.
   */
  async batch(jobs: readonly JobToDispatch[], options: BatchOptions = {}): Promise<{ id: string }> {
    if (this.batches === null) throw new FrameworkError('queue.no-batches', 'This app keeps no batches');
    const { store } = this.batches;
    const id = base64url(this.batches.random.bytes(12));
    const callback = (job: JobToDispatch | undefined) => (job === undefined ? null : this.dispatch(job).toNewJob());
    const callbacks = { then: callback(options.then), catch: callback(options.catch), finally: callback(options.finally) };
    const batch = { id, name: options.name ?? 'batch', total: jobs.length, callbacks };
    const members = (send: (job: NewJob) => Promise<DispatchResult>) => async () => {
      if (jobs.length === 0) {
        for (const job of [callbacks.then, callbacks.finally]) if (job !== null) await send(job);
      }
      for (const job of jobs) await send(this.dispatch(job).inBatch(id).toNewJob());
    };
    if (this.transactions !== null && this.runInline === null && store.createWithin !== undefined) {
      // The batch row and its jobs in one transaction: a failure half-way leaves neither a batch
      // waiting for jobs that never come nor jobs of a batch that does not exist. (On a driver
      // outside the database the jobs are sent right after the commit.)
      const createWithin = store.createWithin.bind(store);
      await this.inTransaction(async (statements, send) => {
        await createWithin(statements, batch, this.clock.now());
        await members(send)();
      });
      return { id };
    }
    // QUEUE_CONNECTION=sync runs each job as it is sent: the batch must be recorded first.
    await store.create(batch, this.clock.now());
    await members((job) => this.send(job))();
    return { id };
  }

  /** A batch's counts and progress; null when there is none with this id (or it was pruned). */
  async batchStatus(id: string): Promise<BatchStatus | null> {
    const batch = await this.batches?.store.find(id);
    return batch === undefined || batch === null ? null : { ...batch, ...batchProgress(batch) };
  }

  /**
   * Dispatches several jobs at once, each on its own queue at once (no delay), answered in
   * order: in one round trip where the driver can (`JobQueue.enqueueMany`), else one by one.
   */
  async dispatchMany(jobs: readonly JobToDispatch[]): Promise<DispatchResult[]> {
    const ready = jobs.map((job) => this.dispatch(job).toNewJob());
    if (this.runInline === null && this.queue.enqueueMany !== undefined) return this.queue.enqueueMany(ready, this.clock.now());
    const results: DispatchResult[] = [];
    for (const job of ready) results.push(await this.send(job));
    return results;
  }

  dispatch(job: JobToDispatch): PendingDispatch {
    return new PendingDispatch(job, (ready) => this.send(ready), this.clock);
  }

  /**
   * Runs `work` in a database transaction; the jobs it dispatches are queued only if the
   * transaction commits. A driver that keeps jobs in the app's database writes them in the
   * transaction itself (the outbox); any other gets them after the commit.
   */
  async transaction<T>(work: (tx: DispatchTransaction) => Promise<T>): Promise<T> {
    return this.inTransaction((statements, send) =>
      work({
        query: (sql, params) => statements.query(sql, params),
        dispatch: (job) => new PendingDispatch(job, send, this.clock),
      }),
    );
  }

  /**
   * A transaction whose `send` writes jobs into it when the driver keeps them in the app's
   * database (the outbox), and otherwise holds them until the commit.
   */
  private async inTransaction<T>(work: (statements: TransactionStatements, send: (job: NewJob) => Promise<DispatchResult>) => Promise<T>): Promise<T> {
    if (this.transactions === null) throw new FrameworkError('queue.no-database', 'This app has no database to open a transaction on');
    const after: NewJob[] = [];
    const within = this.runInline === null ? this.queue.enqueueWithin?.bind(this.queue) : undefined;
    const result = await this.transactions.run((statements) =>
      work(statements, (ready) => {
        if (within !== undefined) return within(statements, ready, this.clock.now());
        after.push(ready);
        return Promise.resolve({ kind: 'after-commit' });
      }),
    );
    for (const job of after) await this.send(job);
    return result;
  }

  private async send(job: NewJob): Promise<DispatchResult> {
    if (this.runInline === null) return this.queue.enqueue(job, this.clock.now());
    await this.runInline(job);
    return { kind: 'ran' };
  }
}
