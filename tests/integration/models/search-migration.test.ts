import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm-secret-box.js';
import { Db } from '../../../adapters/persistence/mikro-orm/models/db.js';
import { SqlFileMigrator } from '../../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { CryptoRandomSource } from '../../../adapters/random/crypto-random-source.js';
import { App, column, createTableSql, defineModel, key, searchMigration } from '../../../composition/index.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import { useMigratedDatabase } from '../../support/migrated-database.js';

/*
 * The search index's migration registered in code (`app.migrations(searchMigration(...))`):
 * it runs after the table's own migration file, on each engine, and rolls back.
 */
const Article = defineModel('sm_articles', { id: key.integer(), title: column.string(), body: column.string() }, { search: ['title', 'body'] });

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`search migration made in code on ${engine.name}`, () => {
    const database = useMigratedDatabase(engine);
    const root = useTempDir('fw-search-migration-');
    let app: App;

    beforeAll(() => {
      mkdirSync(join(root(), 'migrations'));
      writeFileSync(join(root(), 'migrations', '20261125100000_sm_articles.up.sql'), createTableSql(Article, 'sqlite'));
      writeFileSync(join(root(), 'migrations', '20261125100000_sm_articles.postgres.up.sql'), createTableSql(Article, 'postgres'));
      writeFileSync(join(root(), 'migrations', '20261125100000_sm_articles.down.sql'), 'DROP TABLE "sm_articles";');
      app = App.create({ root: root() }).migrations(searchMigration(Article, '20261125100001_sm_articles_search'));
    });

    it('runs after the table, keeps the index current, and rolls back', async () => {
      const migrator = new SqlFileMigrator(database().raw, app.migrationSources(), new FixedClock('2026-11-25T10:00:00Z'));
      const result = await migrator.migrate();
      expect(result.ran).toEqual(['20261125100000_sm_articles', '20261125100001_sm_articles_search']);
      const db = await Db.open(database(), { models: [Article], box: new AesGcmSecretBox(Buffer.alloc(32, 1), new CryptoRandomSource()), clock: new FixedClock('2026-11-25T10:00:00Z') });
      await db.query(Article).insertMany([
        { title: 'Gardening', body: 'roses and tulips' },
        { title: 'Cooking', body: 'gardens of herbs' },
      ]);
      expect(await db.query(Article).search('garden').pluck('title')).toEqual(['Gardening', 'Cooking']);
      await db.sql('update sm_articles set body = ? where title = ?', ['nothing green', 'Cooking']).fetchAs();
      expect(await db.query(Article).search('garden').pluck('title')).toEqual(['Gardening']);
      // The (created_at, id) index that newest-first search pages and ties walk comes with it.
      const latestIndex = engine.name === 'sqlite' ? `select name from sqlite_master where type = 'index' and name = ?` : 'select indexname as name from pg_indexes where indexname = ?';
      expect(await db.sql(latestIndex, ['sm_articles_search_latest']).fetchAs()).toHaveLength(1);
      expect(searchMigration(defineModel('sm_plain', { id: key.integer(), title: column.string() }, { search: ['title'], timestamps: false }), '20261125100002_sm_plain_search').files.map((file) => file.sql).join('')).not.toMatch(/_latest/u);
      // One batch: the index goes first, then its table.
      expect(await migrator.rollback(1)).toEqual(['20261125100001_sm_articles_search', '20261125100000_sm_articles']);
      await expect(db.query(Article).count()).rejects.toThrow();
      expect(await db.sql(latestIndex, ['sm_articles_search_latest']).fetchAs()).toHaveLength(0);
    });

    it('refuses a name that is not a migration name', () => {
      expect(() => searchMigration(Article, 'articles_search')).toThrow(/14-digit timestamp/u);
      expect(() => searchMigration(defineModel('x', { id: key.integer() }), '20261125100001_x')).toThrow(/no search columns/u);
    });
  });
}
