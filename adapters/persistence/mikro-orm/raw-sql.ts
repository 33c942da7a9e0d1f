import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/knex';
import type { Engine } from '../../../domain/migrations/migration-files.js';
import { MisuseError } from '../../../domain/shared/errors.js';
import type { SqliteDatabaseHandle as BetterSqliteConnection } from './sqlite-binding.js';

type Param = string | number | boolean | null | Date;

/** SQL on one connection of the ORM's pool: whole scripts, and parameterised queries. */
export interface SqlSession {
  /** Runs a script of several statements (a migration file). */
  exec(script: string): Promise<void>;
  /** Runs one statement with `?` placeholders and returns its rows. */
  query<Row = Record<string, unknown>>(sql: string, params?: readonly Param[]): Promise<Row[]>;
}

interface PgConnection {
  query(sql: string, params?: unknown[]): Promise<{ rows: unknown[] }>;
}

interface KnexClient {
  acquireConnection(): Promise<unknown>;
  releaseConnection(connection: unknown): Promise<unknown>;
  /** knex's tarn pool (its public counters). */
  pool?: PoolCounters | undefined;
}

/** tarn's public counters: how many connections are lent out, waited for, or being made. */
interface PoolCounters {
  numUsed(): number;
  numPendingAcquires(): number;
  numPendingCreates(): number;
}

/** Told of each statement run: its text (placeholders, never values), how many values were bound, and how long it took. */
export type QueryObserver = (sql: string, bindings: number, ms: number) => void;

/**
 * The migrator needs what the ORM's query layer does not give: multi-statement scripts and
 * statements like `BEGIN`/`COMMIT` that must run on one connection. This borrows a connection
 * from the ORM's own pool (so SQLite keeps a single writer) and speaks to the driver directly.
 */
export class RawSql {
  constructor(
    readonly engine: Engine,
    private readonly orm: MikroORM,
    /** The local request inspector's ear (APP_DEBUG with APP_ENV=local); none otherwise. */
    private readonly observer: QueryObserver | null = null,
  ) {}

  /**
   * SQLite's one connection, as last lent by the pool: `first` runs a read on it directly while
   * the pool has lent it to nobody. Null until a session borrowed it, and for PostgreSQL.
   */
  private sqliteConnection: BetterSqliteConnection | null = null;
  /** The knex client that lent it, whose pool `first` asks (the ORM's getters cost more than the statement). */
  private sqliteClient: KnexClient | null = null;

  async session<T>(work: (sql: SqlSession) => Promise<T>): Promise<T> {
    const client = this.knexClient();
    const connection = await client.acquireConnection();
    try {
      let session: SqlSession;
      if (this.engine === 'sqlite') {
        this.sqliteConnection = connection as BetterSqliteConnection;
        this.sqliteClient = client;
        session = sqliteSession(this.sqliteConnection);
      } else {
        session = pgSession(connection as PgConnection);
      }
      return await work(this.observer === null ? session : observedSession(session, this.observer));
    } finally {
      await client.releaseConnection(connection);
    }
  }

  /**
   * The first row of one read statement (`SELECT`), or undefined: the signed-in request's user
   * lookup. On SQLite, while the pool's single connection is lent to nobody, the statement runs
   * on it at once, synchronously: no pool round trip (a promise, an acquire timer and a release
   * per lookup, more than the statement itself; docs/performance.md). While the connection is
   * lent (a transaction between its BEGIN and COMMIT, a migration, a query of the ORM) or
   * waited for, the read queues for it like any other, so it never runs inside a transaction it
   * is not part of: SQLite keeps its single writer and every transaction its isolation. A
   * statement that writes is refused on SQLite (`data.reads-only`) whichever way it runs; on
   * PostgreSQL it is not inspected (the framework's own callers pass fixed SELECTs).
   */
  first<Row = Record<string, unknown>>(sql: string, params: readonly Param[] = []): Promise<Row | undefined> {
    const idle = this.engine === 'sqlite' ? this.idleSqliteConnection() : null;
    if (idle === null) {
      return this.session(async (session) => {
        if (this.engine === 'sqlite' && this.sqliteConnection !== null) refuseWrites(prepared(this.sqliteConnection, sql), sql);
        return (await session.query<Row>(sql, params))[0];
      });
    }
    const started = this.observer === null ? 0 : performance.now();
    try {
      const statement = prepared(idle, sql);
      refuseWrites(statement, sql);
      // One value (a lookup by key) is bound without building an array.
      const row = params.length === 1 ? statement.get(sqliteValue(params[0] ?? null)) : statement.get(...sqliteValues(params));
      return Promise.resolve(row as Row | undefined);
    } catch (error) {
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    } finally {
      this.observer?.(sql, params.length, performance.now() - started);
    }
  }

  /** SQLite's connection when nothing holds it, nor waits for it, nor a new one is being made; else null. */
  private idleSqliteConnection(): BetterSqliteConnection | null {
    const connection = this.sqliteConnection;
    if (connection === null || !connection.open || connection.inTransaction) return null;
    const pool = this.sqliteClient?.pool;
    if (pool === undefined || pool.numUsed() !== 0 || pool.numPendingAcquires() !== 0 || pool.numPendingCreates() !== 0) return null;
    return connection;
  }

  private knexClient(): KnexClient {
    const em = this.orm.em as unknown as EntityManager;
    return (em.getConnection().getKnex() as unknown as { client: KnexClient }).client;
  }
}

type SqliteStatement = ReturnType<BetterSqliteConnection['prepare']>;

/**
 * `first` is for reads, on either path (idle or queued): SQLite's own `readonly` says whether a
 * statement writes (`INSERT … RETURNING` returns rows yet writes; better-sqlite3's `reader` only
 * says it returns rows). PostgreSQL's statements are not checked: see the method's comment.
 */
function refuseWrites(statement: SqliteStatement, sql: string): void {
  if (!statement.readonly) throw new MisuseError('data.reads-only', `RawSql.first runs reads only: ${sql}`);
}

/**
 * Each connection's prepared statements, by their SQL: preparing one cost more than running it
 * on the signed-in request's user lookup (docs/performance.md). Bounded, for SQL that is built
 * with varying text (IN lists): past the bound, the connection starts afresh.
 */
const preparedStatements = new WeakMap<BetterSqliteConnection, Map<string, SqliteStatement>>();
const PREPARED_PER_CONNECTION = 256;

function prepared(connection: BetterSqliteConnection, sql: string): SqliteStatement {
  let statements = preparedStatements.get(connection);
  if (statements === undefined) {
    statements = new Map();
    preparedStatements.set(connection, statements);
  }
  let statement = statements.get(sql);
  if (statement === undefined) {
    statement = connection.prepare(sql);
    if (statements.size >= PREPARED_PER_CONNECTION) statements.clear();
    statements.set(sql, statement);
  }
  return statement;
}

function sqliteSession(connection: BetterSqliteConnection): SqlSession {
  return {
    exec(script) {
      connection.exec(script);
      return Promise.resolve();
    },
    query<Row>(sql: string, params: readonly Param[] = []) {
      const bound = sqliteValues(params);
      const statement = prepared(connection, sql);
      return Promise.resolve((statement.reader ? statement.all(...bound) : (statement.run(...bound), [])) as Row[]);
    },
  };
}

/** better-sqlite3 binds neither Dates nor booleans; the ORM stores both as numbers too. */
function sqliteValue(param: Param): string | number | null {
  return param instanceof Date ? param.getTime() : typeof param === 'boolean' ? Number(param) : param;
}

function sqliteValues(params: readonly Param[]): readonly (string | number | null)[] {
  return params.map(sqliteValue);
}

function pgSession(connection: PgConnection): SqlSession {
  return {
    async exec(script) {
      await connection.query(script);
    },
    async query<Row>(sql: string, params: readonly Param[] = []) {
      let index = 0;
      const numbered = sql.replace(/\?/gu, () => `$${++index}`);
      const result = await connection.query(numbered, [...params]);
      return result.rows as Row[];
    },
  };
}

/** A session that tells `observer` of every statement, with its duration. */
function observedSession(session: SqlSession, observer: QueryObserver): SqlSession {
  const timed = async <T>(sql: string, bindings: number, run: () => Promise<T>): Promise<T> => {
    const started = performance.now();
    try {
      return await run();
    } finally {
      observer(sql, bindings, performance.now() - started);
    }
  };
  return {
    exec: (script) => timed(script, 0, () => session.exec(script)),
    query: (sql, params = []) => timed(sql, params.length, () => session.query(sql, params)),
  };
}
