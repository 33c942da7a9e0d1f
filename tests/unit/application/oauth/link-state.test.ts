import { beforeEach, describe, expect, it } from 'vitest';
import { InProcessEventBus } from '../../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import { InMemoryActivityLog } from '../../../../adapters/persistence/memory/in-memory-activity-log.js';
import { RecordActivity } from '../../../../application/audit/record-activity.js';
import { Credentials } from '../../../../domain/oauth/credentials.js';
import { AccountLinked, AccountUnlinked } from '../../../../domain/oauth/events.js';
import type { User } from '../../../../domain/users/user.js';
import { fakeProvider, makeWorld } from './oauth-world.js';
import type { World } from './oauth-world.js';

/**
 * The spec's 'Link state of a provider account' table through `CompleteSignIn` and
 * `UnlinkProvider`, with the Audit listener on the bus: the events fire and the log entries
 * are written when the state moves, and nothing changes when it is refused.
 */
describe("the spec's 'Link state of a provider account' table through the use cases", () => {
  let world: World;
  let activity: InMemoryActivityLog;

  beforeEach(() => {
    activity = new InMemoryActivityLog();
    const bus = new InProcessEventBus(new MemoryLogger());
    const audit = new RecordActivity(activity, { now: () => world.clock.now() });
    for (const type of RecordActivity.EVENTS) bus.listen(type, (event) => audit.record(event, { ipAddress: '203.0.113.9', requestId: 'req-1' }));
    world = makeWorld({
      bus,
      providers: (protocol) => [
        fakeProvider(protocol, 'provider_a', { openId: true }),
        fakeProvider(protocol, 'provider_b'),
        // Registered, but without credentials: off.
        fakeProvider(protocol, 'provider_off', { credentials: Credentials.fromConfig('PROVIDER_OFF') }),
      ],
    });
  });

  const entries = async () => (await activity.recent({ limit: 50 })).reverse().map(({ action, userId, data, ipAddress, requestId }) => ({ action, userId, data, ipAddress, requestId }));

  describe('unlinked → callback (sign-in or Link), rows above allow it → linked; AccountLinked event; log entry oauth.linked', () => {
    it('by a first sign-in', async () => {
      const ann = await world.addUser({ email: 'ann@example.com' });
      await world.signIn({ id: 'acct-ann', email: 'ann@example.com', verified: true });
      expect(world.events.published).toEqual([new AccountLinked(ann.id, 'provider_a')]);
      expect(await entries()).toEqual([{ action: 'oauth.linked', userId: ann.id, data: { provider: 'provider_a' }, ipAddress: '203.0.113.9', requestId: 'req-1' }]);
    });

    it('by Link on the account page', async () => {
      const bob = await world.addUser({ email: 'bob@example.com' });
      await world.signIn({ id: 'acct-bob', email: null }, { provider: 'provider_b', visitor: bob });
      expect(world.events.published).toEqual([new AccountLinked(bob.id, 'provider_b')]);
      expect(await entries()).toMatchObject([{ action: 'oauth.linked', userId: bob.id, data: { provider: 'provider_b' } }]);
    });

    it('not when the rows above refuse it: nothing changes, nothing is told', async () => {
      await world.addUser({ email: 'ann@example.com', verified: false });
      await world.signIn({ id: 'acct-ann', email: 'ann@example.com', verified: true });
      expect(await world.snapshot()).toMatchObject({ links: [], events: 0 });
      expect(await entries()).toEqual([]);
    });
  });

  describe('linked → oauth.unlink by the owner, the user has a password or another linked provider → unlinked; AccountUnlinked; log entry oauth.unlinked', () => {
    it('with a password', async () => {
      const bob = await world.addUser({ email: 'bob@example.com', password: true });
      await world.signIn({ id: 'acct-bob', email: null }, { visitor: bob });

      const result = await world.unlink.execute({ userId: bob.id, provider: 'provider_a' });

      expect(result).toEqual({ kind: 'unlinked', provider: 'provider_a', notice: { level: 'success', code: 'unlinked' } });
      expect(await world.links.listOfUser(bob.id)).toEqual([]);
      expect(world.events.published.at(-1)).toEqual(new AccountUnlinked(bob.id, 'provider_a'));
      expect((await entries()).map((e) => e.action)).toEqual(['oauth.linked', 'oauth.unlinked']);
      expect((await entries())[1]).toMatchObject({ userId: bob.id, data: { provider: 'provider_a' } });
    });

    it('without a password, with another enabled provider linked', async () => {
      const social = await socialUserWith(world, ['provider_a', 'provider_b']);

      expect(await world.unlink.execute({ userId: social.id, provider: 'provider_a' })).toMatchObject({ kind: 'unlinked' });
      expect((await world.links.listOfUser(social.id)).map((l) => l.provider)).toEqual(['provider_b']);
      expect(world.events.published.at(-1)).toEqual(new AccountUnlinked(social.id, 'provider_a'));
    });
  });

  describe("linked → oauth.unlink, it is the user's only provider and the user has no password → linked (refused); nothing changes", () => {
    it('refused with the reason, the row stays, no event, no log entry', async () => {
      const social = await socialUserWith(world, ['provider_a']);
      const before = await world.snapshot();
      const logged = await entries();

      const result = await world.unlink.execute({ userId: social.id, provider: 'provider_a' });

      expect(result).toEqual({ kind: 'refused', reason: 'only-way-to-log-in', notice: { level: 'error', code: 'only-way-to-log-in' } });
      expect(await world.snapshot()).toEqual(before);
      expect(await entries()).toEqual(logged);
    });

    it('a link at a provider without credentials is no way in, so it does not count', async () => {
      const social = await socialUserWith(world, ['provider_a']);
      await world.links.link(social.id, { provider: 'provider_off', providerUserId: 'off-1', email: null, name: null, pictureUrl: null }, world.clock.now());

      expect(await world.unlink.execute({ userId: social.id, provider: 'provider_a' })).toMatchObject({ kind: 'refused', reason: 'only-way-to-log-in' });
    });
  });

  it('unlink of a provider the user has no account at: refused, nothing told', async () => {
    const bob = await world.addUser({ email: 'bob@example.com' });
    expect(await world.unlink.execute({ userId: bob.id, provider: 'provider_b' })).toMatchObject({ kind: 'refused', reason: 'not-linked', notice: { code: 'not-linked' } });
    expect(world.events.published).toEqual([]);
  });

  it('unlink of a provider that is not enabled, or not registered: not found (404)', async () => {
    const bob = await world.addUser({ email: 'bob@example.com' });
    expect(await world.unlink.execute({ userId: bob.id, provider: 'provider_off' })).toEqual({ kind: 'not-found' });
    expect(await world.unlink.execute({ userId: bob.id, provider: 'provider_z' })).toEqual({ kind: 'not-found' });
  });

  it('two unlinks racing for a password-less user\'s two providers: one goes, the other is refused', async () => {
    const social = await socialUserWith(world, ['provider_a', 'provider_b']);

    const results = await Promise.all([world.unlink.execute({ userId: social.id, provider: 'provider_a' }), world.unlink.execute({ userId: social.id, provider: 'provider_b' })]);

    expect(results.map((r) => r.kind).sort()).toEqual(['refused', 'unlinked']);
    expect(await world.links.listOfUser(social.id)).toHaveLength(1);
    expect(world.events.published.filter((e) => e instanceof AccountUnlinked)).toHaveLength(1);
  });
});

/** A user made by a social login (no password), with accounts at `providers`. */
async function socialUserWith(world: World, providers: string[]): Promise<User> {
  const [first, ...rest] = providers;
  if (first === undefined) throw new Error('setup: name a provider');
  const made = await world.signIn({ id: `acct-${first}`, email: 'social@example.com', verified: true }, { provider: first });
  const user = made.user;
  if (user === null || user.hasPassword()) throw new Error('setup');
  for (const provider of rest) await world.signIn({ id: `acct-${provider}`, email: null }, { provider, visitor: user });
  expect((await world.links.listOfUser(user.id)).map((l) => l.provider)).toEqual(providers);
  return user;
}
