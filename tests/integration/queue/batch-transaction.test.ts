/**
 * A batch and its jobs are written in one transaction: when a job cannot be queued half-way,
 * neither the batch nor the jobs already written remain (a batch waiting for jobs that never
 * come would never finish, and its `then` never run).
 */
import { describe, expect, it } from 'vitest';
import { number, object } from 'superstruct';
import { SystemClock } from '../../../adapters/clock/system-clock.js';
import { SqlTransactions } from '../../../adapters/persistence/mikro-orm/sql-transactions.js';
import { SqlJobBatches } from '../../../adapters/queue/sql-job-batches.js';
import { SqlJobQueue } from '../../../adapters/queue/sql-job-queue.js';
import { CryptoRandomSource } from '../../../adapters/random/crypto-random-source.js';
import { JobDispatcher } from '../../../application/queue/job-dispatcher.js';
import { defineJob } from '../../../composition/jobs.js';
import type { EnqueueResult, NewJob, TransactionStatements } from '../../../ports/job-queue.js';
import { useEngines } from '../../support/databases.js';
import { useMigratedDatabase } from '../../support/migrated-database.js';

const Part = defineJob({ name: 'part', payload: object({ n: number() }), handle: () => Promise.resolve() });

/** A queue whose third write fails, as a database that goes away mid-batch would. */
class FailingOnThird extends SqlJobQueue {
  private writes = 0;
  override enqueueWithin(statements: TransactionStatements, job: NewJob, now: Date): Promise<EnqueueResult> {
    if (++this.writes === 3) return Promise.reject(new Error('the database went away'));
    return super.enqueueWithin(statements, job, now);
  }
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`batches on ${engine.name}`, () => {
    const db = useMigratedDatabase(engine);
    const count = async (table: string) => Number((await db().raw.session((sql) => sql.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table}`)))[0]?.n);

    function dispatcher(queue: SqlJobQueue): JobDispatcher {
      return new JobDispatcher(queue, new SystemClock(), new SqlTransactions(db().raw), null, { store: new SqlJobBatches(db().raw), random: new CryptoRandomSource() });
    }

    it('leave nothing behind when a job cannot be queued half-way, and everything when all can', async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM jobs; DELETE FROM job_batches;'));
      const parts = [0, 1, 2, 3].map((n) => Part.with({ n }));
      await expect(dispatcher(new FailingOnThird(db().raw)).batch(parts, { name: 'import' })).rejects.toThrow('the database went away');
      expect([await count('job_batches'), await count('jobs')]).toEqual([0, 0]);

      const { id } = await dispatcher(new SqlJobQueue(db().raw)).batch(parts, { name: 'import' });
      expect([await count('job_batches'), await count('jobs')]).toEqual([1, 4]);
      expect(id).not.toBe('');
    });
  });
}
