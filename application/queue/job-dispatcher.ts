import type { Clock } from '../../ports/clock.js';
import type { EnqueueResult, JobQueue, NewJob, TransactionStatements } from '../../ports/job-queue.js';
import type { Transactions } from '../../ports/transactions.js';
import type { JobToDispatch } from './job-to-dispatch.js';

/**
 * Queued (or found queued by its idempotency key), held until the transaction commits, or run
 * already (QUEUE_CONNECTION=sync).
 */
export type DispatchResult = EnqueueResult | { readonly kind: 'after-commit' } | { readonly kind: 'ran' };

/** `dispatch(job)`: sent when awaited; `.delay(…)` and `.onQueue(…)` change it first. */
export class PendingDispatch implements PromiseLike<DispatchResult> {
  private delayMs = 0;
  private queue: string;

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
    if (!Number.isFinite(ms)) throw new TypeError(`A job's delay must be a finite number of milliseconds, got ${ms}`);
    this.delayMs = Math.max(0, Math.round(ms));
    return this;
  }

  onQueue(queue: string): this {
    this.queue = queue;
    return this;
  }

  then<A = DispatchResult, B = never>(onFulfilled?: ((value: DispatchResult) => A | PromiseLike<A>) | null, onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<A | B> {
    const now = this.clock.now();
    const { name, tries, backoff, timeoutMs } = this.job.options;
    const job: NewJob = {
      name,
      queue: this.queue,
      payload: this.job.payload,
      tries,
      backoff,
      timeoutMs,
      availableAt: new Date(now.getTime() + this.delayMs),
      idempotencyKey: this.job.idempotencyKey,
    };
    return this.send(job).then(onFulfilled, onRejected);
  }
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
  ) {}

  dispatch(job: JobToDispatch): PendingDispatch {
    return new PendingDispatch(job, (ready) => this.send(ready), this.clock);
  }

  /**
   * Runs `work` in a database transaction; the jobs it dispatches are queued only if the
   * transaction commits. A driver that keeps jobs in the app's database writes them in the
   * transaction itself (the outbox); any other gets them after the commit.
   */
  async transaction<T>(work: (tx: DispatchTransaction) => Promise<T>): Promise<T> {
    if (this.transactions === null) throw new Error('This app has no database to open a transaction on');
    const after: NewJob[] = [];
    const within = this.runInline === null ? this.queue.enqueueWithin?.bind(this.queue) : undefined;
    const result = await this.transactions.run((statements) =>
      work({
        query: (sql, params) => statements.query(sql, params),
        dispatch: (job) =>
          new PendingDispatch(
            job,
            (ready) => {
              if (within !== undefined) return within(statements, ready, this.clock.now());
              after.push(ready);
              return Promise.resolve({ kind: 'after-commit' });
            },
            this.clock,
          ),
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
