import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevIdentityProvider } from '../../../adapters/oauth/dev-identity-provider.js';
import type { DevIdentityProvider } from '../../../adapters/oauth/dev-identity-provider.js';
import { OpenIdClientProtocol } from '../../../adapters/oauth/openid-client-protocol.js';
import { ProviderA } from '../../../adapters/oauth/providers/provider-a.js';
import { FakeHttpClient } from '../../../adapters/outbound-http/fake-http-client.js';
import { FetchHttpClient } from '../../../adapters/outbound-http/fetch-http-client.js';
import { pkceChallenge, randomToken } from '../../../domain/oauth/pkce.js';
import type { HttpClient } from '../../../ports/http-client.js';
import type { OpenIdProvider } from '../../../ports/identity-provider.js';
import type { CodeRedemption } from '../../../ports/sign-in-protocol.js';
import { SignInFailed } from '../../../ports/sign-in-protocol.js';
import { loginAtDevProvider } from '../../support/dev-provider-login.js';

/** Sign-ins against a real OpenID provider (oidc-provider) on loopback: discovery, PKCE, ID token, RFC 9207. */
const REDIRECT_URI = 'http://127.0.0.1:3999/auth/provider_a/callback';
const credentials = { clientId: 'fw-test', clientSecret: randomToken(randomBytes(32)) };
const noSettings = { get: () => undefined };

let dev: DevIdentityProvider;
let provider: OpenIdProvider;
let protocol: OpenIdClientProtocol;
/** Every SignInFailed seen, checked at the end for leaked secrets. */
const failures: { error: SignInFailed; secrets: string[] }[] = [];

beforeAll(async () => {
  dev = await startDevIdentityProvider({ clients: [{ clientId: credentials.clientId, clientSecret: credentials.clientSecret, redirectUris: [REDIRECT_URI] }] });
  provider = ProviderA.create(credentials.clientId, credentials.clientSecret, { issuer: dev.issuer })(noSettings);
  protocol = new OpenIdClientProtocol(new FetchHttpClient());
});

afterAll(async () => {
  await dev?.stop();
});

const token = () => randomToken(randomBytes(32));

/** Starts a sign-in, logs in at the provider as `login`, and returns what the callback needs. */
async function signIn(login = 'alice') {
  const verifier = token();
  const state = token();
  const nonce = token();
  const url = await protocol.authorizationUrl({ provider, credentials, redirectUri: REDIRECT_URI, state, codeChallenge: pkceChallenge(verifier), nonce });
  const callbackUrl = await loginAtDevProvider(url.href, login);
  const redemption = (overrides: Partial<CodeRedemption> = {}): CodeRedemption => ({ provider, credentials, redirectUri: REDIRECT_URI, callbackUrl, state, codeVerifier: verifier, nonce, ...overrides });
  return { url, verifier, state, nonce, callbackUrl, code: callbackUrl.searchParams.get('code') ?? '', redemption };
}

async function refused(promise: Promise<unknown>, ...secrets: string[]): Promise<SignInFailed> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SignInFailed);
  failures.push({ error: error as SignInFailed, secrets });
  return error as SignInFailed;
}

describe('the authorization URL', () => {
  it('carries state, the S256 challenge, the nonce and the redirect URI, and neither verifier nor secret', async () => {
    const verifier = token();
    const url = await protocol.authorizationUrl({ provider, credentials, redirectUri: REDIRECT_URI, state: 'st', codeChallenge: pkceChallenge(verifier), nonce: 'nn' });
    expect(url.origin).toBe(dev.issuer);
    expect(Object.fromEntries(url.searchParams)).toMatchObject({
      client_id: 'fw-test',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'openid email profile',
      state: 'st',
      nonce: 'nn',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.href).not.toContain(verifier);
    expect(url.href).not.toContain(credentials.clientSecret);
  });
});

describe('redeeming the code', () => {
  it("returns the token and the ID token's checked claims: a verified address", async () => {
    const sign = await signIn('alice');
    expect(sign.callbackUrl.searchParams.get('iss')).toBe(dev.issuer); // RFC 9207: the provider names itself
    const result = await protocol.redeem(sign.redemption());
    expect(result.accessToken).not.toBe('');
    expect(result.tokenType.toLowerCase()).toBe('bearer');
    expect(result.idTokenClaims).toMatchObject({ iss: dev.issuer, aud: 'fw-test', sub: 'alice', email: 'alice@example.test', email_verified: true, nonce: sign.nonce });
    const profile = await provider.profile(new FetchHttpClient(), result);
    expect([profile.providerUserId, profile.emailAddress, profile.emailVerified]).toEqual(['alice', 'alice@example.test', true]);
  });

  it('reports an address the provider did not verify as unverified', async () => {
    const result = await protocol.redeem((await signIn('unverified-bob@example.org')).redemption());
    expect(result.idTokenClaims).toMatchObject({ email: 'unverified-bob@example.org', email_verified: false });
  });

  it('refuses a verifier that does not match the challenge', async () => {
    const sign = await signIn();
    const error = await refused(protocol.redeem(sign.redemption({ codeVerifier: token() })), sign.code, sign.verifier);
    expect(error.reason).toContain('invalid_grant');
  });

  it('refuses a code used a second time', async () => {
    const sign = await signIn();
    await protocol.redeem(sign.redemption());
    const error = await refused(protocol.redeem(sign.redemption()), sign.code, sign.verifier);
    expect(error.reason).toContain('invalid_grant');
  });

  it('refuses an ID token carrying another nonce', async () => {
    const sign = await signIn();
    const error = await refused(protocol.redeem(sign.redemption({ nonce: token() })), sign.code, sign.verifier);
    expect(error.reason).toContain('nonce');
  });

  it.each<[string, (url: URL) => void]>([
    ['names another issuer', (url) => url.searchParams.set('iss', 'http://127.0.0.1:1')],
    ['is missing (the provider advertises it)', (url) => url.searchParams.delete('iss')],
  ])('refuses a callback whose iss %s, before the code is spent', async (_what, change) => {
    const sign = await signIn();
    const mixedUp = new URL(sign.callbackUrl);
    change(mixedUp);
    const error = await refused(protocol.redeem(sign.redemption({ callbackUrl: mixedUp })), sign.code, sign.verifier);
    expect(error.reason).toContain('iss');
    // The code was not sent: it still redeems with the right callback.
    await expect(protocol.redeem(sign.redemption())).resolves.toMatchObject({ idTokenClaims: { sub: 'alice' } });
  });

  it('refuses a callback whose state is not the one sent', async () => {
    const sign = await signIn();
    await refused(protocol.redeem(sign.redemption({ state: token() })), sign.code, sign.verifier);
  });
});

describe('issuers that are refused or unreachable', () => {
  const startAt = (issuer: string, http: HttpClient = new FakeHttpClient()) =>
    new OpenIdClientProtocol(http).authorizationUrl({
      provider: ProviderA.create(credentials.clientId, credentials.clientSecret, { issuer })(noSettings),
      credentials,
      redirectUri: REDIRECT_URI,
      state: 'st',
      codeChallenge: pkceChallenge(token()),
      nonce: 'nn',
    });

  it('refuses a plain-http issuer outside loopback without any request', async () => {
    const http = new FakeHttpClient();
    const error = await refused(startAt('http://accounts.example.com', http));
    expect(error.reason).toContain('plain-http');
    expect(http.calls).toEqual([]);
  });

  it('fails with SignInFailed when nothing answers at the issuer', async () => {
    const port = await closedPort();
    const error = await refused(startAt(`http://127.0.0.1:${port}`, new FetchHttpClient()));
    expect(error.reason).toMatch(/^discovery: .*ECONNREFUSED/u);
  });

  it('fails with SignInFailed when the issuer answers with an error', async () => {
    const http = new FakeHttpClient().on('GET', 'https://idp.example.com/.well-known/openid-configuration', { status: 500 });
    await refused(startAt('https://idp.example.com', http));
  });
});

describe('what a failure tells the log', () => {
  it('never contains the code, the verifier or the client secret', () => {
    expect(failures.length).toBeGreaterThan(5);
    for (const { error, secrets } of failures) {
      for (const secret of [credentials.clientSecret, ...secrets]) {
        expect(error.reason).not.toContain(secret);
        expect(error.message).not.toContain(secret);
      }
    }
  });
});

/** A loopback port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
