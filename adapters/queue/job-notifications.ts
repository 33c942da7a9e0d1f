import type { JobWatch } from '../../ports/job-queue.js';

/**
 * The channel a dispatch announces itself on (`NOTIFY`), and idle workers listen to. Apart from
 * the listener so that the SQL queue can name it without loading `pg` on SQLite.
 */
export const JOBS_CHANNEL = 'fw_jobs';

/** What SqlJobQueue needs to hear other processes' dispatches. */
export interface JobNotifications {
  listen(listener: () => void): Promise<JobWatch>;
}
