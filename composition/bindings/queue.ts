import { SqlTransactions } from '../../adapters/persistence/mikro-orm/sql-transactions.js';
import { SqlJobBatches } from '../../adapters/queue/sql-job-batches.js';
import { JobDispatcher } from '../../application/queue/job-dispatcher.js';
import type { JobBatches } from '../../ports/job-batches.js';
import type { JobQueue, NewJob } from '../../ports/job-queue.js';
import type { Transactions } from '../../ports/transactions.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const QUEUE_TOKENS = {
  /** Where jobs wait (QUEUE_CONNECTION). */
  jobQueue: token<JobQueue>('JobQueue'),
  /** `dispatch(job)`, `dispatch(job).delay(…)`, `transaction(…)`. */
  jobs: token<JobDispatcher>('JobDispatcher'),
  transactions: token<Transactions>('Transactions'),
  jobBatches: token<JobBatches>('JobBatches'),
} as const;

const T = QUEUE_TOKENS;

/**
 * The queue QUEUE_CONNECTION names (made as chosen-adapters.ts decided, which registers its
 * close), the transactions `jobs.transaction` opens, and the dispatcher. With
 * QUEUE_CONNECTION=sync a dispatch runs the job at once through `runInline`, a worker over the
 * app's jobs made when first needed.
 */
export function queueArea(runInline: () => (job: NewJob) => Promise<void>) {
  return ({ container, adapters, onClose }: Binding): void => {
    provide(container, T.jobQueue, [C.config, C.clock, C.database, C.logger], (config, clock, database, logger) => adapters.jobQueue({ config, clock, database, logger }, onClose));
    provide(container, T.transactions, [C.database], (db) => new SqlTransactions(db.raw));
    // Batches count in the app's database whatever the driver: one atomic statement per ended job.
    provide(container, T.jobBatches, [C.database], (db) => new SqlJobBatches(db.raw));
    provide(container, T.jobs, [C.config, T.jobQueue, C.clock, T.transactions, T.jobBatches, C.random], (config, queue, clock, transactions, store, random) => {
      const batches = { store, random };
      if (config.queue.connection !== 'sync') return new JobDispatcher(queue, clock, transactions, null, batches);
      return new JobDispatcher(queue, clock, transactions, runInline(), batches);
    });
  };
}
