import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryTwoFactorStore } from '../../adapters/persistence/memory/in-memory-two-factor-store.js';
import { InMemoryUserRepository } from '../../adapters/persistence/memory/in-memory-user-repository.js';
import { SqlTwoFactorStore } from '../../adapters/persistence/mikro-orm/sql-two-factor-store.js';
import { TWO_FACTOR_OFF } from '../../domain/auth/two-factor.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase } from '../support/migrated-database.js';
import { freshUsers } from '../support/seed-users.js';

const T0 = new Date('2026-03-01T12:00:00.000Z');
const hash = (n: number): string => n.toString(16).padStart(64, '0');
const CODES = [hash(1), hash(2), hash(3)];

interface Made {
  store: TwoFactorStore;
  users: [number, number];
  /** Deletes a user the way the app does, so the store's answers can be checked afterwards. */
  removeUser: (id: number) => Promise<void>;
}

function contract(name: string, fresh: () => Promise<Made>): void {
  describe(`TwoFactorStore contract: ${name}`, () => {
    let store: TwoFactorStore;
    let ada: number;
    let bob: number;
    let removeUser: (id: number) => Promise<void>;
    beforeEach(async () => {
      const made = await fresh();
      store = made.store;
      [ada, bob] = made.users;
      removeUser = made.removeUser;
    });

    async function turnOn(userId: number, step = 100): Promise<void> {
      expect(await store.begin(userId, 'sealed-secret', CODES)).toBe(true);
      expect(await store.confirm(userId, 'sealed-secret', T0, step)).toBe(true);
    }

    it('starts off, and knows no settings of a user that does not exist', async () => {
      expect(await store.find(ada)).toEqual(TWO_FACTOR_OFF);
      expect(await store.find(999_999)).toBeNull();
      expect(await store.begin(999_999, 's', CODES)).toBe(false);
      expect(await store.clear(999_999)).toBe(false);
    });

    it('begins pending, restarts while pending, confirms only the current secret, then refuses to begin again', async () => {
      expect(await store.begin(ada, 'first', CODES)).toBe(true);
      expect(await store.find(ada)).toEqual({ sealedSecret: 'first', recoveryCodeHashes: CODES, confirmedAt: null, lastUsedStep: null });
      expect(await store.begin(ada, 'second', [hash(9)])).toBe(true);
      expect(await store.confirm(ada, 'first', T0, 10)).toBe(false);
      expect(await store.confirm(ada, 'second', T0, 10)).toBe(true);
      expect(await store.confirm(ada, 'second', T0, 11)).toBe(false);
      const on = await store.find(ada);
      expect(on).toEqual({ sealedSecret: 'second', recoveryCodeHashes: [hash(9)], confirmedAt: T0, lastUsedStep: 10 });
      expect(on?.confirmedAt?.getTime()).toBe(T0.getTime());
      expect(await store.begin(ada, 'third', CODES)).toBe(false);
      expect(await store.find(bob)).toEqual(TWO_FACTOR_OFF);
    });

    it('accepts a step only when later than the last one, and only while on', async () => {
      expect(await store.useStep(ada, 5)).toBe(false);
      await turnOn(ada, 100);
      expect(await store.useStep(ada, 100)).toBe(false);
      expect(await store.useStep(ada, 99)).toBe(false);
      expect(await store.useStep(ada, 101)).toBe(true);
      expect(await store.useStep(ada, 101)).toBe(false);
      expect(await store.useStep(ada, 103)).toBe(true);
      expect((await store.find(ada))?.lastUsedStep).toBe(103);
    });

    it('lets only one of concurrent uses of one step through', async () => {
      await turnOn(ada, 100);
      const results = await Promise.all([101, 101, 101, 101].map((step) => store.useStep(ada, step)));
      expect(results.filter(Boolean)).toHaveLength(1);
    });

    it('uses each recovery code once, counts what is left, and only while on', async () => {
      expect(await store.begin(ada, 'sealed-secret', CODES)).toBe(true);
      expect(await store.useRecoveryCode(ada, hash(1))).toBeNull();
      expect(await store.confirm(ada, 'sealed-secret', T0, 1)).toBe(true);
      expect(await store.useRecoveryCode(ada, hash(2))).toBe(2);
      expect(await store.useRecoveryCode(ada, hash(2))).toBeNull();
      expect(await store.useRecoveryCode(ada, hash(7))).toBeNull();
      expect(await store.useRecoveryCode(bob, hash(1))).toBeNull();
      expect((await store.find(ada))?.recoveryCodeHashes).toEqual([hash(1), hash(3)]);
    });

    it('lets one of concurrent uses of a code through, and every use of different codes', async () => {
      await turnOn(ada);
      const same = await Promise.all([1, 1, 1, 1].map((n) => store.useRecoveryCode(ada, hash(n))));
      expect(same.filter((left) => left !== null)).toEqual([2]);
      const different = await Promise.all([2, 3].map((n) => store.useRecoveryCode(ada, hash(n))));
      expect(different.sort()).toEqual([0, 1]);
      expect((await store.find(ada))?.recoveryCodeHashes).toEqual([]);
    });

    it('replaces the recovery codes only while on', async () => {
      expect(await store.replaceRecoveryCodes(ada, [hash(8)])).toBe(false);
      await turnOn(ada);
      expect(await store.replaceRecoveryCodes(ada, [hash(8)])).toBe(true);
      expect(await store.useRecoveryCode(ada, hash(1))).toBeNull();
      expect(await store.useRecoveryCode(ada, hash(8))).toBe(0);
    });

    it('clears everything, after which it can begin again', async () => {
      await turnOn(ada);
      expect(await store.clear(ada)).toBe(true);
      expect(await store.find(ada)).toEqual(TWO_FACTOR_OFF);
      expect(await store.useRecoveryCode(ada, hash(1))).toBeNull();
      expect(await store.begin(ada, 'again', CODES)).toBe(true);
    });

    it('forgets the settings of a deleted user', async () => {
      await turnOn(bob);
      await removeUser(bob);
      expect(await store.find(bob)).toBeNull();
      expect(await store.useStep(bob, 500)).toBe(false);
      expect(await store.useRecoveryCode(bob, hash(1))).toBeNull();
    });
  });
}

contract('in memory', async () => {
  const users = new InMemoryUserRepository();
  const ids: number[] = [];
  for (const email of ['ada@example.com', 'bob@example.com']) {
    const added = await users.add({ name: 'Someone', email, passwordHash: null, emailVerifiedAt: null, sessionEpoch: 0, createdAt: T0, updatedAt: T0 });
    if (added.kind !== 'added') throw new Error('not added');
    ids.push(added.user.id);
  }
  return {
    store: new InMemoryTwoFactorStore(users),
    users: ids as [number, number],
    removeUser: async (id) => {
      await users.remove(id);
    },
  };
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    contract(`SQL on ${engine.name}`, async () => {
      const users = await freshUsers(db().raw, ['ada@example.com', 'bob@example.com']);
      return {
        store: new SqlTwoFactorStore(db().raw),
        users,
        removeUser: async (id) => {
          await db().raw.session((sql) => sql.query('DELETE FROM users WHERE id = ?', [id]));
        },
      };
    });
  });
}
