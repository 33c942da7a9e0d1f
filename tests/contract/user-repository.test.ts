import { afterAll, beforeAll, describe } from 'vitest';
import { InMemoryUserRepository } from '../../adapters/persistence/memory/in-memory-user-repository.js';
import { openDatabase } from '../../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { MikroOrmUserRepository } from '../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlFileMigrator } from '../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { parseConfig } from '../../composition/config.js';
import { TEST_APP_KEY, useEngines } from '../support/databases.js';
import { userRepositoryContract } from './user-repository.contract.js';
import { join } from 'node:path';

userRepositoryContract('in-memory', () => Promise.resolve(new InMemoryUserRepository()));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    let database: Database;
    beforeAll(async () => {
      const config = parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: engine.url() }, FRAMEWORK_ROOT);
      database = await openDatabase(config.database);
      await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: join(FRAMEWORK_ROOT, 'migrations') }], new SystemClock()).fresh();
    });
    afterAll(async () => {
      await database.close();
    });
    userRepositoryContract(`MikroORM on ${engine.name}`, async () => {
      await database.raw.session((sql) => sql.exec('DELETE FROM users'));
      return new MikroOrmUserRepository(database.orm);
    });
  });
}
