import { leaseExpired } from './lease.js';

/**
 * Where a job stands. Finished jobs are deleted, so they have no state; failed ones are kept
 * with their error until retried, forgotten, flushed or pruned.
 */
export type JobState = 'waiting' | 'delayed' | 'running' | 'failed';

export const JOB_STATES: readonly JobState[] = ['waiting', 'delayed', 'running', 'failed'];

export interface StoredJobTimes {
  readonly availableAt: Date;
  /** Set while a worker holds the job; a past value is an expired lease (the job waits again). */
  readonly leasedUntil: Date | null;
  readonly failedAt: Date | null;
}

export function jobState(job: StoredJobTimes, now: Date): JobState {
  if (job.failedAt !== null) return 'failed';
  if (job.leasedUntil !== null && !leaseExpired(job.leasedUntil, now)) return 'running';
  return job.availableAt.getTime() > now.getTime() ? 'delayed' : 'waiting';
}
