import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { openDatabase } from '../../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { SqlFileMigrator } from '../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { parseConfig } from '../../composition/config.js';
import { TEST_APP_KEY } from './databases.js';
import type { EngineUnderTest } from './databases.js';

/**
 * The engine's database for the enclosing `describe`, opened and migrated from nothing with
 * the framework's migrations before its tests, closed after. Call inside a `describe`.
 */
export function useMigratedDatabase(engine: EngineUnderTest): () => Database {
  let database: Database | null = null;
  beforeAll(async () => {
    const config = parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: engine.url() }, FRAMEWORK_ROOT);
    database = await openDatabase(config.database);
    await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }], new SystemClock()).fresh();
  });
  afterAll(async () => {
    await database?.close();
  });
  return () => {
    if (database === null) throw new Error('The database is opened in beforeAll');
    return database;
  };
}

/**
 * A second connection pool on the engine's database, opened before the describe's tests and
 * closed after: what a second server or worker process would have. Call inside a `describe`.
 */
export function useSecondPool(engine: EngineUnderTest): () => Database {
  let second: Database | null = null;
  beforeAll(async () => {
    second = await openDatabase(parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: engine.url() }, FRAMEWORK_ROOT).database);
  });
  afterAll(async () => {
    await second?.close();
  });
  return () => {
    if (second === null) throw new Error('The second pool is opened in beforeAll');
    return second;
  };
}
