import { createRequire } from 'node:module';
import { MikroORM } from '@mikro-orm/core';
import type * as Postgres from '@mikro-orm/postgresql';
import type { EngineName } from '../../../../domain/data/columns.js';
import type { Database } from '../database.js';
import { NodeLineSqliteDriver } from '../node-line-sqlite-driver.js';
import { FrameworkError } from '../../../../domain/shared/errors.js';

const offline = new Map<EngineName, Database>();

/**
 * PostgreSQL's driver, loaded on the first `toSql('postgres')` rather than with this file, so a
 * SQLite app does not carry it. `toSql` is synchronous, hence `require`: @mikro-orm/postgresql's
 * ES module only re-exports its CommonJS one, so both give the same classes.
 */
function postgresDriver(): typeof Postgres.PostgreSqlDriver {
  const loaded = createRequire(import.meta.url)('@mikro-orm/postgresql') as typeof Postgres;
  return loaded.PostgreSqlDriver;
}

/**
 * A MikroORM of `engine` that never connects: what `toSql(dialect)` builds the other engine's
 * statement with (MikroORM's QueryBuilder compiles through that dialect's knex client). Made on
 * first use, once per process; `initSync` opens no connection until a query runs, and none does.
 */
export function dialectDatabase(engine: EngineName): Database {
  let database = offline.get(engine);
  if (database === undefined) {
    const common = { entities: [], ensureDatabase: false, allowGlobalContext: false, debug: false, discovery: { warnWhenNoEntities: false } };
    const orm =
      engine === 'sqlite'
        ? MikroORM.initSync({ ...common, driver: NodeLineSqliteDriver, dbName: ':memory:' })
        : MikroORM.initSync({ ...common, driver: postgresDriver(), clientUrl: 'postgres://offline@127.0.0.1:1/offline', pool: { min: 0, max: 1 } });
    database = {
      engine,
      orm,
      get raw(): never {
        throw new FrameworkError('data.compile-only', `The ${engine} dialect ORM only compiles statements; it runs none`);
      },
      close: () => orm.close(true),
    };
    offline.set(engine, database);
  }
  return database;
}
