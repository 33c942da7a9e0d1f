import { describe, expect, it } from 'vitest';
import { MAX_PENDING_SIGN_INS, RANDOM_BYTES } from '../../../../domain/oauth/limits.js';
import { pkceChallenge } from '../../../../domain/oauth/pkce.js';
import { Credentials } from '../../../../domain/oauth/credentials.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';
import { fakeProvider, makeWorld } from './oauth-world.js';

describe('StartSignIn (oauth.redirect)', () => {
  it("redirects to the provider's authorization URL with state and the S256 challenge; the verifier stays in the session", async () => {
    const world = makeWorld();

    const result = await world.redirect({ provider: 'provider_b' });

    if (result.kind !== 'redirect') throw new Error(result.kind);
    const [pending] = result.pending;
    expect(pending).toBeDefined();
    expect(result.url.searchParams.get('state')).toBe(pending?.state);
    expect(result.url.searchParams.get('code_challenge')).toBe(pkceChallenge(pending?.verifier ?? ''));
    expect(result.url.searchParams.get('code_challenge_method')).toBe('S256');
    expect(result.url.href).not.toContain(pending?.verifier);
    expect(world.protocol.authorizations[0]).toMatchObject({
      redirectUri: 'https://app.example/auth/provider_b/callback',
      credentials: { clientId: 'provider_b-id', clientSecret: 'provider_b-secret' },
      nonce: null,
    });
  });

  it(`draws ${RANDOM_BYTES} random bytes for state and verifier, and a nonce only for an OpenID provider`, async () => {
    const world = makeWorld();

    const plain = await world.redirect({ provider: 'provider_b' });
    expect(world.random.lengths).toEqual([RANDOM_BYTES, RANDOM_BYTES]);
    expect(plain.kind === 'redirect' && plain.pending[0]?.nonce).toBeNull();

    const openId = await world.redirect({ provider: 'provider_a' });
    expect(world.random.lengths).toEqual([RANDOM_BYTES, RANDOM_BYTES, RANDOM_BYTES, RANDOM_BYTES, RANDOM_BYTES]);
    if (openId.kind !== 'redirect') throw new Error(openId.kind);
    const nonce = openId.pending[1]?.nonce;
    expect(nonce).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(openId.url.searchParams.get('nonce')).toBe(nonce);
  });

  it('fixes what the sign-in is for: a guest logs in (remember=1 kept), a user links, or confirms with ?intent=confirm', async () => {
    const world = makeWorld();
    const bob = await world.addUser({ email: 'bob@example.com' });

    await world.redirect({ remember: '1' });
    await world.redirect({ visitor: bob, remember: '1' });
    await world.redirect({ visitor: bob, intent: 'confirm' });
    await world.redirect({ intent: 'confirm' });

    expect((world.session as { intent: string; userId: number | null; remember: boolean }[]).map(({ intent, userId, remember }) => ({ intent, userId, remember }))).toEqual([
      // At most MAX_PENDING_SIGN_INS are kept: the first went.
      { intent: 'link', userId: bob.id, remember: false },
      { intent: 'confirm', userId: bob.id, remember: false },
      { intent: 'login', userId: null, remember: false },
    ]);
    expect(MAX_PENDING_SIGN_INS).toBe(3);
  });

  it('a second tab adds its sign-in beside the first; the start time comes from the clock', async () => {
    const world = makeWorld();
    await world.redirect();
    world.clock.advance(5_000);
    const second = await world.redirect({ provider: 'provider_b' });

    if (second.kind !== 'redirect') throw new Error(second.kind);
    expect(second.pending.map((p) => [p.provider, p.startedAt])).toEqual([
      ['provider_a', new Date('2026-03-01T12:00:00Z').getTime()],
      ['provider_b', new Date('2026-03-01T12:00:05Z').getTime()],
    ]);
  });

  it('a provider that is not registered, or has no credentials now, is not found (404) and nothing is drawn or stored', async () => {
    const world = makeWorld({
      providers: (protocol) => [fakeProvider(protocol, 'provider_c', { credentials: Credentials.fromConfig('PROVIDER_C') })],
    });

    expect(await world.redirect({ provider: 'provider_c' })).toEqual({ kind: 'not-found' });
    expect(await world.redirect({ provider: 'nope' })).toEqual({ kind: 'not-found' });
    expect(world.random.lengths).toEqual([]);
    expect(world.session).toBeUndefined();

    // Settings are read when a request needs them: once configured, the same app starts it.
    world.settings.values.set('PROVIDER_C_CLIENT_ID', 'id').set('PROVIDER_C_CLIENT_SECRET', 'secret');
    expect(await world.redirect({ provider: 'provider_c' })).toMatchObject({ kind: 'redirect' });
  });

  it("the protocol fails (discovery down) → 'failed' with the reason for the log and 'try again' for the page; the session is left as it was", async () => {
    const world = makeWorld();
    const bob = await world.addUser({ email: 'bob@example.com' });
    world.protocol.failAuthorization = new SignInFailed('discovery answered 502');

    const guest = await world.start.execute({ provider: 'provider_a', query: {}, visitorUserId: null, storedPending: ['kept'], redirectUri: 'https://app.example/cb' });
    expect(guest).toEqual({ kind: 'failed', reason: 'discovery answered 502', landing: 'login', notice: { level: 'error', code: 'try-again' } });

    world.protocol.failAuthorization = new TypeError('fetch failed');
    expect(await world.redirect({ visitor: bob })).toMatchObject({ kind: 'failed', reason: 'TypeError: fetch failed', landing: 'account' });
    expect(await world.redirect({ visitor: bob, intent: 'confirm' })).toMatchObject({ kind: 'failed', landing: 'confirm-password' });
    expect(world.session).toBeUndefined();
  });
});
