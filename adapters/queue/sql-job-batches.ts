import type { BatchCounts } from '../../domain/queue/batch.js';
import type { BatchCallbacks, BatchStep, JobBatches, StoredBatch } from '../../ports/job-batches.js';
import type { NewJob, TransactionStatements } from '../../ports/job-queue.js';
import { toDate } from './sql-job-queue.js';
import type { SqlConnections } from './sql-job-queue.js';

interface BatchRow {
  id: string;
  name: string;
  total: number | string;
  succeeded: number | string;
  failed: number | string;
  then_job: string | null;
  catch_job: string | null;
  finally_job: string | null;
  created_at: Date | number | string;
  finished_at: Date | number | string | null;
}

/** Batches in table `job_batches` of the app's database (every queue driver uses it). */
export class SqlJobBatches implements JobBatches {
  constructor(private readonly sql: SqlConnections) {}

  async create(batch: { id: string; name: string; total: number; callbacks: BatchCallbacks }, now: Date): Promise<void> {
    await this.sql.session((sql) => this.createWithin(sql, batch, now));
  }

  async createWithin(statements: TransactionStatements, batch: { id: string; name: string; total: number; callbacks: BatchCallbacks }, now: Date): Promise<void> {
    const { then, catch: onCatch, finally: onFinally } = batch.callbacks;
    await statements.query(
      'INSERT INTO job_batches (id, name, total, then_job, catch_job, finally_job, created_at, finished_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
      [batch.id, batch.name, batch.total, stored(then), stored(onCatch), stored(onFinally), now, batch.total === 0 ? now : null],
    );
  }

  async record(id: string, outcome: 'succeeded' | 'failed', now: Date): Promise<BatchStep | null> {
    const column = outcome === 'succeeded' ? 'succeeded' : 'failed';
    // One statement adds the job and reads the counts it made: two workers ending the last two
    // jobs at once each see their own step, so exactly one sees the batch finish.
    const rows = await this.sql.session((sql) =>
      sql.query<BatchRow>(
        `UPDATE job_batches SET ${column} = ${column} + 1,
           finished_at = CASE WHEN succeeded + failed + 1 >= total THEN ? ELSE finished_at END
         WHERE id = ? AND succeeded + failed < total
         RETURNING id, name, total, succeeded, failed, then_job, catch_job, finally_job, created_at, finished_at`,
        [now, id],
      ),
    );
    const row = rows[0];
    if (row === undefined) return null;
    const after: BatchCounts = { total: Number(row.total), succeeded: Number(row.succeeded), failed: Number(row.failed) };
    const before: BatchCounts = { ...after, [column]: after[column] - 1 };
    return { before, after, callbacks: { then: parsed(row.then_job), catch: parsed(row.catch_job), finally: parsed(row.finally_job) } };
  }

  async find(id: string): Promise<StoredBatch | null> {
    const [row] = await this.sql.session((sql) => sql.query<BatchRow>('SELECT id, name, total, succeeded, failed, created_at, finished_at FROM job_batches WHERE id = ?', [id]));
    if (row === undefined) return null;
    return {
      id: row.id,
      name: row.name,
      total: Number(row.total),
      succeeded: Number(row.succeeded),
      failed: Number(row.failed),
      createdAt: toDate(row.created_at),
      finishedAt: row.finished_at === null ? null : toDate(row.finished_at),
    };
  }

  async prune(before: Date): Promise<number> {
    return (await this.sql.session((sql) => sql.query('DELETE FROM job_batches WHERE finished_at IS NOT NULL AND finished_at <= ? RETURNING id', [before]))).length;
  }
}

function stored(job: NewJob | null): string | null {
  return job === null ? null : JSON.stringify(job);
}

function parsed(text: string | null): NewJob | null {
  if (text === null) return null;
  const job = JSON.parse(text) as NewJob & { availableAt: string };
  return { ...job, availableAt: new Date(job.availableAt) };
}
