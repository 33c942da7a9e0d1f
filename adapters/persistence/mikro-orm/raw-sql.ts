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

/**
 * The migrator needs what the ORM's query layer does not give: multi-statement scripts and
 * statements like `BEGIN`/`COMMIT` that must run on one connection. This borrows a connection
 * from the ORM's own pool (so SQLite keeps a single writer) and speaks to the driver directly.
 */
export class RawSql {
  constructor(
    readonly engine: Engine,
    private readonly orm: MikroORM,
  ) {}

  async session<T>(work: (sql: SqlSession) => Promise<T>): Promise<T> {
    const em = this.orm.em as unknown as EntityManager;
    const client = (em.getConnection().getKnex() as unknown as { client: KnexClient }).client;
    const connection = await client.acquireConnection();
    try {
      return await work(this.engine === 'sqlite' ? sqliteSession(connection as BetterSqliteConnection) : pgSession(connection as PgConnection));
    } finally {
      await client.releaseConnection(connection);
    }
  }
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
      const statement = connection.prepare(sql);
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
