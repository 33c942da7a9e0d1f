import { afterAll, beforeAll, describe } from 'vitest';
import { InMemoryRecordLookup } from '../../adapters/persistence/memory/in-memory-record-lookup.js';
import { openDatabase } from '../../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../../adapters/persistence/mikro-orm/database.js';
import { SqlFileMigrator } from '../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { SqlRecordLookup } from '../../adapters/persistence/mikro-orm/sql-record-lookup.js';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { parseConfig } from '../../composition/config.js';
import { TEST_APP_KEY, useEngines } from '../support/databases.js';
import { recordLookupContract } from './record-lookup.contract.js';
import { join } from 'node:path';

recordLookupContract('in-memory', () => {
  const lookup = new InMemoryRecordLookup(['users']);
  let nextId = 1;
  return Promise.resolve({
    lookup,
    addUser: (email: string) => {
      const id = nextId++;
      lookup.insert('users', { id, name: 'Someone', email, password: null });
      return Promise.resolve(id);
    },
  });
});

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
    recordLookupContract(`SQL on ${engine.name}`, async () => {
      await database.raw.session((sql) => sql.exec('DELETE FROM users'));
      return {
        lookup: new SqlRecordLookup(database.raw),
        addUser: (email: string) =>
          database.raw.session(async (sql) => {
            const at = new Date('2026-03-01T10:00:00.000Z');
            await sql.query('INSERT INTO users (name, email, password, created_at, updated_at) VALUES (?, ?, ?, ?, ?)', ['Someone', email, null, at, at]);
            const [row] = await sql.query<{ id: number | string }>('SELECT id FROM users WHERE email = ?', [email]);
            if (row === undefined) throw new Error(`the user ${email} was not inserted`);
            return Number(row.id); // PostgreSQL returns a bigint as text
          }),
      };
    });
  });
}
