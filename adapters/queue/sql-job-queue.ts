import { randomBytes } from 'node:crypto';
import type { Backoff } from '../../domain/queue/backoff.js';
import { LEASE_GRACE_MS } from '../../domain/queue/lease.js';
import type { JobState } from '../../domain/queue/job-state.js';
import type { Engine } from '../../domain/migrations/migration-files.js';
import type { ClaimedJob, EnqueueResult, FailedJob, JobQueue, JobWatch, NewJob, QueueCount, TransactionStatements } from '../../ports/job-queue.js';
import { JOBS_CHANNEL } from './job-notifications.js';
import type { JobNotifications } from './job-notifications.js';
import { FrameworkError } from '../../domain/shared/errors.js';

type Param = string | number | boolean | null | Date;

interface Statements {
  query<Row = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<Row[]>;
}

/**
 * The SQL this queue needs: statements on one pooled connection at a time. The persistence
 * adapter's `RawSql` is one (composition hands `database.raw` in; adapter groups do not
 * import each other).
 */
export interface SqlConnections {
  readonly engine: Engine;
  session<T>(work: (sql: Statements) => Promise<T>): Promise<T>;
}

interface JobRow {
  id: number | string;
  queue: string;
  name: string;
  payload: string;
  attempts: number | string;
  tries: number | string;
  backoff: string;
  timeout_ms: number | string;
  available_at: Date | number | string;
  leased_until: Date | number | string | null;
  lease: string | null;
  failed_at: Date | number | string | null;
  error: string | null;
  batch_id?: string | null;
}

const INSERT_COLUMNS = '(queue, name, payload, attempts, tries, backoff, timeout_ms, available_at, idempotency_key, batch_id, created_at)';
const INSERT = `INSERT INTO jobs ${INSERT_COLUMNS} VALUES (?, ?, ?, 0, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (idempotency_key) DO NOTHING RETURNING id`;

// The lease ends after the job's own timeout plus the grace period. SQLite stores times as
// epoch milliseconds (RawSql binds Dates so), PostgreSQL as timestamptz.
const LEASE_END = {
  sqlite: `? + timeout_ms + ${LEASE_GRACE_MS}`,
  postgres: `?::timestamptz + (timeout_ms + ${LEASE_GRACE_MS}) * interval '1 millisecond'`,
} satisfies Record<Engine, string>;

// One statement picks and leases the oldest available job of a queue. On PostgreSQL, SKIP
// LOCKED lets any number of workers on any number of machines claim at once, each a different
// row. On SQLite a write statement takes the database's single write lock before it reads
// (waiting for it under busy_timeout), so the pick and the lease are one step and two processes
// cannot take the same row; no BEGIN IMMEDIATE is needed, and none is held across an await
// (better-sqlite3 is synchronous: a second connection of the same process would block on it). An expired lease makes the job available again (its worker died or overran).
const claimSql = (engine: Engine) => `UPDATE jobs SET attempts = attempts + 1, lease = ?, leased_until = ${LEASE_END[engine]}
  WHERE id = (SELECT id FROM jobs WHERE queue = ? AND failed_at IS NULL AND available_at <= ?
      AND (leased_until IS NULL OR leased_until <= ?)
    ORDER BY available_at, id LIMIT 1${engine === 'postgres' ? ' FOR UPDATE SKIP LOCKED' : ''})
  RETURNING id, queue, name, payload, attempts, tries, backoff, timeout_ms, available_at, leased_until, lease, failed_at, error, batch_id`;

// Mirrors domain/queue/job-state.ts's jobState, in SQL so that counting never loads the rows.
const STATE_SQL = `CASE WHEN failed_at IS NOT NULL THEN 'failed'
  WHEN leased_until IS NOT NULL AND leased_until > ? THEN 'running'
  WHEN available_at > ? THEN 'delayed' ELSE 'waiting' END`;

/**
 * QUEUE_CONNECTION=database: the `jobs` table in the app's own database (SQLite for one
 * machine; PostgreSQL for several, claimed with FOR UPDATE SKIP LOCKED).
 */
export class SqlJobQueue implements JobQueue {
  readonly driver = 'database';
  private readonly claimStatement: string;
  /** This process's idle workers, woken by a dispatch in this process at once. */
  private readonly listeners = new Set<(many?: boolean) => void>();

  /**
   * `notifications`: PostgreSQL's LISTEN, so a dispatch on any machine wakes idle workers; a
   * dispatch announces itself with `pg_notify` in its own statement or transaction (delivered
   * at commit, never for a rollback). On SQLite, a wake file beside the database, rewritten
   * after the commit, for the workers of the machine's other processes.
   */
  constructor(
    private readonly sql: SqlConnections,
    private readonly notifications: JobNotifications | null = null,
  ) {
    this.claimStatement = claimSql(sql.engine);
  }

  async enqueue(job: NewJob, now: Date): Promise<EnqueueResult> {
    const result = await this.sql.session(async (sql) => {
      const inserted = await insert(sql, job, now);
      if (this.sql.engine === 'postgres' && this.announces(inserted, job, now)) await sql.query('SELECT pg_notify(?, ?)', [JOBS_CHANNEL, job.queue]);
      return inserted;
    });
    if (this.announces(result, job, now)) this.wakeHere();
    return result;
  }

  async enqueueWithin(statements: TransactionStatements, job: NewJob, now: Date): Promise<EnqueueResult> {
    const result = await insert(statements, job, now);
    if (this.announces(result, job, now)) {
      if (this.sql.engine === 'postgres') await statements.query('SELECT pg_notify(?, ?)', [JOBS_CHANNEL, job.queue]);
      // The row is visible to a worker only once committed.
      if (statements.afterCommit === undefined) this.wakeHere();
      else statements.afterCommit(() => this.wakeHere());
    }
    return result;
  }

  async watch(listener: (many?: boolean) => void): Promise<JobWatch> {
    this.listeners.add(listener);
    const remote = this.notifications === null ? null : await this.notifications.listen(listener).catch((error: unknown) => {
      this.listeners.delete(listener);
      throw error;
    });
    return {
      close: async () => {
        this.listeners.delete(listener);
        await remote?.close();
      },
    };
  }

  /** A new job that is available now: a delayed one waits for its time (the workers' poll finds it). */
  private announces(result: EnqueueResult, job: NewJob, now: Date): boolean {
    return result.kind === 'queued' && job.availableAt.getTime() <= now.getTime();
  }

  /** After the commit of a job available now: wakes this process's idle workers, and tells the others where the driver must (SQLite's wake file). */
  private wakeHere(): void {
    for (const listener of this.listeners) listener();
    this.notifications?.announce?.();
  }

  async claim(queues: readonly string[], now: Date): Promise<ClaimedJob | null> {
    const lease = randomBytes(12).toString('base64url');
    return this.sql.session(async (sql) => {
      for (const queue of queues) {
        const params = [lease, now, queue, now, now];
        const rows = await sql.query<JobRow>(this.claimStatement, params);
        if (rows[0] !== undefined) return claimed(rows[0]);
      }
      return null;
    });
  }

  async complete(job: ClaimedJob): Promise<boolean> {
    return this.changed('DELETE FROM jobs WHERE id = ? AND lease = ? RETURNING id', [Number(job.id), job.lease]);
  }

  async retryLater(job: ClaimedJob, at: Date): Promise<boolean> {
    return this.changed('UPDATE jobs SET available_at = ?, lease = NULL, leased_until = NULL WHERE id = ? AND lease = ? RETURNING id', [at, Number(job.id), job.lease]);
  }

  async fail(job: ClaimedJob, error: string, now: Date): Promise<boolean> {
    return this.changed('UPDATE jobs SET failed_at = ?, error = ?, lease = NULL, leased_until = NULL WHERE id = ? AND lease = ? RETURNING id', [
      now,
      error,
      Number(job.id),
      job.lease,
    ]);
  }

  async failed(): Promise<FailedJob[]> {
    const rows = await this.sql.session((sql) =>
      sql.query<JobRow>('SELECT id, queue, name, payload, attempts, failed_at, error FROM jobs WHERE failed_at IS NOT NULL ORDER BY failed_at DESC, id DESC'),
    );
    return rows.map((row) => ({
      id: String(row.id),
      name: row.name,
      queue: row.queue,
      payload: row.payload,
      attempts: Number(row.attempts),
      error: row.error ?? '',
      failedAt: toDate(row.failed_at ?? 0),
    }));
  }

  async retryFailed(which: 'all' | { readonly id: string }, now: Date): Promise<number> {
    const id = which === 'all' ? null : which.id;
    const one = id !== null;
    if (one && !isId(id)) return 0;
    const rows = await this.sql.session((sql) =>
      sql.query(
        `UPDATE jobs SET failed_at = NULL, error = NULL, attempts = 0, available_at = ? WHERE failed_at IS NOT NULL${one ? ' AND id = ?' : ''} RETURNING id`,
        one ? [now, Number(id)] : [now],
      ),
    );
    return rows.length;
  }

  async forgetFailed(id: string): Promise<boolean> {
    return isId(id) && this.changed('DELETE FROM jobs WHERE id = ? AND failed_at IS NOT NULL RETURNING id', [Number(id)]);
  }

  async flushFailed(): Promise<number> {
    return (await this.sql.session((sql) => sql.query('DELETE FROM jobs WHERE failed_at IS NOT NULL RETURNING id'))).length;
  }

  async pruneFailed(before: Date): Promise<number> {
    return (await this.sql.session((sql) => sql.query('DELETE FROM jobs WHERE failed_at IS NOT NULL AND failed_at <= ? RETURNING id', [before]))).length;
  }

  async counts(now: Date): Promise<QueueCount[]> {
    const rows = await this.sql.session((sql) =>
      sql.query<{ queue: string; state: JobState; count: number | string }>(
        `SELECT queue, state, COUNT(*) AS count FROM (SELECT queue, ${STATE_SQL} AS state FROM jobs) AS j GROUP BY queue, state ORDER BY queue`,
        [now, now],
      ),
    );
    return rows.map((row) => ({ queue: row.queue, state: row.state, count: Number(row.count) }));
  }

  /** The database belongs to the app; closing it is the app's job. */
  close(): Promise<void> {
    return Promise.resolve();
  }

  private async changed(statement: string, params: readonly Param[]): Promise<boolean> {
    return (await this.sql.session((sql) => sql.query(statement, params))).length > 0;
  }
}

async function insert(sql: TransactionStatements, job: NewJob, now: Date): Promise<EnqueueResult> {
  const rows = await sql.query<{ id: number | string }>(INSERT, [
    job.queue,
    job.name,
    job.payload,
    job.tries,
    JSON.stringify(job.backoff),
    job.timeoutMs,
    job.availableAt,
    job.idempotencyKey,
    job.batchId,
    now,
  ]);
  if (rows[0] !== undefined) return { kind: 'queued', id: String(rows[0].id) };
  const [existing] = await sql.query<{ id: number | string }>('SELECT id FROM jobs WHERE idempotency_key = ?', [job.idempotencyKey]);
  if (existing === undefined) throw new FrameworkError('queue.job-lost', `The job "${job.name}" was neither added nor found by its idempotency key`);
  return { kind: 'duplicate', id: String(existing.id) };
}

function claimed(row: JobRow): ClaimedJob {
  if (row.lease === null || row.leased_until === null) throw new FrameworkError('queue.job-without-lease', `The claimed job ${String(row.id)} has no lease`);
  return {
    id: String(row.id),
    name: row.name,
    queue: row.queue,
    payload: row.payload,
    attempts: Number(row.attempts),
    tries: Number(row.tries),
    backoff: JSON.parse(row.backoff) as Backoff,
    timeoutMs: Number(row.timeout_ms),
    availableAt: toDate(row.available_at),
    leasedUntil: toDate(row.leased_until),
    lease: row.lease,
    batchId: row.batch_id ?? null,
  };
}

/** A time column as the driver hands it back: a Date (PostgreSQL) or epoch milliseconds (SQLite). */
export function toDate(value: Date | number | string): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'string' && /^\d+$/u.test(value) ? Number(value) : value);
}

function isId(id: string): boolean {
  return /^[1-9]\d{0,15}$/u.test(id);
}
