import { describe, expect, it } from 'vitest';
import { OidcProvider } from '../../../../adapters/oauth/providers/oidc-provider.js';
import { ProviderA } from '../../../../adapters/oauth/providers/provider-a.js';
import { FakeHttpClient } from '../../../../adapters/outbound-http/fake-http-client.js';
import type { ProviderSettings } from '../../../../domain/oauth/credentials.js';
import type { ProviderToken } from '../../../../ports/identity-provider.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';

const settings = (values: Record<string, string> = {}): ProviderSettings => ({ get: (name) => values[name] });
const providerA = (values: Record<string, string> = {}) => ProviderA.fromConfig(settings(values));
const tokenWith = (claims: Record<string, unknown> | null): ProviderToken => ({ accessToken: 'ya29.token', tokenType: 'bearer', idTokenClaims: claims });
const noHttp = new FakeHttpClient();

describe('ProviderA (Google) profile from the ID token', () => {
  it('maps sub, email, email_verified, name and picture', async () => {
    const claims = { sub: '1093', email: 'Ada@Example.com', email_verified: true, name: 'Ada Lovelace', picture: 'https://lh3.googleusercontent.com/a/x' };
    const profile = await providerA().profile(noHttp, tokenWith(claims));
    expect(profile).toMatchObject({ providerUserId: '1093', emailAddress: 'ada@example.com', emailVerified: true, displayName: 'Ada Lovelace', pictureUrl: 'https://lh3.googleusercontent.com/a/x' });
    expect(noHttp.calls).toEqual([]);
  });

  it.each<[string, unknown]>([
    ['the string "true"', 'true'],
    ['the number 1', 1],
    ['missing', undefined],
    ['false', false],
  ])('does not count email_verified %s as verified', async (_what, verified) => {
    const profile = await providerA().profile(noHttp, tokenWith({ sub: '1093', email: 'ada@example.com', email_verified: verified }));
    expect([profile.emailAddress, profile.emailVerified]).toEqual(['ada@example.com', false]);
  });

  it('fails the sign-in without ID token claims or without a usable sub', async () => {
    await expect(providerA().profile(noHttp, tokenWith(null))).rejects.toBeInstanceOf(SignInFailed);
    await expect(providerA().profile(noHttp, tokenWith({ email: 'ada@example.com' }))).rejects.toBeInstanceOf(SignInFailed);
    await expect(providerA().profile(noHttp, tokenWith({ sub: 42, email: 'ada@example.com' }))).rejects.toBeInstanceOf(SignInFailed);
  });
});

describe('an ID token without email: the userinfo endpoint', () => {
  const issuer = 'https://idp.example.com';
  const discovery = (userinfo = `${issuer}/userinfo`) =>
    new FakeHttpClient().on('GET', `${issuer}/.well-known/openid-configuration`, { json: { issuer, userinfo_endpoint: userinfo } });

  it('reads the address and its verification from userinfo with the bearer token', async () => {
    const http = discovery().on('GET', `${issuer}/userinfo`, { json: { sub: 'u1', email: 'ada@example.com', email_verified: true, name: 'Ada' } });
    const provider = ProviderA.create('id', 'secret', { issuer })(settings());
    const profile = await provider.profile(http, tokenWith({ sub: 'u1' }));
    expect([profile.emailAddress, profile.emailVerified, profile.displayName]).toEqual(['ada@example.com', true, 'Ada']);
    expect(http.calls.find((call) => call.url === `${issuer}/userinfo`)?.headers['authorization']).toBe('Bearer ya29.token');
  });

  it("refuses userinfo about another subject than the ID token's", async () => {
    const http = discovery().on('GET', `${issuer}/userinfo`, { json: { sub: 'someone-else', email: 'eve@example.com', email_verified: true } });
    const provider = ProviderA.create('id', 'secret', { issuer })(settings());
    await expect(provider.profile(http, tokenWith({ sub: 'u1' }))).rejects.toThrow(SignInFailed);
  });

  it('never sends the token to a userinfo endpoint on plain http outside loopback', async () => {
    const http = discovery('http://idp.example.com/userinfo');
    const provider = ProviderA.create('id', 'secret', { issuer })(settings());
    await expect(provider.profile(http, tokenWith({ sub: 'u1' }))).rejects.toThrow(SignInFailed);
    expect(http.calls.map((call) => call.url)).toEqual([`${issuer}/.well-known/openid-configuration`]);
  });
});

describe('ProviderA settings', () => {
  it("is 'provider_a', labelled Google, at accounts.google.com, asking for openid, email and profile", () => {
    const a = providerA();
    expect([a.name(), a.label(), a.issuer(), a.scopes()]).toEqual(['provider_a', 'Google', 'https://accounts.google.com', ['openid', 'email', 'profile']]);
  });

  it('takes the label and the issuer from PROVIDER_A_LABEL and PROVIDER_A_ISSUER', () => {
    const a = providerA({ PROVIDER_A_LABEL: 'Dev login', PROVIDER_A_ISSUER: 'http://127.0.0.1:9400' });
    expect([a.label(), a.issuer()]).toEqual(['Dev login', 'http://127.0.0.1:9400']);
  });

  it('prefers options given in code to the settings, and reads credentials only from code then', () => {
    const a = ProviderA.create('cid', 'csecret', { label: 'Mine' })(settings({ PROVIDER_A_LABEL: 'ignored', PROVIDER_A_ISSUER: 'https://idp.example.com', PROVIDER_A_CLIENT_ID: 'other' }));
    expect([a.label(), a.issuer()]).toEqual(['Mine', 'https://idp.example.com']);
    expect(a.credentials().resolve(settings())).toEqual({ clientId: 'cid', clientSecret: 'csecret' });
  });

  it('is off without PROVIDER_A_CLIENT_ID and _SECRET', () => {
    expect(providerA().credentials().resolve(settings({ PROVIDER_A_CLIENT_ID: 'id' }))).toBeNull();
  });
});

describe('OidcProvider.discover', () => {
  it('makes an OpenID provider for any issuer, with credentials under its prefix', () => {
    const keycloak = OidcProvider.discover({ name: 'keycloak', label: 'Staff login', issuer: 'https://sso.example.com/realms/staff', prefix: 'KEYCLOAK', scopes: ['email'] });
    expect([keycloak.name(), keycloak.label(), keycloak.issuer(), keycloak.scopes()]).toEqual(['keycloak', 'Staff login', 'https://sso.example.com/realms/staff', ['openid', 'email']]);
    expect(keycloak.credentials().resolve(settings({ KEYCLOAK_CLIENT_ID: 'k', KEYCLOAK_CLIENT_SECRET: 's' }))).toEqual({ clientId: 'k', clientSecret: 's' });
  });

  it.each(['', 'has space', 'a/b', '-leading'])('refuses the provider name %j', (name) => {
    expect(() => OidcProvider.discover({ name, label: 'x', issuer: 'https://sso.example.com', prefix: 'X' })).toThrow(TypeError);
  });
});
