import { describe } from 'vitest';
import { InMemoryRecordLookup } from '../../adapters/persistence/memory/in-memory-record-lookup.js';
import { SqlRecordLookup } from '../../adapters/persistence/mikro-orm/sql-record-lookup.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { recordLookupContract } from './record-lookup.contract.js';

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
    const db = useMigratedDatabase(engine);
    recordLookupContract(`SQL on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM users'));
      return {
        lookup: new SqlRecordLookup(db().raw),
        addUser: (email: string) =>
          db().raw.session(async (sql) => {
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
