import { beforeEach, describe, expect, it } from 'vitest';
import { Registered } from '../../../../domain/auth/events.js';
import { AccountLinked } from '../../../../domain/oauth/events.js';
import type { User } from '../../../../domain/users/user.js';
import { makeWorld } from './oauth-world.js';
import type { World } from './oauth-world.js';

/**
 * The spec's 'Outcome of a callback' table, row by row, through `StartSignIn` and
 * `CompleteSignIn` with the in-memory stores: what the use case writes, returns and tells.
 * The decision itself is tested table by table in tests/unit/domain/oauth.
 */
const ANN = { id: 'acct-ann', email: 'ann@example.com', verified: true, name: 'Ann Lee' } as const;

describe("CompleteSignIn: the spec's 'Outcome of a callback' table", () => {
  let world: World;

  beforeEach(() => {
    world = makeWorld();
  });

  it('This provider account is already linked to a user → that user is logged in, whatever address the provider reports now', async () => {
    const ann = await world.addUser({ email: 'ann@example.com' });
    expect((await world.signIn(ANN)).outcome.kind).toBe('link-and-log-in');
    world.events.published.length = 0;
    world.clock.advance(60_000);

    // The provider now reports another, unverified address: the link still decides.
    const result = await world.signIn({ id: ANN.id, email: 'someone-else@example.com', verified: false, name: 'Ann B. Lee' });

    expect(result.outcome).toMatchObject({ kind: 'log-in', userId: ann.id, landing: 'intended', notice: null });
    expect(result.user?.id).toBe(ann.id);
    expect(result.logReason).toBeNull();
    // The row keeps its 'since' and stores what the provider says now.
    const [row] = await world.links.listOfUser(ann.id);
    expect(row).toMatchObject({ email: 'someone-else@example.com', name: 'Ann B. Lee', createdAt: new Date('2026-03-01T12:00:00Z'), updatedAt: world.clock.now() });
    // LoggedInWith and LoggedIn are the HTTP layer's, after the two-factor decision.
    expect(world.events.published).toEqual([]);
  });

  it('a returning user whose profile did not change costs no write to oauth_accounts', async () => {
    const ann = await world.addUser({ email: 'ann@example.com' });
    await world.signIn(ANN);
    world.clock.advance(60_000);
    const [before] = await world.links.listOfUser(ann.id);

    expect((await world.signIn(ANN)).outcome.kind).toBe('log-in');

    const [after] = await world.links.listOfUser(ann.id);
    expect(after?.updatedAt).toEqual(before?.updatedAt);
  });

  describe('Not linked; the provider did not verify the address or gave none → refused; nothing linked, no account made', () => {
    it.each([
      ['an unverified address', { id: 'acct-x', email: 'ann@example.com', verified: false }],
      ['no address', { id: 'acct-x', email: null, verified: true }],
      ['a malformed address claimed verified', { id: 'acct-x', email: 'not an address', verified: true }],
    ])('%s', async (_label, person) => {
      await world.addUser({ email: 'ann@example.com' });
      const before = await world.snapshot();

      const result = await world.signIn(person);

      expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'unverified-email', landing: 'login' });
      expect(result.user).toBeNull();
      expect(await world.snapshot()).toEqual(before);
    });
  });

  it("Not linked; a user has this address and that user's own address is verified, and the provider verified it → linked to that user; the user is logged in", async () => {
    const ann = await world.addUser({ email: 'Ann@Example.com' });

    // The provider spells the address in another case: addresses compare case-insensitively.
    const result = await world.signIn({ ...ANN, email: 'ANN@example.COM' });

    expect(result.outcome).toMatchObject({ kind: 'link-and-log-in', userId: ann.id, landing: 'intended', remember: false });
    expect(result.user?.id).toBe(ann.id);
    expect(await world.links.listOfUser(ann.id)).toMatchObject([{ provider: 'provider_a', providerUserId: ANN.id, email: 'ann@example.com' }]);
    expect(world.events.published).toEqual([new AccountLinked(ann.id, 'provider_a')]);
  });

  it("Not linked; a user has this address but that user's address is not verified → refused, with the advice to log in with the password and link from the account page", async () => {
    await world.addUser({ email: 'ann@example.com', verified: false });
    const before = await world.snapshot();

    const result = await world.signIn(ANN);

    expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'email-owner-unverified', landing: 'login' });
    expect(result.outcome.notice).toEqual({ level: 'error', code: 'email-owner-unverified' });
    expect(await world.snapshot()).toEqual(before);
  });

  it('Not linked; nobody has the address; registration is open → a new user is made (no password, address verified), linked and logged in', async () => {
    const result = await world.signIn(ANN, { remember: '1' });

    expect(result.outcome).toMatchObject({ kind: 'register', remember: true, landing: 'intended', user: { name: 'Ann Lee', email: 'ann@example.com' } });
    const user = result.user as User;
    expect(user).not.toBeNull();
    expect(user.hasPassword()).toBe(false);
    expect(user.isVerified()).toBe(true);
    expect(user.emailVerifiedAt).toEqual(world.clock.now());
    expect((await world.users.findByEmail('ann@example.com'))?.id).toBe(user.id);
    expect(await world.links.listOfUser(user.id)).toMatchObject([{ provider: 'provider_a', providerUserId: ANN.id }]);
    // Through Auth's onRegistered hook, then the Registered event as after /register.
    expect(world.registrations).toEqual([{ name: 'Ann Lee', email: 'ann@example.com', provider: 'provider_a' }]);
    expect(world.events.published).toEqual([new Registered(user.id, 'Ann Lee', 'ann@example.com', 'provider_a'), new AccountLinked(user.id, 'provider_a')]);
  });

  it("a new user without a name at the provider is named after the address's local part", async () => {
    const result = await world.signIn({ id: 'acct-1', email: 'grace.h@example.com', verified: true, name: null });
    expect(result.user?.name).toBe('grace.h');
  });

  it('Not linked; nobody has the address; Auth.withoutRegistration() is set → refused with the message that no account uses this address', async () => {
    const result = await world.signIn(ANN, { registrationOpen: false });

    expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'registration-closed', notice: { level: 'error', code: 'registration-closed' } });
    expect(result.user).toBeNull();
    expect(await world.snapshot()).toEqual({ users: 0, links: [], events: 0 });
    expect(world.registrations).toEqual([]);
  });

  describe('A logged-in user returns (they pressed Link) → linked to them, unless linked to someone else or they already have an account at this provider; the address does not matter', () => {
    it('links, whatever address the provider reports', async () => {
      const bob = await world.addUser({ email: 'bob@example.com' });

      const result = await world.signIn({ id: 'acct-bob', email: 'other@elsewhere.example', verified: false }, { visitor: bob });

      expect(result.outcome).toMatchObject({ kind: 'link', userId: bob.id, landing: 'account', notice: { level: 'success' } });
      expect(result.user?.id).toBe(bob.id);
      expect(await world.links.listOfUser(bob.id)).toMatchObject([{ provider: 'provider_a', providerUserId: 'acct-bob', email: 'other@elsewhere.example' }]);
      expect(world.events.published).toEqual([new AccountLinked(bob.id, 'provider_a')]);
    });

    it('unless the provider account is linked to someone else: refused, nothing changes', async () => {
      const ann = await world.addUser({ email: 'ann@example.com' });
      const bob = await world.addUser({ email: 'bob@example.com' });
      await world.links.link(ann.id, { provider: 'provider_a', providerUserId: ANN.id, email: null, name: null, pictureUrl: null }, world.clock.now());
      const before = await world.snapshot();

      const result = await world.signIn(ANN, { visitor: bob });

      expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'linked-to-another-user', landing: 'account' });
      expect(result.user).toBeNull();
      expect(await world.snapshot()).toEqual(before);
    });

    it('unless they already have an account at this provider: refused, nothing changes', async () => {
      const bob = await world.addUser({ email: 'bob@example.com' });
      await world.signIn({ id: 'acct-bob-1', email: 'bob@example.com', verified: true }, { visitor: bob });
      const before = await world.snapshot();

      const result = await world.signIn({ id: 'acct-bob-2', email: 'bob@example.com', verified: true }, { visitor: bob });

      expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'provider-already-linked', landing: 'account' });
      expect(await world.snapshot()).toEqual(before);
    });

    it('the same provider account again: nothing to do, said as info', async () => {
      const bob = await world.addUser({ email: 'bob@example.com' });
      await world.signIn({ id: 'acct-bob', email: null }, { visitor: bob });
      const before = await world.snapshot();

      const result = await world.signIn({ id: 'acct-bob', email: null }, { visitor: bob });

      expect(result.outcome).toMatchObject({ kind: 'already-linked', userId: bob.id, notice: { level: 'info' } });
      expect(result.user?.id).toBe(bob.id);
      expect(await world.snapshot()).toEqual(before);
    });
  });

  describe('A logged-in user returns after ?intent=confirm → the user is treated as having confirmed their identity', () => {
    it("with the user's own provider account: confirmed, nothing written", async () => {
      const social = await world.addUser({ email: 'social@example.com', password: false });
      await world.signIn({ id: 'acct-s', email: 'social@example.com', verified: true }, { visitor: social });
      const before = await world.snapshot();

      const result = await world.signIn({ id: 'acct-s', email: 'social@example.com', verified: true }, { visitor: social, intent: 'confirm' });

      expect(result.outcome).toMatchObject({ kind: 'confirm', userId: social.id, landing: 'intended', notice: null });
      expect(result.user?.id).toBe(social.id);
      expect(await world.snapshot()).toEqual(before);
    });

    it('with a provider account that is not theirs: refused back to /confirm-password, and confirming never links', async () => {
      const social = await world.addUser({ email: 'social@example.com', password: false });
      const before = await world.snapshot();

      const result = await world.signIn({ id: 'acct-new', email: 'social@example.com', verified: true }, { visitor: social, intent: 'confirm' });

      expect(result.outcome).toMatchObject({ kind: 'refused', reason: 'not-linked-to-you', landing: 'confirm-password' });
      expect(await world.snapshot()).toEqual(before);
    });
  });

  it('a guest\'s sign-in that returns after someone logged in in this session does nothing (nobody is switched)', async () => {
    const bob = await world.addUser({ email: 'bob@example.com' });
    const started = await world.redirect();
    if (started.kind !== 'redirect') throw new Error('setup');
    const { code } = world.protocol.approve(ANN);
    const before = await world.snapshot();

    const result = await world.callback({ query: { code, state: started.url.searchParams.get('state') ?? '' }, visitor: bob });

    expect(result).toMatchObject({ kind: 'done', outcome: { kind: 'refused', reason: 'already-logged-in' }, user: null });
    expect(await world.snapshot()).toEqual(before);
  });

  it('a Link that returns to a session of another user is refused as try again', async () => {
    const bob = await world.addUser({ email: 'bob@example.com' });
    const eve = await world.addUser({ email: 'eve@example.com' });
    const started = await world.redirect({ visitor: bob });
    if (started.kind !== 'redirect') throw new Error('setup');
    const { code } = world.protocol.approve(ANN);

    const result = await world.callback({ query: { code, state: started.url.searchParams.get('state') ?? '' }, visitor: eve });

    expect(result).toMatchObject({ kind: 'done', outcome: { kind: 'refused', reason: 'visitor-changed', log: 'warn' } });
    expect(await world.links.list({ limit: 10, offset: 0 })).toEqual([]);
  });
});
