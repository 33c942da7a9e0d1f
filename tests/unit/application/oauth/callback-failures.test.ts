import { describe, expect, it } from 'vitest';
import type { LinkedAccountData } from '../../../../domain/oauth/callback-outcome.js';
import type { Profile } from '../../../../domain/oauth/profile.js';
import { AccountLinked } from '../../../../domain/oauth/events.js';
import type { NewUser } from '../../../../domain/users/user.js';
import type { LinkedAccounts } from '../../../../ports/linked-accounts.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';
import { fakeProvider, makeWorld, NO_HTTP } from './oauth-world.js';
import type { World } from './oauth-world.js';

/**
 * 'Any failure during sign-in: the visitor sees a try-again message; the reason is logged at
 * warn', and what must hold on the way: the state is spent, nothing is half-made, and the code
 * and the token appear in no result, event or row.
 */
const ANN = { id: 'acct-ann', email: 'ann@example.com', verified: true, name: 'Ann' };

async function begin(world: World): Promise<{ state: string; code: string; accessToken: string }> {
  const result = await world.redirect();
  if (result.kind !== 'redirect') throw new Error('setup');
  return { state: result.url.searchParams.get('state') ?? '', ...world.protocol.approve(ANN) };
}

function expectTryAgain(result: unknown, logReason: string | RegExp): void {
  expect(result).toMatchObject({
    kind: 'done',
    outcome: { kind: 'refused', reason: 'failed', log: 'warn', landing: 'login', notice: { level: 'error', code: 'try-again' } },
    remainingPending: [],
    user: null,
  });
  const reason = (result as { logReason: string }).logReason;
  if (typeof logReason === 'string') expect(reason).toBe(logReason);
  else expect(reason).toMatch(logReason);
}

describe('CompleteSignIn: failures during sign-in', () => {
  it("the protocol throws (token endpoint down) → refused 'failed', state removed, nothing written", async () => {
    const world = makeWorld();
    const { state, code } = await begin(world);
    world.protocol.failRedeem = new SignInFailed('token endpoint answered 503');

    const result = await world.callback({ query: { code, state } });

    expectTryAgain(result, 'token endpoint answered 503');
    expect(await world.snapshot()).toEqual({ users: 0, links: [], events: 0 });
    expect(world.registered[0]?.profileCalls ?? []).toEqual([]);
  });

  it('an unexpected error (a bad profile answer) is logged as its class and message', async () => {
    const world = makeWorld({ providers: (protocol) => [fakeProvider(protocol, 'provider_a', { profileError: () => new TypeError('profile.id is missing') })] });
    const { state, code } = await begin(world);

    const result = await world.callback({ query: { code, state } });

    expectTryAgain(result, 'TypeError: profile.id is missing');
    expect(await world.snapshot()).toEqual({ users: 0, links: [], events: 0 });
  });

  it("a custom provider's profile without a usable id is a bad answer: try again, nothing made", async () => {
    const world = makeWorld({
      providers: (protocol) => [
        { ...fakeProvider(protocol, 'provider_a'), profile: () => Promise.resolve({ providerUserId: ' ', emailAddress: 'ann@example.com', emailVerified: true } as unknown as Profile) },
      ],
    });
    const { state, code } = await begin(world);

    expectTryAgain(await world.callback({ query: { code, state } }), 'the profile has no usable provider user id');
    expect(await world.snapshot()).toEqual({ users: 0, links: [], events: 0 });
  });

  it("the provider's error answers: a cancel says try again at info, another error at warn; neither redeems anything", async () => {
    const world = makeWorld();
    const denied = await begin(world);
    expect(await world.callback({ query: { error: 'access_denied', state: denied.state } })).toMatchObject({
      outcome: { kind: 'refused', reason: 'denied', log: 'info', notice: { code: 'try-again' } },
      logReason: null,
      remainingPending: [],
    });
    const broken = await begin(world);
    expect(await world.callback({ query: { error: 'server_error', state: broken.state } })).toMatchObject({
      outcome: { kind: 'refused', reason: 'failed', log: 'warn' },
      logReason: 'provider error server_error',
    });
    expect(world.protocol.redemptions).toEqual([]);
  });

  it("the code is redeemed with the pending sign-in's verifier, nonce and state, and the profile is read once with the app's HTTP client", async () => {
    const world = makeWorld();
    const { state, code, accessToken } = await begin(world);
    const [pending] = world.session as { verifier: string; nonce: string }[];

    await world.callback({ query: { code, state } });

    expect(world.protocol.redemptions).toHaveLength(1);
    expect(world.protocol.redemptions[0]).toMatchObject({
      state,
      codeVerifier: pending?.verifier,
      nonce: pending?.nonce,
      redirectUri: 'https://app.example/auth/provider_a/callback',
      credentials: { clientId: 'provider_a-id', clientSecret: 'provider_a-secret' },
    });
    expect(world.protocol.redemptions[0]?.callbackUrl.searchParams.get('code')).toBe(code);
    const calls = world.registered[0]?.profileCalls ?? [];
    expect(calls).toHaveLength(1);
    expect(calls[0]?.http).toBe(NO_HTTP);
    expect(calls[0]?.token.accessToken).toBe(accessToken);
  });

  describe('the token is used once and dropped: it appears in no result, event or stored row', () => {
    it('on success', async () => {
      const world = makeWorld();
      const { state, code, accessToken } = await begin(world);

      const result = await world.callback({ query: { code, state } });

      expect(result).toMatchObject({ outcome: { kind: 'register' } });
      const everything = JSON.stringify([result, world.events.published, await world.links.list({ limit: 10, offset: 0 }), await world.users.list({ limit: 10, offset: 0 })]);
      expect(everything).not.toContain(accessToken);
      expect(everything).not.toContain(code);
    });

    it('on failure, even when an error message quotes the token or the code', async () => {
      let token = '';
      const world = makeWorld({
        providers: (protocol) => [fakeProvider(protocol, 'provider_a', { profileError: () => new Error(`401 for Bearer ${token}`) })],
      });
      const begun = await begin(world);
      token = begun.accessToken;

      const result = await world.callback({ query: { code: begun.code, state: begun.state } });
      expectTryAgain(result, 'Error: 401 for Bearer [redacted]');

      const again = await begin(world);
      world.protocol.failRedeem = new SignInFailed(`invalid_grant for code ${again.code}`);
      const second = await world.callback({ query: { code: again.code, state: again.state } });
      expectTryAgain(second, 'invalid_grant for code [redacted]');
      expect(JSON.stringify([result, second])).not.toContain(token);
    });
  });
});

/** A store that lets a racing request write first, right before the use case's own write. */
function racing(before: { link?: (links: LinkedAccounts) => Promise<unknown>; register?: (links: LinkedAccounts) => Promise<unknown> }) {
  return (links: LinkedAccounts): LinkedAccounts => ({
    findByProviderAccount: (provider, id) => links.findByProviderAccount(provider, id),
    listOfUser: (userId) => links.listOfUser(userId),
    list: (page) => links.list(page),
    refresh: (account, now) => links.refresh(account, now),
    unlink: (userId, provider, enabled) => links.unlink(userId, provider, enabled),
    async link(userId: number, account: LinkedAccountData, now: Date) {
      await before.link?.(links);
      return links.link(userId, account, now);
    },
    async registerAndLink(user: NewUser, account: LinkedAccountData, now: Date) {
      await before.register?.(links);
      return links.registerAndLink(user, account, now);
    },
  });
}

const ROW = (providerUserId: string): LinkedAccountData => ({ provider: 'provider_a', providerUserId, email: null, name: null, pictureUrl: null });

describe('CompleteSignIn: a racing request wrote first (the unique keys have the last word)', () => {
  it('registerAndLink says taken → try again, nothing half-made: no user, no hook, no event', async () => {
    const world: World = makeWorld({
      wrapLinks: racing({
        register: async (links) => {
          const other = await world.addUser({ email: 'first@example.com' });
          await links.link(other.id, ROW(ANN.id), world.clock.now());
        },
      }),
    });
    const { state, code } = await begin(world);

    const result = await world.callback({ query: { code, state } });

    expectTryAgain(result, 'registration raced another request (taken)');
    expect(await world.users.count()).toBe(1); // the racer's user only
    expect(await world.users.findByEmail('ann@example.com')).toBeNull();
    expect(world.registrations).toEqual([]);
    expect(world.events.published).toEqual([]);
  });

  it('registerAndLink says duplicate-email → try again, nothing half-made', async () => {
    const world: World = makeWorld({ wrapLinks: racing({ register: () => world.addUser({ email: 'ann@example.com', verified: false }) }) });
    const { state, code } = await begin(world);

    const result = await world.callback({ query: { code, state } });

    expectTryAgain(result, 'registration raced another request (duplicate-email)');
    expect(await world.links.list({ limit: 10, offset: 0 })).toEqual([]);
    expect(world.registrations).toEqual([]);
    expect(world.events.published).toEqual([]);
  });

  it("link says taken because the provider account went to another user → 'linked-to-another-user', no event", async () => {
    const world: World = makeWorld({
      wrapLinks: racing({
        link: async (links) => {
          const other = await world.addUser({ email: 'other@example.com' });
          await links.link(other.id, ROW('acct-bob'), world.clock.now());
        },
      }),
    });
    const bob = await world.addUser({ email: 'bob@example.com' });

    const result = await world.signIn({ id: 'acct-bob', email: null }, { visitor: bob });

    expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'linked-to-another-user', landing: 'account' }, user: null });
    expect(result.logReason).toMatch(/unique key/u);
    expect(world.events.published).toEqual([]);
  });

  it("link says taken because the user got another account at this provider → 'provider-already-linked'", async () => {
    let bobId = 0;
    const world: World = makeWorld({ wrapLinks: racing({ link: (links) => links.link(bobId, ROW('acct-bob-other'), world.clock.now()) }) });
    const bob = await world.addUser({ email: 'bob@example.com' });
    bobId = bob.id;

    const result = await world.signIn({ id: 'acct-bob', email: null }, { visitor: bob });

    expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'provider-already-linked' } });
    expect(await world.links.listOfUser(bob.id)).toMatchObject([{ providerUserId: 'acct-bob-other' }]);
    expect(world.events.published).toEqual([]);
  });

  it('a racing callback that made this very link counts as done, and its request told the event', async () => {
    let annId = 0;
    const world: World = makeWorld({ wrapLinks: racing({ link: (links) => links.link(annId, ROW(ANN.id), world.clock.now()) }) });
    const ann = await world.addUser({ email: 'ann@example.com' });
    annId = ann.id;

    const result = await world.signIn(ANN);

    expect(result).toMatchObject({ outcome: { kind: 'link-and-log-in', userId: ann.id }, user: { id: ann.id } });
    expect(world.events.published).not.toContainEqual(new AccountLinked(ann.id, 'provider_a'));
  });

  it("the linked user deleted between the lookup and the login → try again, nobody logged in", async () => {
    const wrap = (links: LinkedAccounts): LinkedAccounts => ({
      ...racing({})(links),
      async refresh(account, now) {
        await links.refresh(account, now);
      },
      async findByProviderAccount(provider, id) {
        const row = await links.findByProviderAccount(provider, id);
        if (row !== null) await world.users.remove(row.userId);
        return row;
      },
    });
    const world: World = makeWorld({ wrapLinks: wrap });
    const ann = await world.addUser({ email: 'ann@example.com' });
    await world.links.link(ann.id, ROW(ANN.id), world.clock.now());

    const result = await world.signIn(ANN);

    expectTryAgain(result, 'the linked user was deleted meanwhile');
  });
});
