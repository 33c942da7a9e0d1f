import { MisuseError } from '../shared/errors.js';
/** The counts of a batch of jobs dispatched together. */
export interface BatchCounts {
  readonly total: number;
  readonly succeeded: number;
  readonly failed: number;
}

export interface BatchProgress {
  /** Finished jobs (succeeded or failed) out of the total, 0–100, rounded down. */
  readonly percent: number;
  readonly pending: number;
  readonly finished: boolean;
}

export function batchProgress(counts: BatchCounts): BatchProgress {
  const { total, succeeded, failed } = counts;
  if (![total, succeeded, failed].every((n) => Number.isSafeInteger(n) && n >= 0) || succeeded + failed > total) {
    throw new MisuseError('queue.bad-batch-counts', `impossible batch counts: ${JSON.stringify(counts)}`);
  }
  const done = succeeded + failed;
  return { percent: total === 0 ? 100 : Math.floor((done * 100) / total), pending: total - done, finished: done === total };
}

/** Which of the batch's callbacks run once a job of it ends, given the counts after that job. */
export function batchCallbacks(before: BatchCounts, after: BatchCounts): ('then' | 'catch' | 'finally')[] {
  const callbacks: ('then' | 'catch' | 'finally')[] = [];
  // `catch` runs once, on the first failure; `then` only when every job succeeded.
  if (before.failed === 0 && after.failed > 0) callbacks.push('catch');
  if (!batchProgress(before).finished && batchProgress(after).finished) {
    if (after.failed === 0) callbacks.push('then');
    callbacks.push('finally');
  }
  return callbacks;
}
