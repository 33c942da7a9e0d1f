import type { JobWatch } from '../../ports/job-queue.js';

/**
 * The channel a dispatch announces itself on (`NOTIFY`), and idle workers listen to. Apart from
 * the listener so that the SQL queue can name it without loading `pg` on SQLite.
 */
export const JOBS_CHANNEL = 'fw_jobs';

/** What SqlJobQueue needs to hear other processes' dispatches. */
export interface JobNotifications {
  /** `many`: the hint may stand for several jobs (every idle loop wakes), else for one. */
  listen(listener: (many?: boolean) => void): Promise<JobWatch>;
  /**
   * Tells the other processes after a commit that queued a job available now; absent when the
   * database announces it itself (PostgreSQL's NOTIFY, sent within the transaction).
   */
  announce?(): void;
}
