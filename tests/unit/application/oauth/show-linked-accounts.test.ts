import { describe, expect, it } from 'vitest';
import { Credentials } from '../../../../domain/oauth/credentials.js';
import { fakeProvider, makeWorld } from './oauth-world.js';

const world3 = () =>
  makeWorld({
    providers: (protocol) => [
      fakeProvider(protocol, 'provider_a', { openId: true }),
      fakeProvider(protocol, 'provider_off', { credentials: Credentials.fromConfig('PROVIDER_OFF') }),
      fakeProvider(protocol, 'provider_b'),
    ],
  });

describe('ShowLinkedAccounts', () => {
  it("the card lists the enabled providers in registration order, each linked or not, with the provider's address and since when", async () => {
    const world = world3();
    const bob = await world.addUser({ email: 'bob@example.com', password: false });
    const since = world.clock.now();
    await world.links.link(bob.id, { provider: 'provider_b', providerUserId: 'b-1', email: 'bob@b.example', name: null, pictureUrl: null }, since);
    await world.links.link(bob.id, { provider: 'provider_off', providerUserId: 'off-1', email: null, name: null, pictureUrl: null }, since);

    const card = await world.show.execute({ user: bob });

    expect(card).toEqual({
      providers: [
        { name: 'provider_a', label: 'Label of provider_a', linked: false, email: null, since: null },
        { name: 'provider_b', label: 'Label of provider_b', linked: true, email: 'bob@b.example', since },
      ],
      hasPassword: false,
      // One enabled provider and no password: Unlink would be refused (the disabled link does not count).
      canUnlink: false,
    });
  });

  it('canUnlink with a password, or with two enabled providers linked', async () => {
    const world = world3();
    const withPassword = await world.addUser({ email: 'ann@example.com' });
    const social = await world.addUser({ email: 'bob@example.com', password: false });
    for (const [user, provider] of [[withPassword, 'provider_a'], [social, 'provider_a'], [social, 'provider_b']] as const) {
      await world.links.link(user.id, { provider, providerUserId: `${provider}-${user.id}`, email: null, name: null, pictureUrl: null }, world.clock.now());
    }
    expect(await world.show.execute({ user: withPassword })).toMatchObject({ hasPassword: true, canUnlink: true });
    expect(await world.show.execute({ user: social })).toMatchObject({ hasPassword: false, canUnlink: true });
  });

  it("linkedProviders: the user's linked providers that are enabled, in registration order (the confirm-password page's buttons)", async () => {
    const world = world3();
    const bob = await world.addUser({ email: 'bob@example.com' });
    for (const provider of ['provider_b', 'provider_off', 'provider_a']) {
      await world.links.link(bob.id, { provider, providerUserId: `${provider}-1`, email: null, name: null, pictureUrl: null }, world.clock.now());
    }
    const other = await world.addUser({ email: 'other@example.com' });

    expect(await world.show.linkedProviders(bob.id)).toEqual(['provider_a', 'provider_b']);
    expect(await world.show.linkedProviders(other.id)).toEqual([]);
  });
});
