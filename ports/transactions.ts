import type { TransactionStatements } from './job-queue.js';

/** Database transactions the app opens around its own statements (`jobs.transaction(…)`). */
export interface Transactions {
  /** Runs `work` in one transaction on one connection: committed when it resolves, rolled back when it throws. */
  run<T>(work: (statements: TransactionStatements) => Promise<T>): Promise<T>;
}
