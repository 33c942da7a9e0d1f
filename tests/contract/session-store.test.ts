import { beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { InMemorySessionStore } from '../../adapters/persistence/memory/in-memory-session-store.js';
import { InMemoryTokenVerifier } from '../../adapters/persistence/memory/in-memory-token-verifier.js';
import { SqlSessionStore } from '../../adapters/persistence/mikro-orm/sql-session-store.js';
import { SqlTokenVerifier } from '../../adapters/persistence/mikro-orm/sql-token-verifier.js';
import { Session } from '../../domain/session/session.js';
import type { SessionStore, StoredSession } from '../../ports/session-store.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { freshUsers } from '../support/seed-users.js';

const T0 = new Date('2026-03-01T12:00:00Z');
const MINUTE = 60_000;
const TOKEN = 'A'.repeat(43);

function stored(userId: number | null, expiresInMinutes: number, now = T0): StoredSession {
  const session = Session.start({ token: TOKEN, now });
  session.put('cart', [1, 2, 3]);
  if (userId !== null) session.login(userId, { epoch: 0, now, newToken: 'B'.repeat(43) });
  const snapshot = session.commit(now);
  return { snapshot, userId, ipAddress: '203.0.113.9', userAgent: 'Test/1.0', lastActivity: now, expiresAt: new Date(now.getTime() + expiresInMinutes * MINUTE) };
}

/** What every SessionStore must do, on memory and on each database. */
function sessionStoreContract(name: string, fresh: () => Promise<{ store: SessionStore; userIds: [number, number] }>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let store: SessionStore;
    let ada: number;
    let bob: number;
    beforeEach(async () => {
      const made = await fresh();
      store = made.store;
      [ada, bob] = made.userIds;
    });

    it('gives back what was written, until it expires', async () => {
      const row = stored(ada, 120);
      await store.write('key-1', row);
      expect(await store.read('key-1', T0)).toEqual(row.snapshot);
      expect(await store.read('key-1', new Date(T0.getTime() + 119 * MINUTE))).toEqual(row.snapshot);
      expect(await store.read('key-1', new Date(T0.getTime() + 120 * MINUTE))).toBeNull();
      expect(await store.read('unknown', T0)).toBeNull();
    });

    it('overwrites a key in place, and destroys it', async () => {
      await store.write('key-1', stored(null, 10));
      const again = stored(ada, 60);
      await store.write('key-1', again);
      expect(await store.read('key-1', T0)).toEqual(again.snapshot);
      await store.destroy('key-1');
      expect(await store.read('key-1', T0)).toBeNull();
      await store.destroy('key-1');
    });

    it("ends every session of one user, and only that user's", async () => {
      await store.write('ada-1', stored(ada, 60));
      await store.write('ada-2', stored(ada, 60));
      await store.write('bob-1', stored(bob, 60));
      await store.write('guest', stored(null, 60));
      expect(await store.destroyOthersOf(ada, 'ada-2')).toBe(1);
      expect(await store.read('ada-2', T0)).not.toBeNull();
      expect(await store.destroyOthersOf(ada, null)).toBe(1);
      expect(await store.read('ada-2', T0)).toBeNull();
      expect(await store.read('bob-1', T0)).not.toBeNull();
      expect(await store.read('guest', T0)).not.toBeNull();
    });

    it("lists one user's live sessions, the most recently active first, without their keys", async () => {
      const earlier = stored(ada, 60);
      const later = stored(ada, 60, new Date(T0.getTime() + 5 * MINUTE));
      await store.write('ada-earlier', earlier);
      await store.write('ada-later', later);
      await store.write('ada-expired', stored(ada, 5));
      await store.write('bob-1', stored(bob, 60));
      await store.write('guest', stored(null, 60));

      const listed = await store.listOf(ada, new Date(T0.getTime() + 10 * MINUTE));
      expect(listed).toEqual([
        { snapshot: later.snapshot, ipAddress: '203.0.113.9', userAgent: 'Test/1.0', lastActivity: later.lastActivity, expiresAt: later.expiresAt },
        { snapshot: earlier.snapshot, ipAddress: '203.0.113.9', userAgent: 'Test/1.0', lastActivity: earlier.lastActivity, expiresAt: earlier.expiresAt },
      ]);
      expect(JSON.stringify(listed)).not.toContain('ada-');
      expect(await store.listOf(bob + ada + 100, T0)).toEqual([]);
    });

    it('prunes expired sessions only', async () => {
      await store.write('short', stored(null, 5));
      await store.write('long', stored(null, 500));
      expect(await store.prune(new Date(T0.getTime() + 10 * MINUTE))).toBe(1);
      expect(await store.read('long', T0)).not.toBeNull();
      expect(await store.prune(new Date(T0.getTime() + 10 * MINUTE))).toBe(0);
    });
  });
}

sessionStoreContract('in memory', () => Promise.resolve({ store: new InMemorySessionStore(), userIds: [1, 2] }));

describe('InMemoryTokenVerifier', () => {
  it('signs in the tokens added, with their abilities, until revoked', async () => {
    const tokens = new InMemoryTokenVerifier().add('t1', { userId: 3, abilities: ['orders:read', 'orders:read'] });
    expect(await tokens.verify('t1')).toEqual({ userId: 3, abilities: ['orders:read'] });
    expect(await tokens.verify('t2')).toBeNull();
    tokens.revoke('t1');
    expect(await tokens.verify('t1')).toBeNull();
  });
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    const addUsers = () => freshUsers(db().raw, ['ada@example.com', 'bob@example.com'], ['sessions', 'api_tokens']);

    sessionStoreContract(`SQL on ${engine.name}`, async () => ({ store: new SqlSessionStore(db().raw), userIds: await addUsers() }));

    describe(`SqlTokenVerifier on ${engine.name}`, () => {
      it('issues `<id>|<secret>` once, stores only a hash, and verifies with abilities and expiry', async () => {
        const [ada] = await addUsers();
        const clock = new FixedClock(T0);
        const tokens = new SqlTokenVerifier(db().raw, clock, new CryptoRandomSource());
        const unrestricted = await tokens.issue(ada, 'cli');
        const reader = await tokens.issue(ada, 'reader', { abilities: ['orders:read'], expiresAt: new Date(T0.getTime() + 60 * MINUTE) });
        expect(unrestricted).toMatch(/^\d+\|[A-Za-z0-9_-]{54}$/u);
        expect(await tokens.verify(unrestricted)).toEqual({ userId: ada, abilities: null });
        expect(await tokens.verify(reader)).toEqual({ userId: ada, abilities: ['orders:read'] });

        const rows = await db().raw.session((sql) => sql.query<{ token_hash: string }>('SELECT token_hash FROM api_tokens'));
        for (const row of rows) expect([unrestricted, reader].some((token) => token.includes(row.token_hash))).toBe(false);

        const [id, secret = ''] = reader.split('|');
        const flipped = `${id}|${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
        expect(await tokens.verify(flipped)).toBeNull();
        expect(await tokens.verify(`${Number(id) + 100}|${secret}`)).toBeNull();

        clock.advance(61 * MINUTE);
        expect(await tokens.verify(reader)).toBeNull();
        expect(await tokens.revoke(unrestricted)).toBe(true);
        expect(await tokens.verify(unrestricted)).toBeNull();
      });
    });
  });
}
