import { beforeEach, describe, expect, it } from 'vitest';
import { STATE_LIFETIME_MS } from '../../../../domain/oauth/limits.js';
import { makeWorld } from './oauth-world.js';
import type { World } from './oauth-world.js';

/**
 * The spec's 'Value of state' table at the use-case level: `StartSignIn` stores it,
 * `CompleteSignIn` takes it. A refused state never reaches the provider's token endpoint.
 */
const ANN = { id: 'acct-ann', email: 'ann@example.com', verified: true, name: 'Ann' };

async function started(world: World, provider = 'provider_a'): Promise<{ state: string; code: string }> {
  const result = await world.redirect({ provider });
  if (result.kind !== 'redirect') throw new Error('setup');
  return { state: result.url.searchParams.get('state') ?? '', code: world.protocol.approve(ANN).code };
}

describe("the spec's 'Value of state' table through the use cases", () => {
  let world: World;

  beforeEach(() => {
    world = makeWorld();
  });

  it('none → oauth.redirect, provider enabled → stored in session', async () => {
    const result = await world.redirect();
    if (result.kind !== 'redirect') throw new Error('not started');
    expect(result.pending).toHaveLength(1);
    expect(result.pending[0]).toMatchObject({ provider: 'provider_a', state: result.url.searchParams.get('state'), startedAt: world.clock.now().getTime() });
  });

  it('stored → callback from the same browser, within ten minutes, same provider, value equal → accepted', async () => {
    const { state, code } = await started(world);
    world.clock.advance(STATE_LIFETIME_MS - 1);

    const result = await world.callback({ query: { code, state } });

    expect(result).toMatchObject({ kind: 'done', outcome: { kind: 'register' }, remainingPending: [] });
    expect(world.protocol.redemptions).toHaveLength(1);
  });

  it('stored → callback from another browser → refused', async () => {
    const { state, code } = await started(world);
    const theirs = world.session;
    world.session = undefined; // another browser: a session without this sign-in

    const result = await world.callback({ query: { code, state } });

    expect(result).toMatchObject({ kind: 'done', outcome: { kind: 'refused', reason: 'state-refused', log: 'warn', landing: 'login' }, logReason: 'unknown-state', user: null });
    expect(world.protocol.redemptions).toEqual([]);
    // The other browser's sign-in is untouched and still completes.
    world.session = theirs;
    expect(await world.callback({ query: { code, state } })).toMatchObject({ outcome: { kind: 'register' } });
  });

  it('stored → callback ten minutes or more after the redirect → refused, and removed', async () => {
    const { state, code } = await started(world);
    world.clock.advance(STATE_LIFETIME_MS);

    const result = await world.callback({ query: { code, state } });

    expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused' }, logReason: 'expired', remainingPending: [] });
    expect(world.protocol.redemptions).toEqual([]);
  });

  it('stored → callback for another provider → refused, and removed', async () => {
    const { state, code } = await started(world, 'provider_a');

    const result = await world.callback({ provider: 'provider_b', query: { code, state } });

    expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused' }, logReason: 'other-provider', remainingPending: [] });
    expect(world.protocol.redemptions).toEqual([]);
  });

  it('stored → first callback, any outcome → removed: the same state used twice is refused the second time', async () => {
    const { state, code } = await started(world);
    const first = await world.callback({ query: { code, state } });
    expect(first).toMatchObject({ outcome: { kind: 'register' }, remainingPending: [] });
    const usersBefore = await world.users.count();

    // A replay with the session as it was before (a copied cookie) still finds the code spent at the provider.
    const second = await world.callback({ query: { code, state } });

    expect(second).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused' }, logReason: 'unknown-state' });
    expect(await world.users.count()).toBe(usersBefore);
  });

  it('a copy of the session (an old cookie) presenting a used state is refused before any call to the provider', async () => {
    const { state, code } = await started(world);
    const copy = world.session;
    await world.callback({ query: { code, state } });
    world.session = copy;

    const replay = await world.callback({ query: { code, state } });

    expect(replay).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused' }, logReason: 'already-used' });
    expect(world.protocol.redemptions).toHaveLength(1);
  });

  it('parallel callbacks with one state and one session: exactly one goes on to the provider', async () => {
    const { state, code } = await started(world);
    const results = await Promise.all(Array.from({ length: 8 }, () => world.callback({ query: { code, state } })));
    expect(results.filter((r) => r.kind === 'done' && r.outcome.kind !== 'refused')).toHaveLength(1);
    expect(world.protocol.redemptions).toHaveLength(1);
  });

  it('a wrong outcome removes the state too (the table refused the profile)', async () => {
    const result = await world.redirect();
    if (result.kind !== 'redirect') throw new Error('setup');
    const { code } = world.protocol.approve({ id: 'x', email: 'a@example.com', verified: false });

    const done = await world.callback({ query: { code, state: result.url.searchParams.get('state') ?? '' } });

    expect(done).toMatchObject({ outcome: { kind: 'refused', reason: 'unverified-email' }, remainingPending: [] });
  });

  it("a callback without a state, or with a repeated one, is refused and leaves the other tabs' sign-ins", async () => {
    await started(world);
    const stored = world.session;

    for (const query of [{ code: 'c' }, { code: 'c', state: 'short' }]) {
      world.session = stored;
      const result = await world.callback({ query });
      expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused' }, logReason: 'missing-state' });
      expect(result.kind === 'done' && result.remainingPending).toEqual(stored);
    }
    const repeated = await world.complete.execute({
      provider: 'provider_a',
      query: { code: 'c', state: ['a', 'b'] },
      callbackUrl: new URL('https://app.example/auth/provider_a/callback'),
      storedPending: stored,
      visitor: null,
      registrationOpen: true,
      redirectUri: 'https://app.example/auth/provider_a/callback',
    });
    expect(repeated).toMatchObject({ outcome: { reason: 'state-refused' }, logReason: 'missing-state' });
  });

  it('two tabs: each callback takes its own entry only', async () => {
    const first = await started(world);
    const second = await started(world, 'provider_b');
    expect(world.session).toHaveLength(2);

    const result = await world.callback({ provider: 'provider_b', query: second });

    expect(result.kind === 'done' && result.remainingPending.map((p) => p.state)).toEqual([first.state]);
  });

  it('a state refused for a signed-in visitor lands where a login would, not on the login page', async () => {
    const bob = await world.addUser({ email: 'bob@example.com' });
    const result = await world.callback({ query: { code: 'c', state: 'x'.repeat(43) }, visitor: bob });
    expect(result).toMatchObject({ outcome: { kind: 'refused', reason: 'state-refused', landing: 'intended' } });
  });
});
