import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { SqlSession } from '../../adapters/persistence/mikro-orm/raw-sql.js';
import { TestApp } from '../../composition/testing.js';
import { TOKENS } from '../../composition/tokens.js';
import { useEngines } from '../support/databases.js';

/**
 * The rules the built-in tables keep by themselves, whoever writes to them: the same on
 * SQLite and PostgreSQL.
 */
for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`built-in tables on ${engine.name}`, () => {
    let app: TestApp;
    let run: <T>(work: (sql: SqlSession) => Promise<T>) => Promise<T>;
    const now = new Date('2026-05-01T12:00:00.000Z');

    beforeAll(async () => {
      app = TestApp.create({ environment: { DATABASE_URL: engine.url() } });
      await app.call('migrate:fresh');
      const db = (await app.app.services()).get(TOKENS.database);
      run = (work) => db.raw.session(work);
    });
    afterAll(() => app.close());

    async function userId(email: string): Promise<number> {
      const created = await app.call('user:create', ['--email', email, '--name', 'Someone']);
      expect(created.code).toBe(0);
      const rows = await run((sql) => sql.query<{ id: number | string }>('SELECT id FROM users WHERE email = ?', [email]));
      return Number(rows[0]?.id);
    }

    it('refuses two users whose emails differ only in case, even written by hand', async () => {
      await userId('case@example.com');
      await expect(
        run((sql) => sql.query('INSERT INTO users (name, email, session_epoch, created_at, updated_at) VALUES (?, ?, 0, ?, ?)', ['X', 'CASE@example.com', now, now])),
      ).rejects.toThrow(/unique/iu);
    });

    it('links a provider account to one user, and a user to one account per provider', async () => {
      const alice = await userId('alice@example.com');
      const bob = await userId('bob@example.com');
      const link = (user: number, provider: string, providerUserId: string) =>
        run((sql) =>
          sql.query(
            'INSERT INTO oauth_accounts (user_id, provider, provider_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
            [user, provider, providerUserId, now, now],
          ),
        );
      await link(alice, 'provider_a', '1001');
      await expect(link(bob, 'provider_a', '1001')).rejects.toThrow(/unique/iu);
      await expect(link(alice, 'provider_a', '2002')).rejects.toThrow(/unique/iu);
      await link(alice, 'provider_b', '1001');
      await link(bob, 'provider_a', '2002');
    });

    it('deletes what belongs to a deleted user and keeps the audit trail', async () => {
      const carol = await userId('carol@example.com');
      await run(async (sql) => {
        await sql.query(
          'INSERT INTO sessions (id, user_id, payload, last_activity, expires_at) VALUES (?, ?, ?, ?, ?)',
          ['hash-of-session-id', carol, '{}', now, now],
        );
        await sql.query(
          'INSERT INTO oauth_accounts (user_id, provider, provider_user_id, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
          [carol, 'provider_b', 'carol-at-b', now, now],
        );
        await sql.query('INSERT INTO password_reset_tokens (user_id, token_hash, created_at) VALUES (?, ?, ?)', [carol, 'token-hash', now]);
        await sql.query('INSERT INTO activity_log (event, user_id, created_at) VALUES (?, ?, ?)', ['oauth.linked', carol, now]);
      });

      expect((await app.call('user:delete', ['carol@example.com'])).code).toBe(0);

      const count = (table: string) =>
        run(async (sql) => Number((await sql.query<{ n: number | string }>(`SELECT COUNT(*) AS n FROM ${table} WHERE user_id = ?`, [carol]))[0]?.n));
      expect(await count('sessions')).toBe(0);
      expect(await count('oauth_accounts')).toBe(0);
      expect(await count('password_reset_tokens')).toBe(0);
      expect(await count('activity_log')).toBe(1);
    });

    it('keeps a cache value with and without an expiry', async () => {
      await run(async (sql) => {
        await sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['limit:1', '3', now]);
        await sql.query('INSERT INTO cache (key, value, expires_at) VALUES (?, ?, ?)', ['forever', 'x', null]);
      });
      await expect(run((sql) => sql.query('INSERT INTO cache (key, value) VALUES (?, ?)', ['forever', 'y']))).rejects.toThrow(/unique|primary/iu);
    });
  });
}
