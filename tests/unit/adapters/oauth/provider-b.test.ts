import { describe, expect, it } from 'vitest';
import { ProviderB } from '../../../../adapters/oauth/providers/provider-b.js';
import { FakeHttpClient } from '../../../../adapters/outbound-http/fake-http-client.js';
import type { ProviderSettings } from '../../../../domain/oauth/credentials.js';
import type { ProviderToken } from '../../../../ports/identity-provider.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';

const token: ProviderToken = { accessToken: 'gho_token', tokenType: 'bearer', idTokenClaims: null };
const settings = (values: Record<string, string> = {}): ProviderSettings => ({ get: (name) => values[name] });
const provider = (values: Record<string, string> = {}) => ProviderB.fromConfig(settings(values));

const user = { id: 583231, login: 'octocat', name: 'The Octocat', avatar_url: 'https://avatars.githubusercontent.com/u/583231?v=4' };

function github(answers: { user?: unknown; emails?: unknown; status?: number }): FakeHttpClient {
  return new FakeHttpClient()
    .on('GET', 'https://api.github.com/user', { status: answers.status ?? 200, json: answers.user ?? user })
    .on('GET', 'https://api.github.com/user/emails', { json: answers.emails ?? [] });
}

describe('ProviderB (GitHub) profile', () => {
  it('takes the primary verified address, the numeric id as a string, the name and the avatar', async () => {
    const emails = [
      { email: 'old@example.com', primary: false, verified: true },
      { email: 'octocat@github.com', primary: true, verified: true, visibility: 'public' },
    ];
    const profile = await provider().profile(github({ emails }), token);
    expect(profile).toMatchObject({
      providerUserId: '583231',
      emailAddress: 'octocat@github.com',
      emailVerified: true,
      displayName: 'The Octocat',
      pictureUrl: 'https://avatars.githubusercontent.com/u/583231?v=4',
    });
  });

  it('gives no verified address when the primary one is unverified, even if another is verified', async () => {
    const emails = [
      { email: 'octocat@github.com', primary: true, verified: false },
      { email: 'other@example.com', primary: false, verified: true },
    ];
    const profile = await provider().profile(github({ emails }), token);
    expect([profile.emailAddress, profile.emailVerified]).toEqual([null, false]);
  });

  it('does not count a verified flag that is not the boolean true', async () => {
    const profile = await provider().profile(github({ emails: [{ email: 'octocat@github.com', primary: true, verified: 'true' }] }), token);
    expect(profile.emailVerified).toBe(false);
  });

  it('uses the login when the account has no name', async () => {
    const profile = await provider().profile(github({ user: { ...user, name: null } }), token);
    expect(profile.displayName).toBe('octocat');
  });

  it('sends the token as a bearer with the GitHub media type, and to the API only', async () => {
    const http = github({});
    await provider().profile(http, token);
    expect(http.calls.map((call) => call.url).sort()).toEqual(['https://api.github.com/user', 'https://api.github.com/user/emails']);
    for (const call of http.calls) {
      expect(call.headers['authorization']).toBe('Bearer gho_token');
      expect(call.headers['accept']).toBe('application/vnd.github+json');
    }
  });

  it.each<[string, FakeHttpClient]>([
    ['/user answering 401', github({ status: 401 })],
    ['/user/emails answering 404', new FakeHttpClient().on('GET', 'https://api.github.com/user', { json: user }).on('GET', 'https://api.github.com/user/emails', { status: 404 })],
    ['/user answering HTML', new FakeHttpClient().on('GET', 'https://api.github.com/user', { body: '<html>' }).on('GET', 'https://api.github.com/user/emails', { json: [] })],
    ['/user without an id', github({ user: { login: 'octocat' } })],
    ['/user with a string id', github({ user: { ...user, id: '583231' } })],
    ['/user/emails not a list', github({ emails: { email: 'x@example.com' } })],
    ['a network failure', new FakeHttpClient().on('GET', 'https://api.github.com/*', () => { throw new TypeError('fetch failed'); })],
  ])('fails the sign-in on %s', async (_what, http) => {
    const failure = await provider().profile(http, token).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignInFailed);
    expect((failure as SignInFailed).reason).not.toContain('gho_token');
  });
});

describe('ProviderB settings', () => {
  it("is 'provider_b', labelled GitHub, asking for read:user and user:email at github.com", () => {
    const b = provider();
    expect([b.name(), b.label(), b.authorizeEndpoint(), b.tokenEndpoint(), b.scopes()]).toEqual([
      'provider_b',
      'GitHub',
      'https://github.com/login/oauth/authorize',
      'https://github.com/login/oauth/access_token',
      ['read:user', 'user:email'],
    ]);
  });

  it('takes the label and the endpoints from the settings (GitHub Enterprise)', async () => {
    const b = provider({
      PROVIDER_B_LABEL: 'Company GitHub',
      PROVIDER_B_AUTHORIZE_URL: 'https://ghe.example.com/login/oauth/authorize',
      PROVIDER_B_TOKEN_URL: 'https://ghe.example.com/login/oauth/access_token',
      PROVIDER_B_API_URL: 'https://ghe.example.com/api/v3/',
    });
    expect([b.label(), b.authorizeEndpoint(), b.tokenEndpoint()]).toEqual(['Company GitHub', 'https://ghe.example.com/login/oauth/authorize', 'https://ghe.example.com/login/oauth/access_token']);
    const http = new FakeHttpClient().on('GET', 'https://ghe.example.com/api/v3/user', { json: user }).on('GET', 'https://ghe.example.com/api/v3/user/emails', { json: [] });
    expect((await b.profile(http, token)).providerUserId).toBe('583231');
  });

  it('keeps the default label for a blank PROVIDER_B_LABEL', () => {
    expect(provider({ PROVIDER_B_LABEL: '  ' }).label()).toBe('GitHub');
  });

  it('reads credentials from PROVIDER_B_CLIENT_ID and _SECRET, or takes them in code', () => {
    const fromConfig = provider().credentials();
    expect(fromConfig.resolve(settings())).toBeNull();
    expect(fromConfig.resolve(settings({ PROVIDER_B_CLIENT_ID: 'id', PROVIDER_B_CLIENT_SECRET: 'secret' }))).toEqual({ clientId: 'id', clientSecret: 'secret' });
    const inCode = ProviderB.create('code-id', 'code-secret', { label: 'Forge' })(settings({ PROVIDER_B_LABEL: 'ignored' }));
    expect(inCode.label()).toBe('Forge');
    expect(inCode.credentials().resolve(settings())).toEqual({ clientId: 'code-id', clientSecret: 'code-secret' });
  });

  it('never sends the token to a plain-http API outside loopback', async () => {
    const http = github({});
    const failure = await provider({ PROVIDER_B_API_URL: 'http://api.example.com' }).profile(http, token).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(SignInFailed);
    expect(http.calls).toEqual([]);
  });
});
