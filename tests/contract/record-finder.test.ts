import { describe } from 'vitest';
import { InMemoryRecordFinder } from '../../adapters/persistence/memory/in-memory-record-finder.js';
import { SqlRecordFinder } from '../../adapters/persistence/mikro-orm/sql-record-finder.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { recordFinderContract } from './record-finder.contract.js';
import type { PostRow } from './record-finder.contract.js';

recordFinderContract('in-memory', () => {
  const finder = new InMemoryRecordFinder(['posts', 'things']);
  let nextId = 1;
  return Promise.resolve({
    finder,
    addPost: (post: PostRow) => {
      const id = nextId++;
      finder.insert('posts', { id, slug: post.slug, team_id: post.team_id, deleted_at: post.deleted ? 1_700_000_000_000 : null });
      return Promise.resolve(id);
    },
    addThing: (id: string, name: string) => {
      finder.insert('things', { id, name });
      return Promise.resolve();
    },
  });
});

const TABLES = {
  sqlite: [
    'CREATE TABLE posts (id INTEGER PRIMARY KEY AUTOINCREMENT, slug TEXT NOT NULL, team_id INTEGER NOT NULL, deleted_at INTEGER NULL)',
    'CREATE TABLE things (id TEXT PRIMARY KEY, name TEXT NOT NULL)',
  ],
  postgres: [
    'CREATE TABLE posts (id SERIAL PRIMARY KEY, slug TEXT NOT NULL, team_id INTEGER NOT NULL, deleted_at TIMESTAMPTZ NULL)',
    'CREATE TABLE things (id UUID PRIMARY KEY, name TEXT NOT NULL)',
  ],
};

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    recordFinderContract(`SQL on ${engine.name}`, async () => {
      await db().raw.session(async (sql) => {
        await sql.exec('DROP TABLE IF EXISTS posts; DROP TABLE IF EXISTS things;');
        for (const statement of TABLES[engine.name]) await sql.exec(statement);
      });
      return {
        finder: new SqlRecordFinder(db().raw),
        addPost: (post: PostRow) =>
          db().raw.session(async (sql) => {
            const deletedAt = post.deleted ? new Date('2026-03-01T10:00:00.000Z') : null;
            const [row] = await sql.query<{ id: number | string }>('INSERT INTO posts (slug, team_id, deleted_at) VALUES (?, ?, ?) RETURNING id', [post.slug, post.team_id, deletedAt]);
            if (row === undefined) throw new Error(`the post ${post.slug} was not inserted`);
            return Number(row.id);
          }),
        addThing: (id: string, name: string) =>
          db().raw.session(async (sql) => {
            await sql.query('INSERT INTO things (id, name) VALUES (?, ?)', [id, name]);
          }),
      };
    });
  });
}
