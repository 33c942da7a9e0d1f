import { afterAll, beforeAll, describe } from 'vitest';
import { InMemoryLinkedAccounts } from '../../adapters/persistence/memory/in-memory-linked-accounts.js';
import { InMemoryUserRepository } from '../../adapters/persistence/memory/in-memory-user-repository.js';
import { openDatabase } from '../../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { MikroOrmUserRepository } from '../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlLinkedAccounts } from '../../adapters/persistence/mikro-orm/sql-linked-accounts.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { parseConfig } from '../../composition/config.js';
import { TEST_APP_KEY, useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { linkedAccountsContract } from './linked-accounts.contract.js';

linkedAccountsContract('in memory', () => {
  const users = new InMemoryUserRepository();
  return Promise.resolve({ accounts: new InMemoryLinkedAccounts(users), users });
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    // PostgreSQL: a second pool on the same database, as a second server process would have,
    // so races run on separate connections. SQLite: none. Its one connection per pool already
    // serialises the process's writes, and better-sqlite3 waits for a lock by blocking the
    // thread, so a second pool in this process would wait out its busy timeout for a
    // transaction that cannot go on meanwhile (another process, on its own thread, would not).
    let second: Database | null = null;
    beforeAll(async () => {
      if (engine.name !== 'postgres') return;
      second = await openDatabase(parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: engine.url() }, FRAMEWORK_ROOT).database);
    });
    afterAll(async () => {
      await second?.close();
    });

    linkedAccountsContract(`SQL on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM oauth_accounts; DELETE FROM users;'));
      return {
        accounts: new SqlLinkedAccounts(db().raw),
        users: new MikroOrmUserRepository(db().orm, db().raw),
        ...(second === null ? {} : { sibling: new SqlLinkedAccounts(second.raw) }),
      };
    });
  });
}
