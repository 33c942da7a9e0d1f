import { MikroORM } from '@mikro-orm/core';
import { PostgreSqlDriver } from '@mikro-orm/postgresql';
import type { EngineName } from '../../../../domain/data/columns.js';
import type { Database } from '../database.js';
import { NodeLineSqliteDriver } from '../node-line-sqlite-driver.js';

const offline = new Map<EngineName, Database>();

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
        : MikroORM.initSync({ ...common, driver: PostgreSqlDriver, clientUrl: 'postgres://offline@127.0.0.1:1/offline', pool: { min: 0, max: 1 } });
    database = {
      engine,
      orm,
      get raw(): never {
        throw new Error(`The ${engine} dialect ORM only compiles statements; it runs none`);
      },
      close: () => orm.close(true),
    };
    offline.set(engine, database);
  }
  return database;
}
