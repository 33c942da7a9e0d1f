import { beforeEach, describe, expect, it } from 'vitest';
import type { LinkedAccountData } from '../../domain/oauth/callback-outcome.js';
import type { NewUser } from '../../domain/users/user.js';
import type { LinkedAccount, LinkedAccounts } from '../../ports/linked-accounts.js';
import type { UserRepository } from '../../ports/user-repository.js';

/** A store over empty `users` and `oauth_accounts`, and the user repository over the same rows. */
export interface LinkedAccountsUnderTest {
  accounts: LinkedAccounts;
  users: UserRepository;
  /** The same store on a second pool of the same database (another process); absent in memory. */
  sibling?: LinkedAccounts;
}

export type FreshLinkedAccounts = () => Promise<LinkedAccountsUnderTest>;

const T0 = new Date('2026-03-01T12:00:00.123Z');
const T1 = new Date('2026-03-02T08:30:15.456Z');
const A = 'provider_a';
const B = 'provider_b';
const ENABLED = [A, B];

function account(provider: string, providerUserId: string, email: string | null = `${providerUserId}@example.com`): LinkedAccountData {
  return { provider, providerUserId, email, name: `Person ${providerUserId}`, pictureUrl: `https://pics.example.com/${providerUserId}.png` };
}

/** What `newUser` makes for a social sign-up: no password, the address verified. */
function socialUser(email: string): NewUser {
  return { name: 'New Person', email, passwordHash: null, emailVerifiedAt: T0, sessionEpoch: 0, createdAt: T0, updatedAt: T0 };
}

function expected(userId: number, data: LinkedAccountData, createdAt = T0, updatedAt = createdAt): LinkedAccount {
  return { ...data, userId, createdAt, updatedAt };
}

/**
 * What every `LinkedAccounts` must do, on memory, SQLite and PostgreSQL, so the use cases'
 * unit tests on memory hold on the databases too, races included.
 */
export function linkedAccountsContract(name: string, fresh: FreshLinkedAccounts): void {
  describe(`LinkedAccounts contract: ${name}`, () => {
    let accounts: LinkedAccounts;
    let users: UserRepository;
    /** Half of each race goes through the second pool where there is one. */
    let racer: (index: number) => LinkedAccounts;
    let ada: number;
    let bob: number;

    async function addUser(email: string, withPassword: boolean): Promise<number> {
      const added = await users.add({ ...socialUser(email), passwordHash: withPassword ? '$argon2id$v=19$m=19456,t=2,p=1$c2FsdA$aGFzaA' : null });
      if (added.kind !== 'added') throw new Error(`${email} not added`);
      return added.user.id;
    }

    beforeEach(async () => {
      const made = await fresh();
      ({ accounts, users } = made);
      const sibling = made.sibling ?? made.accounts;
      racer = (index) => (index % 2 === 0 ? made.accounts : sibling);
      ada = await addUser('ada@example.com', true);
      bob = await addUser('bob@example.com', false);
    });

    it('links, finds by provider account, and lists the user’s links in the order made', async () => {
      expect(await accounts.link(ada, account(A, 'a-1'), T0)).toEqual({ kind: 'linked', account: expected(ada, account(A, 'a-1')) });
      expect(await accounts.link(ada, account(B, 'b-1', null), T1)).toEqual({ kind: 'linked', account: expected(ada, account(B, 'b-1', null), T1) });
      const found = await accounts.findByProviderAccount(A, 'a-1');
      expect(found).toEqual(expected(ada, account(A, 'a-1')));
      expect(found?.createdAt.getTime()).toBe(T0.getTime());
      expect(await accounts.findByProviderAccount(B, 'a-1')).toBeNull();
      expect(await accounts.findByProviderAccount(A, 'nobody')).toBeNull();
      expect(await accounts.listOfUser(ada)).toEqual([expected(ada, account(A, 'a-1')), expected(ada, account(B, 'b-1', null), T1)]);
      expect(await accounts.listOfUser(bob)).toEqual([]);
    });

    it('lists every link by user then provider, a page at a time', async () => {
      await accounts.link(bob, account(B, 'bob-b'), T0);
      await accounts.link(ada, account(B, 'ada-b'), T0);
      await accounts.link(bob, account(A, 'bob-a'), T0);
      await accounts.link(ada, account(A, 'ada-a'), T0);
      const ids = (links: LinkedAccount[]): string[] => links.map((link) => link.providerUserId);
      expect(ids(await accounts.list({ limit: 10, offset: 0 }))).toEqual(['ada-a', 'ada-b', 'bob-a', 'bob-b']);
      expect(ids(await accounts.list({ limit: 2, offset: 1 }))).toEqual(['ada-b', 'bob-a']);
      expect(await accounts.list({ limit: 10, offset: 4 })).toEqual([]);
    });

    it("refreshes what the provider says now, keeping the link and its 'since'", async () => {
      await accounts.link(ada, account(A, 'a-1'), T0);
      const now = { provider: A, providerUserId: 'a-1', email: 'new@example.com', name: null, pictureUrl: null };
      await accounts.refresh(now, T1);
      expect(await accounts.findByProviderAccount(A, 'a-1')).toEqual({ ...now, userId: ada, createdAt: T0, updatedAt: T1 });
      await accounts.refresh(account(A, 'unknown'), T1);
      expect(await accounts.findByProviderAccount(A, 'unknown')).toBeNull();
    });

    it('refuses a provider account linked to someone, and a second account at one provider, as taken', async () => {
      await accounts.link(ada, account(A, 'a-1'), T0);
      expect(await accounts.link(bob, account(A, 'a-1'), T1)).toEqual({ kind: 'taken' });
      expect(await accounts.link(ada, account(A, 'a-1'), T1)).toEqual({ kind: 'taken' });
      expect(await accounts.link(ada, account(A, 'a-2'), T1)).toEqual({ kind: 'taken' });
      expect(await accounts.listOfUser(ada)).toEqual([expected(ada, account(A, 'a-1'))]);
      expect(await accounts.listOfUser(bob)).toEqual([]);
      // The key is the pair: the same id at another provider is another account.
      expect((await accounts.link(bob, account(B, 'a-1'), T1)).kind).toBe('linked');
    });

    it('refuses to link to a user who does not exist', async () => {
      await expect(accounts.link(999_999, account(A, 'a-1'), T0)).rejects.toThrow();
      expect(await accounts.findByProviderAccount(A, 'a-1')).toBeNull();
    });

    it('registers a verified, password-less user and links them, together', async () => {
      const result = await accounts.registerAndLink(socialUser('grace@example.com'), account(A, 'g-1'), T1);
      if (result.kind !== 'registered') throw new Error(`not registered: ${result.kind}`);
      expect(result.account).toEqual(expected(result.user.id, account(A, 'g-1'), T1));
      const user = await users.findById(result.user.id);
      expect(user?.toProps()).toEqual({ ...socialUser('grace@example.com'), id: result.user.id });
      expect(user?.hasPassword()).toBe(false);
      expect(user?.emailVerifiedAt?.getTime()).toBe(T0.getTime());
      expect(result.user.toProps()).toEqual(user?.toProps());
      expect(await accounts.listOfUser(result.user.id)).toEqual([result.account]);
    });

    it('makes no user when the provider account is taken', async () => {
      await accounts.link(ada, account(A, 'a-1'), T0);
      expect(await accounts.registerAndLink(socialUser('grace@example.com'), account(A, 'a-1'), T1)).toEqual({ kind: 'taken' });
      expect(await users.findByEmail('grace@example.com')).toBeNull();
      expect(await users.count()).toBe(2);
    });

    it('makes no user and no link when the address is registered, whatever its case', async () => {
      expect(await accounts.registerAndLink(socialUser('ADA@Example.com'), account(A, 'a-1'), T1)).toEqual({ kind: 'duplicate-email' });
      expect(await accounts.findByProviderAccount(A, 'a-1')).toBeNull();
      expect(await users.count()).toBe(2);
    });

    describe('unlink', () => {
      it('unlinks the only provider of a user with a password', async () => {
        await accounts.link(ada, account(A, 'a-1'), T0);
        expect(await accounts.unlink(ada, A, ENABLED)).toEqual({ kind: 'unlinked' });
        expect(await accounts.listOfUser(ada)).toEqual([]);
        expect(await accounts.unlink(ada, A, ENABLED)).toEqual({ kind: 'not-linked' });
      });

      it('unlinks one of two enabled providers of a password-less user, then refuses the last', async () => {
        await accounts.link(bob, account(A, 'a-1'), T0);
        await accounts.link(bob, account(B, 'b-1'), T0);
        expect(await accounts.unlink(bob, A, ENABLED)).toEqual({ kind: 'unlinked' });
        expect(await accounts.unlink(bob, B, ENABLED)).toEqual({ kind: 'only-way-to-log-in' });
        expect(await accounts.listOfUser(bob)).toEqual([expected(bob, account(B, 'b-1'))]);
      });

      it('does not count a link at a provider that is no longer enabled', async () => {
        await accounts.link(bob, account(A, 'a-1'), T0);
        await accounts.link(bob, account('retired', 'r-1'), T0);
        expect(await accounts.unlink(bob, A, ENABLED)).toEqual({ kind: 'only-way-to-log-in' });
        expect(await accounts.unlink(bob, A, [])).toEqual({ kind: 'only-way-to-log-in' });
        expect(await accounts.listOfUser(bob)).toHaveLength(2);
        expect(await accounts.unlink(ada, A, [])).toEqual({ kind: 'not-linked' });
      });

      it('says not linked for a provider the user has no account at, or a user who does not exist', async () => {
        await accounts.link(bob, account(A, 'a-1'), T0);
        expect(await accounts.unlink(bob, B, ENABLED)).toEqual({ kind: 'not-linked' });
        expect(await accounts.unlink(ada, A, ENABLED)).toEqual({ kind: 'not-linked' });
        expect(await accounts.unlink(999_999, A, ENABLED)).toEqual({ kind: 'not-linked' });
        expect(await accounts.findByProviderAccount(A, 'a-1')).not.toBeNull();
      });
    });

    it('forgets the links of a deleted user, freeing the provider account', async () => {
      await accounts.link(bob, account(A, 'a-1'), T0);
      await accounts.link(bob, account(B, 'b-1'), T0);
      expect(await users.remove(bob)).toBe(true);
      expect(await accounts.findByProviderAccount(A, 'a-1')).toBeNull();
      expect(await accounts.listOfUser(bob)).toEqual([]);
      expect(await accounts.list({ limit: 10, offset: 0 })).toEqual([]);
      expect((await accounts.link(ada, account(A, 'a-1'), T1)).kind).toBe('linked');
    });

    describe('races', () => {
      it('links one provider account to exactly one of ten users linking it at once', async () => {
        const ids = await Promise.all(Array.from({ length: 10 }, (_, i) => addUser(`racer${i}@example.com`, false)));
        const results = await Promise.all(ids.map((id, i) => racer(i).link(id, account(A, 'contested'), T0)));
        const winners = results.flatMap((result, i) => (result.kind === 'linked' ? [ids[i]] : []));
        expect(winners).toHaveLength(1);
        expect(results.filter((result) => result.kind === 'taken')).toHaveLength(9);
        expect((await accounts.findByProviderAccount(A, 'contested'))?.userId).toBe(winners[0]);
      });

      it('registers exactly one user when ten sign-ups of one person race', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => racer(i).registerAndLink(socialUser('grace@example.com'), account(A, 'g-1'), T0)),
        );
        const registered = results.flatMap((result) => (result.kind === 'registered' ? [result.user.id] : []));
        expect(registered).toHaveLength(1);
        expect(results.every((result) => ['registered', 'taken', 'duplicate-email'].includes(result.kind))).toBe(true);
        expect((await users.findByEmail('grace@example.com'))?.id).toBe(registered[0]);
        expect((await accounts.findByProviderAccount(A, 'g-1'))?.userId).toBe(registered[0]);
        expect(await users.count()).toBe(3);
      });

      it('leaves no stray user behind when sign-ups of one provider account with different addresses race', async () => {
        const results = await Promise.all(
          Array.from({ length: 10 }, (_, i) => racer(i).registerAndLink(socialUser(`grace${i}@example.com`), account(A, 'g-1'), T0)),
        );
        expect(results.filter((result) => result.kind === 'registered')).toHaveLength(1);
        expect(results.filter((result) => result.kind === 'taken')).toHaveLength(9);
        expect(await users.count()).toBe(3);
      });

      it('never lets two racing unlinks leave a password-less user without a way in', async () => {
        // Repeated: a lost race shows only when both statements overlap, which one round may miss.
        for (let round = 0; round < 15; round += 1) {
          const user = await addUser(`unlinker${round}@example.com`, false);
          await accounts.link(user, account(A, `a-${round}`), T0);
          await accounts.link(user, account(B, `b-${round}`), T0);
          const results = await Promise.all([racer(0).unlink(user, A, ENABLED), racer(1).unlink(user, B, ENABLED)]);
          expect(results.filter((result) => result.kind === 'unlinked').length).toBeLessThanOrEqual(1);
          expect(results.filter((result) => result.kind === 'only-way-to-log-in').length).toBeGreaterThanOrEqual(1);
          expect(await accounts.listOfUser(user)).toHaveLength(1);
        }
      });
    });
  });
}
