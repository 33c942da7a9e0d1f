import type { BatchCounts } from '../domain/queue/batch.js';
import type { NewJob, TransactionStatements } from './job-queue.js';

/** The jobs a batch dispatches when it succeeds, first fails, and ends. */
export interface BatchCallbacks {
  readonly then: NewJob | null;
  readonly catch: NewJob | null;
  readonly finally: NewJob | null;
}

export interface StoredBatch extends BatchCounts {
  readonly id: string;
  readonly name: string;
  readonly createdAt: Date;
  readonly finishedAt: Date | null;
}

/** A batch's counts just before and just after one of its jobs ended, and its callbacks. */
export interface BatchStep {
  readonly before: BatchCounts;
  readonly after: BatchCounts;
  readonly callbacks: BatchCallbacks;
}

/**
 * Batches' counts, kept in the app's database whatever the queue driver: a job that ends adds
 * to them in one atomic statement, so the worker that ends the last job (and only that one)
 * sees the batch finish.
 */
export interface JobBatches {
  create(batch: { id: string; name: string; total: number; callbacks: BatchCallbacks }, now: Date): Promise<void>;
  /** `create` inside the caller's transaction (the dispatcher writes a batch and its jobs together); absent when batches live elsewhere. */
  createWithin?(statements: TransactionStatements, batch: { id: string; name: string; total: number; callbacks: BatchCallbacks }, now: Date): Promise<void>;
  /** Counts one ended job; null when the batch is gone (pruned). */
  record(id: string, outcome: 'succeeded' | 'failed', now: Date): Promise<BatchStep | null>;
  find(id: string): Promise<StoredBatch | null>;
  /** Deletes batches that finished at or before `before`. */
  prune(before: Date): Promise<number>;
}
