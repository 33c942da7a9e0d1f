import type { JobOptions } from '../../domain/queue/job-options.js';

/** A job with its payload checked and serialized, ready for a queue: `SendWelcome.with({ userId })`. */
export interface JobToDispatch {
  readonly options: JobOptions;
  /** JSON text of the validated payload. */
  readonly payload: string;
  readonly idempotencyKey: string | null;
}
