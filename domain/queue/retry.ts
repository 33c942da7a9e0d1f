import { backoffDelay } from './backoff.js';
import type { Backoff } from './backoff.js';

/** What happens to a job whose attempt threw. */
export type AfterFailure = { readonly kind: 'retry'; readonly at: Date; readonly delayMs: number } | { readonly kind: 'fail'; readonly reason: 'tries-exhausted' | 'not-retryable' };

export interface FailedAttempt {
  /** Attempts made so far, this one included (1 after the first). */
  readonly attempts: number;
  /** Attempts allowed in all (≥ 1). */
  readonly tries: number;
  readonly backoff: Backoff;
  /** False when the handler said the error is permanent (a payload that can never work). */
  readonly retryable: boolean;
  readonly now: Date;
  /** A number in [0, 1) for the backoff's jitter. */
  readonly random: number;
}

/** Retry after the backoff while tries remain; otherwise the job is failed and kept. */
export function decideAfterFailure(attempt: FailedAttempt): AfterFailure {
  if (!attempt.retryable) return { kind: 'fail', reason: 'not-retryable' };
  if (attempt.attempts >= attempt.tries) return { kind: 'fail', reason: 'tries-exhausted' };
  const delayMs = backoffDelay(attempt.backoff, attempt.attempts, attempt.random);
  return { kind: 'retry', at: new Date(attempt.now.getTime() + delayMs), delayMs };
}
