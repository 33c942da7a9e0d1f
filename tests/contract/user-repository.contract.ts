import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import type { NewUser } from '../../domain/users/user.js';
import type { UserRepository } from '../../ports/user-repository.js';

/** Gives an empty repository: a new one, or the same one emptied. */
export type FreshRepository = () => Promise<UserRepository>;

const at = new Date('2026-03-01T10:00:00.000Z');

function draft(overrides: Partial<NewUser> = {}): NewUser {
  return {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    passwordHash: '$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHQ$aGFzaGhhc2g',
    emailVerifiedAt: null,
    sessionEpoch: 0,
    createdAt: at,
    updatedAt: at,
    ...overrides,
  };
}

/**
 * What every `UserRepository` must do, run against the in-memory adapter and every real one,
 * so the fake used by unit tests cannot drift from the databases.
 */
export function userRepositoryContract(name: string, fresh: FreshRepository): void {
  describe(`UserRepository contract: ${name}`, () => {
    let users: UserRepository;

    beforeEach(async () => {
      users = await fresh();
    });

    it('adds a user and finds it again by id with every field intact', async () => {
      const verifiedAt = new Date('2026-03-02T08:30:15.123Z');
      const added = await users.add(draft({ emailVerifiedAt: verifiedAt, sessionEpoch: 3 }));
      expect(added.kind).toBe('added');
      if (added.kind !== 'added') return;
      expect(added.user.id).toBeGreaterThan(0);
      const found = await users.findById(added.user.id);
      expect(found?.toProps()).toEqual({ ...draft({ emailVerifiedAt: verifiedAt, sessionEpoch: 3 }), id: added.user.id });
      expect(found?.isVerified()).toBe(true);
      expect(found?.hasPassword()).toBe(true);
    });

    it('keeps a password-less user without a password', async () => {
      const added = await users.add(draft({ passwordHash: null }));
      if (added.kind !== 'added') throw new Error('not added');
      const found = await users.findById(added.user.id);
      expect(found?.passwordHash).toBeNull();
      expect(found?.hasPassword()).toBe(false);
    });

    it('finds by email whatever the case and surrounding spaces', async () => {
      await users.add(draft({ email: 'grace@example.com', name: 'Grace' }));
      expect((await users.findByEmail('GRACE@Example.COM'))?.name).toBe('Grace');
      expect((await users.findByEmail('  grace@example.com '))?.name).toBe('Grace');
      expect(await users.findByEmail('nobody@example.com')).toBeNull();
      expect(await users.findByEmail('not an address')).toBeNull();
    });

    it('refuses a second user with the same email as a value, not an exception', async () => {
      await users.add(draft());
      expect(await users.add(draft({ name: 'Impostor' }))).toEqual({ kind: 'duplicate-email' });
      expect(await users.count()).toBe(1);
    });

    it('refuses to save an email that another user already has', async () => {
      await users.add(draft({ email: 'one@example.com' }));
      const second = await users.add(draft({ email: 'two@example.com' }));
      if (second.kind !== 'added') throw new Error('not added');
      second.user.email = 'one@example.com';
      expect(await users.save(second.user)).toEqual({ kind: 'duplicate-email' });
      expect((await users.findById(second.user.id))?.email).toBe('two@example.com');
    });

    it('changes nothing until save, then persists the change', async () => {
      const added = await users.add(draft());
      if (added.kind !== 'added') throw new Error('not added');
      const later = new Date('2026-03-05T00:00:00.000Z');
      const user = (await users.findById(added.user.id))!;
      user.markVerified(later);
      expect((await users.findById(added.user.id))?.isVerified()).toBe(false);
      expect(await users.save(user)).toEqual({ kind: 'saved' });
      const reloaded = await users.findById(added.user.id);
      expect(reloaded?.emailVerifiedAt).toEqual(later);
      expect(reloaded?.updatedAt).toEqual(later);
    });

    it('never lowers the session epoch when a copy loaded before a raise is saved', async () => {
      const added = await users.add(draft());
      if (added.kind !== 'added') throw new Error('not added');
      const stale = (await users.findById(added.user.id))!;
      expect(await users.raiseSessionEpoch(added.user.id, at)).toBe(1);
      stale.markVerified(at);
      stale.sessionEpoch = 0;
      await users.save(stale);
      expect((await users.findById(added.user.id))?.sessionEpoch).toBe(1);
    });

    it('lists in id order, a page at a time, and counts', async () => {
      for (const n of [1, 2, 3, 4, 5]) await users.add(draft({ email: `user${n}@example.com`, name: `User ${n}` }));
      expect(await users.count()).toBe(5);
      expect((await users.list({ limit: 2, offset: 0 })).map((u) => u.name)).toEqual(['User 1', 'User 2']);
      expect((await users.list({ limit: 2, offset: 4 })).map((u) => u.name)).toEqual(['User 5']);
      expect(await users.list({ limit: 10, offset: 5 })).toEqual([]);
    });

    it('raises the session epoch atomically: concurrent raises all count', async () => {
      const added = await users.add(draft());
      if (added.kind !== 'added') throw new Error('not added');
      const later = new Date('2026-03-02T10:00:00.000Z');
      const epochs = await Promise.all([1, 2, 3, 4, 5].map(() => users.raiseSessionEpoch(added.user.id, later)));
      expect([...epochs].sort()).toEqual([1, 2, 3, 4, 5]);
      const stored = await users.findById(added.user.id);
      expect(stored?.sessionEpoch).toBe(5);
      expect(stored?.updatedAt.getTime()).toBe(later.getTime());
      expect(await users.raiseSessionEpoch(added.user.id + 1000, later)).toBeNull();
    });

    it('removes a user once', async () => {
      const added = await users.add(draft());
      if (added.kind !== 'added') throw new Error('not added');
      expect(await users.remove(added.user.id)).toBe(true);
      expect(await users.remove(added.user.id)).toBe(false);
      expect(await users.findById(added.user.id)).toBeNull();
      expect(await users.add(draft())).toMatchObject({ kind: 'added' });
    });

    it('keeps names and emails exactly as given, whatever the characters', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.string({ minLength: 1, maxLength: 60, unit: 'grapheme' }).filter((s) => s.trim() !== '' && !s.includes('\u0000')),
          fc.stringMatching(/^[a-z0-9._-]{1,20}$/u),
          async (name, local) => {
            users = await fresh();
            const added = await users.add(draft({ name, email: `${local}@example.org` }));
            if (added.kind !== 'added') return false;
            const found = await users.findByEmail(`${local.toUpperCase()}@EXAMPLE.ORG`);
            return found?.name === name && found.id === added.user.id;
          },
        ),
        { numRuns: 25 },
      );
    });
  });
}
