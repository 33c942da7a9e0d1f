import { describe, expect, it } from 'vitest';
import { OAuthProviders } from '../../../../application/oauth/oauth-providers.js';
import { Credentials } from '../../../../domain/oauth/credentials.js';
import { FakeProtocol, fakeProvider, MapSettings } from './oauth-world.js';

const protocol = new FakeProtocol();
const fromConfig = (name: string, prefix: string) => fakeProvider(protocol, name, { credentials: Credentials.fromConfig(prefix) });

describe('OAuthProviders', () => {
  it('keeps the registration order; only providers with both credentials are enabled', () => {
    const settings = new MapSettings(new Map([['B_CLIENT_ID', 'id'], ['B_CLIENT_SECRET', 'secret'], ['C_CLIENT_ID', 'id'], ['C_CLIENT_SECRET', ' ']]));
    const providers = new OAuthProviders([fakeProvider(protocol, 'zeta'), fromConfig('beta', 'B'), fromConfig('gamma', 'C'), fakeProvider(protocol, 'alpha')], settings);

    expect(providers.names()).toEqual(['zeta', 'beta', 'gamma', 'alpha']);
    expect(providers.enabledNames()).toEqual(['zeta', 'beta', 'alpha']);
    expect(providers.enabledLabels()).toEqual([
      { name: 'zeta', label: 'Label of zeta' },
      { name: 'beta', label: 'Label of beta' },
      { name: 'alpha', label: 'Label of alpha' },
    ]);
    expect(providers.enabled().map((p) => p.credentials)).toEqual([
      { clientId: 'zeta-id', clientSecret: 'zeta-secret' },
      { clientId: 'id', clientSecret: 'secret' },
      { clientId: 'alpha-id', clientSecret: 'alpha-secret' },
    ]);
  });

  it('resolves credentials on each call: settings are read when a request needs them', () => {
    const settings = new MapSettings();
    const providers = new OAuthProviders([fromConfig('beta', 'B')], settings);

    expect(providers.enabledOne('beta')).toBeNull();
    settings.values.set('B_CLIENT_ID', 'id').set('B_CLIENT_SECRET', 'secret');
    expect(providers.enabledOne('beta')?.credentials).toEqual({ clientId: 'id', clientSecret: 'secret' });
    settings.values.delete('B_CLIENT_SECRET');
    expect(providers.enabled()).toEqual([]);
  });

  it('enabledOne: null for a name nobody registered (the routes answer 404)', () => {
    const providers = new OAuthProviders([fakeProvider(protocol, 'alpha')], new MapSettings());
    expect(providers.enabledOne('alpha')?.provider.name()).toBe('alpha');
    expect(providers.enabledOne('beta')).toBeNull();
    expect(providers.enabledOne('ALPHA')).toBeNull();
  });

  it('builds a provider given as a function of the settings, once, at construction', () => {
    const settings = new MapSettings(new Map([['LABEL', 'From settings']]));
    let built = 0;
    const providers = new OAuthProviders(
      [
        (s) => {
          built += 1;
          return { ...fakeProvider(protocol, 'built'), label: () => s.get('LABEL') ?? '?' };
        },
      ],
      settings,
    );
    providers.enabled();
    providers.enabledLabels();
    expect(built).toBe(1);
    expect(providers.enabledLabels()).toEqual([{ name: 'built', label: 'From settings' }]);
  });

  it('a duplicate or invalid name is a TypeError at construction', () => {
    expect(() => new OAuthProviders([fakeProvider(protocol, 'alpha'), fakeProvider(protocol, 'alpha')], new MapSettings())).toThrow(TypeError);
    for (const name of ['', 'has space', 'a/b', '-lead', 'x'.repeat(65)]) {
      expect(() => new OAuthProviders([fakeProvider(protocol, name)], new MapSettings())).toThrow(TypeError);
    }
  });
});
