import type { Engine } from '../../domain/migrations/migration-files.js';
import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';

type Param = string | number | null | Date;

/**
 * The SQL this store needs: parameterised statements (`?` placeholders) on a pooled
 * connection. The persistence adapter's `RawSql` is one; the shape is named here because
 * adapter groups do not import each other, and composition hands `database.raw` in.
 */
export interface SqlStatements {
  readonly engine: Engine;
  session<T>(work: (sql: { query<Row = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<Row[]> }) => Promise<T>): Promise<T>;
}

export interface SqlCacheStoreOptions {
  /** Expired rows are deleted on every this many increments of this process (default 100). */
  pruneEvery?: number;
  /** At most this many expired rows per clean-up (default 1000), so one request never pays for a backlog. */
  pruneBatch?: number;
  /** Told when a clean-up fails; the increment it rode on still succeeds. */
  onPruneError?: (error: unknown) => void;
}

// One statement per increment: the upsert takes the row's lock (PostgreSQL) or the database's
// write lock (SQLite), so concurrent increments from any number of processes queue on the row
// and each sees the one before it. The SET expressions read the row as it was, so an expired
// counter restarts at 1 with the new expiry and a live one keeps its first expiry. A NULL
// expiry compares as unknown, which CASE treats as "not expired": such rows never expire.
const INCREMENT = {
  sqlite: `INSERT INTO cache (key, value, expires_at) VALUES (?, '1', ?)
    ON CONFLICT (key) DO UPDATE SET
      value = CASE WHEN cache.expires_at <= ? THEN '1' ELSE CAST(CAST(cache.value AS INTEGER) + 1 AS TEXT) END,
      expires_at = CASE WHEN cache.expires_at <= ? THEN excluded.expires_at ELSE cache.expires_at END
    RETURNING value`,
  postgres: `INSERT INTO cache (key, value, expires_at) VALUES (?, '1', ?)
    ON CONFLICT (key) DO UPDATE SET
      value = CASE WHEN cache.expires_at <= ? THEN '1' ELSE (cache.value::bigint + 1)::text END,
      expires_at = CASE WHEN cache.expires_at <= ? THEN excluded.expires_at ELSE cache.expires_at END
    RETURNING value`,
} satisfies Record<Engine, string>;

// SKIP LOCKED: two servers cleaning up at once take different rows instead of waiting on (or
// deadlocking with) each other and with increments; SQLite has a single writer anyway.
const PRUNE = {
  sqlite: 'DELETE FROM cache WHERE key IN (SELECT key FROM cache WHERE expires_at <= ? LIMIT ?) RETURNING key',
  postgres: 'DELETE FROM cache WHERE key IN (SELECT key FROM cache WHERE expires_at <= ? LIMIT ? FOR UPDATE SKIP LOCKED) RETURNING key',
} satisfies Record<Engine, string>;

/**
 * Counters in table `cache` (CACHE_STORE=database), shared by every server on the database.
 * Values are decimal text (the column is text, shared with other cached values); expiries are
 * written as Dates like every other time the framework stores, which RawSql binds as epoch
 * milliseconds on SQLite (as the ORM does) and as timestamptz on PostgreSQL, and compared
 * with the Clock's time in the same form.
 *
 * Expired rows are dead weight only: every read treats them as absent. They are cleaned up
 * as a side effect of counting rather than by a scheduler the app would have to run: every
 * `pruneEvery`-th increment of a process deletes up to `pruneBatch` expired rows. One
 * increment creates at most one row, so deleting ten times as many as can appear in between
 * keeps the table at its live rows plus a shrinking backlog, at the cost of one indexed
 * delete per hundred requests. A counter is used, not chance, so tests can rely on it.
 */
export class SqlCacheStore implements CacheStore {
  private readonly pruneEvery: number;
  private readonly pruneBatch: number;
  private readonly onPruneError: (error: unknown) => void;
  private incrementsSincePrune = 0;

  constructor(
    private readonly sql: SqlStatements,
    private readonly clock: Clock,
    options: SqlCacheStoreOptions = {},
  ) {
    this.pruneEvery = positive('pruneEvery', options.pruneEvery ?? 100);
    this.pruneBatch = positive('pruneBatch', options.pruneBatch ?? 1000);
    this.onPruneError = options.onPruneError ?? (() => undefined);
  }

  async increment(key: string, expiresAt: Date): Promise<number> {
    const now = this.clock.now();
    const rows = await this.sql.session((sql) => sql.query<{ value: string }>(INCREMENT[this.sql.engine], [key, expiresAt, now, now]));
    const count = Number(rows[0]?.value);
    if (!Number.isSafeInteger(count)) throw new FrameworkError('cache.not-a-counter', `The cache row "${key}" does not hold a counter`);
    if (++this.incrementsSincePrune >= this.pruneEvery) {
      this.incrementsSincePrune = 0;
      await this.prune().catch(this.onPruneError);
    }
    return count;
  }

  async count(key: string): Promise<number> {
    const rows = await this.sql.session((sql) =>
      sql.query<{ value: string }>('SELECT value FROM cache WHERE key = ? AND (expires_at IS NULL OR expires_at > ?)', [key, this.clock.now()]),
    );
    return rows[0] === undefined ? 0 : Number(rows[0].value);
  }

  async forget(key: string): Promise<void> {
    await this.sql.session((sql) => sql.query('DELETE FROM cache WHERE key = ?', [key]));
  }

  /** Deletes up to `pruneBatch` expired rows now and says how many; `increment` calls it every `pruneEvery` times. */
  async prune(): Promise<number> {
    const rows = await this.sql.session((sql) => sql.query(PRUNE[this.sql.engine], [this.clock.now(), this.pruneBatch]));
    return rows.length;
  }

  /**
   * Deletes every row expired by now (`fwx cache:prune`), a batch at a time so that no single
   * statement holds the table long; returns how many.
   */
  async pruneExpired(): Promise<number> {
    let deleted = 0;
    for (let batch = await this.prune(); batch > 0; batch = batch < this.pruneBatch ? 0 : await this.prune()) deleted += batch;
    return deleted;
  }
}

function positive(name: string, value: number): number {
  if (!Number.isSafeInteger(value) || value < 1) throw new MisuseError('cache.bad-number', `${name} must be a positive whole number, got ${value}`);
  return value;
}
