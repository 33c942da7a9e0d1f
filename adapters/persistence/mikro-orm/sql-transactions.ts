import type { TransactionStatements } from '../../../ports/job-queue.js';
import type { Transactions } from '../../../ports/transactions.js';
import type { RawSql } from './raw-sql.js';

/** Transactions on one connection of the app's database (IMMEDIATE on SQLite: the write lock first, no upgrade deadlock). */
export class SqlTransactions implements Transactions {
  constructor(private readonly raw: RawSql) {}

  run<T>(work: (statements: TransactionStatements) => Promise<T>): Promise<T> {
    return this.raw.session(async (sql) => {
      await sql.exec(this.raw.engine === 'sqlite' ? 'BEGIN IMMEDIATE' : 'BEGIN');
      let result: T;
      const committed: (() => void)[] = [];
      try {
        result = await work({ query: (statement, params) => sql.query(statement, params), afterCommit: (callback) => void committed.push(callback) });
      } catch (error) {
        await sql.exec('ROLLBACK').catch(() => undefined);
        throw error;
      }
      await sql.exec('COMMIT');
      for (const callback of committed) callback();
      return result;
    });
  }
}
