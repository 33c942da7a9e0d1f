import type { MikroORM } from '@mikro-orm/core';
import type { EntityManager } from '@mikro-orm/knex';
import type { Engine } from '../../../domain/migrations/migration-files.js';
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

  async session<T>(work: (sql: SqlSession) => Promise<T>): Promise<T> {
    const em = this.orm.em as unknown as EntityManager;
    const client = (em.getConnection().getKnex() as unknown as { client: KnexClient }).client;
    const connection = await client.acquireConnection();
    try {
      const session = this.engine === 'sqlite' ? sqliteSession(connection as BetterSqliteConnection) : pgSession(connection as PgConnection);
      return await work(this.observer === null ? session : observedSession(session, this.observer));
    } finally {
      await client.releaseConnection(connection);
    }
  }
}

type SqliteStatement = ReturnType<BetterSqliteConnection['prepare']>;

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
      // better-sqlite3 binds neither Dates nor booleans; the ORM stores both as numbers too.
      const bound = params.map((param) => (param instanceof Date ? param.getTime() : typeof param === 'boolean' ? Number(param) : param));
      const statement = prepared(connection, sql);
      return Promise.resolve((statement.reader ? statement.all(...bound) : (statement.run(...bound), [])) as Row[]);
    },
  };
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
