import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { TestApp } from '../../../composition/testing.js';
import { TOKENS } from '../../../composition/tokens.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { useEngines } from '../../support/databases.js';

const NOW = new Date('2026-11-24T12:00:00.000Z');

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`cache:prune on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      app = TestApp.create({
        clock: new FixedClock(NOW),
        environment: { DATABASE_URL: engine.url(), CACHE_STORE: 'database' },
        build: (options) => createWelcomeApp(App.create(options)),
      });
      expect((await app.call('migrate')).code).toBe(0);
    });
    afterAll(() => app.close());

    const raw = async () => (await app.app.services()).get(TOKENS.database).raw;
    const keys = async () => (await (await raw()).session((sql) => sql.query<{ key: string }>('SELECT key FROM cache ORDER BY key'))).map((row) => row.key);

    it('deletes every expired row, in batches past the first thousand, and keeps live and never-expiring rows', async () => {
      await (await raw()).session(async (sql) => {
        // 2 345 expired rows in a few multi-row statements: one statement per row took over 20 s
        // on PostgreSQL when the machine was busy.
        for (let start = 0; start < 2345; start += 500) {
          const rows = Array.from({ length: Math.min(500, 2345 - start) }, (_, offset) => start + offset);
          await sql.query(
            `INSERT INTO cache (key, value, expires_at) VALUES ${rows.map(() => '(?, ?, ?)').join(', ')}`,
            rows.flatMap((i) => [`old-${i}`, '1', new Date(NOW.getTime() - 1000 - i)]),
          );
        }
        await sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['at-now', '1', NOW]);
        await sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['live', '1', new Date(NOW.getTime() + 1)]);
        await sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['forever', '1', null]);
      });
      const result = await app.call('cache:prune');
      // A row expiring at this very instant is expired: every read treats it as absent already.
      expect(result).toEqual({ code: 0, stdout: 'Deleted 2346 expired cache entries.', stderr: '' });
      expect(await keys()).toEqual(['forever', 'live']);
      expect((await app.call('cache:prune')).stdout).toBe('Deleted 0 expired cache entries.');
    }, 60_000);

    it('says so when CACHE_STORE is not the database, and still empties the table of expired rows', async () => {
      const other = TestApp.create({
        clock: new FixedClock(NOW),
        environment: { DATABASE_URL: engine.url(), CACHE_STORE: 'memory' },
        build: (options) => createWelcomeApp(App.create(options)),
      });
      try {
        // Starts from an empty table, whatever the test before left.
        await (await raw()).session((sql) => sql.query('DELETE FROM cache'));
        await (await raw()).session((sql) => sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['left-over', '1', new Date(NOW.getTime() - 1)]));
        const result = await other.call('cache:prune');
        expect(result.stdout).toBe('Deleted 1 expired cache entry.\nCACHE_STORE is memory: its entries expire by themselves; only the table of CACHE_STORE=database was pruned.');
      } finally {
        await other.close();
      }
    }, 60_000);
  });
}
