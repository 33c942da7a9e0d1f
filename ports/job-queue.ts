import type { Backoff } from '../domain/queue/backoff.js';
import type { JobState } from '../domain/queue/job-state.js';

/** A job as it is handed to a queue: its options and its payload as JSON text. */
export interface NewJob {
  readonly name: string;
  readonly queue: string;
  readonly payload: string;
  readonly tries: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
  /** Not before this time (`dispatch(job).delay(…)`). */
  readonly availableAt: Date;
  /** While a job with this key is waiting, running or failed, another with the same key is not added. */
  readonly idempotencyKey: string | null;
  /** The batch the job belongs to (`jobs.batch(…)`), or null. */
  readonly batchId: string | null;
}

export type EnqueueResult = { readonly kind: 'queued'; readonly id: string } | { readonly kind: 'duplicate'; readonly id: string };

/** A job a worker holds: its lease ends at `leasedUntil` unless it finishes first. */
export interface ClaimedJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: string;
  /** Attempts made, this one included. */
  readonly attempts: number;
  readonly tries: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
  readonly availableAt: Date;
  readonly leasedUntil: Date;
  /** Proves the holder: a worker whose lease expired and was taken over cannot finish the job. */
  readonly lease: string;
  readonly batchId: string | null;
}

export interface FailedJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  readonly payload: string;
  readonly attempts: number;
  /** The error's class and message, then its stack (`Error: boom\n    at …`). */
  readonly error: string;
  readonly failedAt: Date;
}

export interface QueueCount {
  readonly queue: string;
  readonly state: JobState;
  readonly count: number;
}

/**
 * A statement inside a database transaction the app opened (`jobs.transaction(…)`): a driver
 * that stores jobs in that database writes them on it, so they exist only if it commits.
 */
export interface TransactionStatements {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly (string | number | boolean | null | Date)[]): Promise<Row[]>;
  /** Runs `work` once the transaction has committed (never after a rollback); absent outside one. */
  afterCommit?(work: () => void): void;
}

/** What `completeAndClaim` did: whether the job was completed (false: stale lease), and the next job or null when none was available. */
export interface CompletedAndClaimed {
  readonly completed: boolean;
  readonly next: ClaimedJob | null;
}

/** A queue's wake-up calls for idle workers, until closed. */
export interface JobWatch {
  close(): Promise<void>;
  /**
   * Whether any of the worker's loops waits for a wake-up (told on each change; until then, as
   * if one did). A watch that asks for each hint (Redis: a blocking pop per marker) asks only
   * while one does: with every loop busy, hints would wake no one. A hint left meanwhile is
   * heard as soon as it asks again.
   */
  waiting?(anyone: boolean): void;
}

/**
 * Where jobs wait for a worker (`QUEUE_CONNECTION`). Times come from the caller's Clock. A
 * job a worker claimed is leased to it: `complete`, `retryLater` and `fail` with a stale lease
 * change nothing and answer false (another worker took the job over after the lease ended).
 */
export interface JobQueue {
  /** The driver's name: `database`, `redis`, `memory`. */
  readonly driver: string;
  enqueue(job: NewJob, now: Date): Promise<EnqueueResult>;
  /**
   * `enqueue` of each job, answered in the same order, in one round trip where the driver can
   * (Redis: one MULTI of BullMQ's add script for the jobs without an idempotency key). Not all
   * or none across queues: when it rejects, the jobs of another queue, or of the same call
   * before the failure, may be queued already, so a caller retrying the call should give its
   * jobs idempotency keys. Absent: the dispatcher enqueues them one by one.
   */
  enqueueMany?(jobs: readonly NewJob[], now: Date): Promise<EnqueueResult[]>;
  /**
   * Writes the job inside the caller's transaction when the driver keeps jobs in the app's
   * database; absent otherwise (the dispatcher then sends it after the commit).
   */
  enqueueWithin?(statements: TransactionStatements, job: NewJob, now: Date): Promise<EnqueueResult>;
  /**
   * Calls `listener` when a job may have become available (dispatched in this process, or
   * announced by the database to every process), so an idle worker claims at once instead of
   * at its next poll. A hint only: the worker still claims, and still polls now and then in
   * case a hint was lost. Absent: workers poll. A hint stands for one job (one idle loop
   * wakes) unless `many` says it may stand for several (all wake). `queues`: those the worker
   * takes jobs from (a driver that watches per queue needs them).
   */
  watch?(listener: (many?: boolean) => void, queues?: readonly string[]): Promise<JobWatch>;
  /** The next available job of the first queue (in the order given) that has one, leased until its timeout. */
  claim(queues: readonly string[], now: Date): Promise<ClaimedJob | null>;
  complete(job: ClaimedJob): Promise<boolean>;
  /**
   * `complete(job)` then `claim(queues, now)`, in one round trip where the driver can (Redis:
   * BullMQ hands out the next job of the same queue as it completes one). Absent: the worker
   * makes the two calls.
   */
  completeAndClaim?(job: ClaimedJob, queues: readonly string[], now: Date): Promise<CompletedAndClaimed>;
  /** Back to waiting until `at`, keeping its attempts. */
  retryLater(job: ClaimedJob, at: Date): Promise<boolean>;
  /** Kept as failed with `error` (already free of secrets). */
  fail(job: ClaimedJob, error: string, now: Date): Promise<boolean>;
  failed(): Promise<FailedJob[]>;
  /** Failed jobs back to waiting with their attempts reset; answers how many. */
  retryFailed(which: 'all' | { readonly id: string }, now: Date): Promise<number>;
  forgetFailed(id: string): Promise<boolean>;
  flushFailed(): Promise<number>;
  /** Deletes failed jobs that failed at or before `before`. */
  pruneFailed(before: Date): Promise<number>;
  /** Jobs per queue and state (states with no job are left out). */
  counts(now: Date): Promise<QueueCount[]>;
  close(): Promise<void>;
}
