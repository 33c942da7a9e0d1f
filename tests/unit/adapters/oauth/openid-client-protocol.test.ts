import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { OpenIdClientProtocol } from '../../../../adapters/oauth/openid-client-protocol.js';
import { ProviderA } from '../../../../adapters/oauth/providers/provider-a.js';
import { ProviderB } from '../../../../adapters/oauth/providers/provider-b.js';
import { FakeHttpClient } from '../../../../adapters/outbound-http/fake-http-client.js';
import type { FakeResponder } from '../../../../adapters/outbound-http/fake-http-client.js';
import { pkceChallenge, randomToken } from '../../../../domain/oauth/pkce.js';
import type { OAuth2Provider, ProviderToken } from '../../../../ports/identity-provider.js';
import type { CodeRedemption } from '../../../../ports/sign-in-protocol.js';
import { SignInFailed } from '../../../../ports/sign-in-protocol.js';

/** The provider_b shape (GitHub) through the generic engine, every request answered by the fake. */
const TOKEN_URL = 'https://github.com/login/oauth/access_token';
const REDIRECT_URI = 'https://app.example.com/auth/provider_b/callback';
const credentials = { clientId: 'client-b', clientSecret: 'secret-b-0123456789' };
const noSettings = { get: () => undefined };
const github = ProviderB.create(credentials.clientId, credentials.clientSecret)(noSettings);

const token = () => randomToken(randomBytes(32));

function signIn(provider: OAuth2Provider = github) {
  const verifier = token();
  const state = token();
  const code = `code-${token()}`;
  const redemption = (query: Record<string, string> = { code, state }, overrides: Partial<CodeRedemption> = {}): CodeRedemption => ({
    provider,
    credentials,
    redirectUri: REDIRECT_URI,
    callbackUrl: new URL(`${REDIRECT_URI}?${new URLSearchParams(query).toString()}`),
    state,
    codeVerifier: verifier,
    nonce: null,
    ...overrides,
  });
  return { verifier, state, code, redemption };
}

const tokenEndpoint = (answer: FakeResponder) => new FakeHttpClient().on('POST', TOKEN_URL, answer);

async function failure(promise: Promise<unknown>): Promise<SignInFailed> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SignInFailed);
  return error as SignInFailed;
}

function expectNoSecrets(error: SignInFailed, ...secrets: string[]): void {
  for (const secret of [credentials.clientSecret, ...secrets]) {
    expect(error.reason).not.toContain(secret);
    expect(error.message).not.toContain(secret);
  }
}

describe('the authorization URL of an OAuth 2.0 provider', () => {
  it('carries client id, redirect URI, scopes, state and the S256 challenge, and no verifier, secret or nonce', async () => {
    const http = new FakeHttpClient();
    const verifier = token();
    const url = await new OpenIdClientProtocol(http).authorizationUrl({
      provider: github,
      credentials,
      redirectUri: REDIRECT_URI,
      state: 'the-state',
      codeChallenge: pkceChallenge(verifier),
      nonce: 'a-nonce',
    });
    expect(url.origin + url.pathname).toBe('https://github.com/login/oauth/authorize');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      client_id: 'client-b',
      redirect_uri: REDIRECT_URI,
      response_type: 'code',
      scope: 'read:user user:email',
      state: 'the-state',
      code_challenge: pkceChallenge(verifier),
      code_challenge_method: 'S256',
    });
    expect(url.href).not.toContain(verifier);
    expect(url.href).not.toContain(credentials.clientSecret);
    expect(http.calls).toEqual([]);
  });

  it('refuses a plain-http endpoint outside loopback', async () => {
    const provider = ProviderB.create('id', 'secret', { authorizeUrl: 'http://github.example.com/authorize' })(noSettings);
    await failure(new OpenIdClientProtocol(new FakeHttpClient()).authorizationUrl({ provider, credentials, redirectUri: REDIRECT_URI, state: 's', codeChallenge: 'c', nonce: null }));
  });
});

describe('redeeming the code of an OAuth 2.0 provider', () => {
  it('posts the code, the verifier, the client id and secret and the redirect URI, and returns the token', async () => {
    const http = tokenEndpoint({ json: { access_token: 'gho_abc', token_type: 'bearer', scope: 'read:user,user:email' } });
    const { verifier, code, redemption } = signIn();
    const result = await new OpenIdClientProtocol(http).redeem(redemption());
    expect(result).toEqual<ProviderToken>({ accessToken: 'gho_abc', tokenType: 'bearer', idTokenClaims: null });
    expect(http.calls).toHaveLength(1);
    const body = Object.fromEntries(new URLSearchParams(http.calls[0]?.body ?? ''));
    expect(body).toEqual({
      grant_type: 'authorization_code',
      code,
      code_verifier: verifier,
      redirect_uri: REDIRECT_URI,
      client_id: 'client-b',
      client_secret: credentials.clientSecret,
    });
    expect(http.calls[0]?.headers['accept']).toBe('application/json');
  });

  it('reads an answer without token_type as a bearer token (spec 000: the exchange answers a JSON body with access_token)', async () => {
    const http = tokenEndpoint({ json: { access_token: 'gho_only' } });
    const { redemption } = signIn();
    expect(await new OpenIdClientProtocol(http).redeem(redemption())).toEqual<ProviderToken>({ accessToken: 'gho_only', tokenType: 'bearer', idTokenClaims: null });
  });

  it('refuses a token of another type than bearer: the profile read could only misuse it', async () => {
    const http = tokenEndpoint({ json: { access_token: 'gho_dpop', token_type: 'DPoP' } });
    const { redemption } = signIn();
    await expect(new OpenIdClientProtocol(http).redeem(redemption())).rejects.toThrow(/code exchange: token type dpop is not bearer/iu);
  });

  it('sends the redirect URI of the authorization request even when the browser came back through another host', async () => {
    const http = tokenEndpoint({ json: { access_token: 'gho_abc', token_type: 'bearer' } });
    const { code, state, redemption } = signIn();
    await new OpenIdClientProtocol(http).redeem(redemption(undefined, { callbackUrl: new URL(`http://10.0.0.5:3000/auth/provider_b/callback?code=${code}&state=${state}`) }));
    expect(new URLSearchParams(http.calls[0]?.body ?? '').get('redirect_uri')).toBe(REDIRECT_URI);
  });

  it.each<[string, (s: { code: string; state: string }) => Record<string, string>]>([
    ['a state other than ours', ({ code }) => ({ code, state: 'forged' })],
    ['no state', ({ code }) => ({ code })],
    ['an error from the provider', ({ state }) => ({ error: 'access_denied', state })],
    ['an iss naming another issuer', ({ code, state }) => ({ code, state, iss: 'https://evil.example.com' })],
  ])('refuses a callback with %s before any request', async (_what, query) => {
    const http = tokenEndpoint({ json: { access_token: 'gho_abc', token_type: 'bearer' } });
    const sign = signIn();
    await failure(new OpenIdClientProtocol(http).redeem(sign.redemption(query(sign))));
    expect(http.calls).toEqual([]);
  });

  it.each<[string, FakeResponder, string]>([
    ['invalid_grant', { status: 400, json: { error: 'invalid_grant', error_description: 'The code passed is incorrect or expired.' } }, 'invalid_grant'],
    ['a server error', { status: 502, body: 'Bad gateway' }, 'status 502'],
    ['HTML instead of JSON', { body: '<html>login</html>', headers: { 'content-type': 'text/html' } }, ''],
    ['no access token', { json: { token_type: 'bearer' } }, 'access_token'],
    ["GitHub's 200 with an error", { json: { error: 'bad_verification_code', error_description: 'The code passed is incorrect or expired.' } }, 'error bad_verification_code'],
    ['a network failure', () => { throw new TypeError('fetch failed', { cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }) }); }, 'ECONNREFUSED'],
  ])('wraps %s from the token endpoint in SignInFailed', async (_what, answer, mentioned) => {
    const { code, verifier, redemption } = signIn();
    const error = await failure(new OpenIdClientProtocol(tokenEndpoint(answer)).redeem(redemption()));
    expect(error.reason).toContain(mentioned);
    expectNoSecrets(error, code, verifier);
  });

  it('keeps the code out of the reason when the provider echoes it in an error', async () => {
    const { code, verifier, redemption } = signIn();
    const echo: FakeResponder = (request) => ({ status: 400, json: { error: `bad code ${new URLSearchParams(request.body ?? '').get('code')}` } });
    const error = await failure(new OpenIdClientProtocol(tokenEndpoint(echo)).redeem(redemption()));
    expectNoSecrets(error, code, verifier);
  });

  it('refuses a plain-http token endpoint outside loopback without sending the code', async () => {
    const provider = ProviderB.create('id', 'secret', { tokenUrl: 'http://github.example.com/token' })(noSettings);
    const http = new FakeHttpClient();
    const error = await failure(new OpenIdClientProtocol(http).redeem(signIn(provider).redemption()));
    expect(error.reason).toContain('plain-http');
    expect(http.calls).toEqual([]);
  });
});

describe("a provider's own exchange", () => {
  const withExchange = (exchange: NonNullable<OAuth2Provider['exchange']>): OAuth2Provider => ({ ...github, exchange });

  it('is called with the code, the verifier and the credentials instead of the standard request', async () => {
    const seen: unknown[] = [];
    const provider = withExchange((_http, request) => {
      seen.push(request);
      return Promise.resolve({ accessToken: 'custom', tokenType: 'bearer', idTokenClaims: null });
    });
    const http = new FakeHttpClient();
    const { code, verifier, redemption } = signIn(provider);
    expect(await new OpenIdClientProtocol(http).redeem(redemption())).toEqual({ accessToken: 'custom', tokenType: 'bearer', idTokenClaims: null });
    expect(seen).toEqual([{ tokenEndpoint: TOKEN_URL, clientId: 'client-b', clientSecret: credentials.clientSecret, code, redirectUri: REDIRECT_URI, codeVerifier: verifier }]);
    expect(http.calls).toEqual([]);
  });

  it('is not called for a callback whose state is not ours', async () => {
    let called = false;
    const provider = withExchange(() => {
      called = true;
      return Promise.resolve({ accessToken: 'custom', tokenType: 'bearer', idTokenClaims: null });
    });
    const sign = signIn(provider);
    await failure(new OpenIdClientProtocol(new FakeHttpClient()).redeem(sign.redemption({ code: sign.code, state: 'forged' })));
    expect(called).toBe(false);
  });

  it('has its failures wrapped, without the code or the secret', async () => {
    const sign = signIn(withExchange((_http, request) => Promise.reject(new Error(`rejected ${request.code} with ${request.clientSecret}`))));
    const error = await failure(new OpenIdClientProtocol(new FakeHttpClient()).redeem(sign.redemption()));
    expectNoSecrets(error, sign.code, sign.verifier);
  });

  it('must return an access token', async () => {
    const sign = signIn(withExchange(() => Promise.resolve({ accessToken: '', tokenType: 'bearer', idTokenClaims: null })));
    await failure(new OpenIdClientProtocol(new FakeHttpClient()).redeem(sign.redemption()));
  });
});

describe('discovery of an OpenID provider', () => {
  const issuer = 'https://idp.example.com';
  const wellKnown = `${issuer}/.well-known/openid-configuration`;
  const document = (overrides: Record<string, unknown> = {}) => ({
    issuer,
    authorization_endpoint: `${issuer}/authorize`,
    token_endpoint: `${issuer}/token`,
    jwks_uri: `${issuer}/jwks`,
    userinfo_endpoint: `${issuer}/userinfo`,
    response_types_supported: ['code'],
    ...overrides,
  });
  const provider = ProviderA.create(credentials.clientId, credentials.clientSecret, { issuer })(noSettings);
  const authorizationUrl = (protocol: OpenIdClientProtocol) =>
    protocol.authorizationUrl({ provider, credentials, redirectUri: REDIRECT_URI, state: 'state', codeChallenge: pkceChallenge(token()), nonce: 'the-nonce' });

  it('builds the authorization URL from the discovered endpoint, with the nonce', async () => {
    const url = await authorizationUrl(new OpenIdClientProtocol(new FakeHttpClient().on('GET', wellKnown, { json: document() })));
    expect(url.origin + url.pathname).toBe(`${issuer}/authorize`);
    expect(url.searchParams.get('nonce')).toBe('the-nonce');
    expect(url.searchParams.get('scope')).toBe('openid email profile');
  });

  it.each(['authorization_endpoint', 'token_endpoint', 'jwks_uri', 'userinfo_endpoint'])('refuses a document naming a plain-http %s outside loopback', async (name) => {
    const http = new FakeHttpClient().on('GET', wellKnown, { json: document({ [name]: `http://idp.example.com/${name}` }) });
    const error = await failure(authorizationUrl(new OpenIdClientProtocol(http)));
    expect(error.reason).toContain(name);
  });

  it('refuses a document for another issuer', async () => {
    const http = new FakeHttpClient().on('GET', wellKnown, { json: document({ issuer: 'https://evil.example.com' }) });
    await failure(authorizationUrl(new OpenIdClientProtocol(http)));
  });

  it('keeps a document for an hour, one request for many sign-ins', async () => {
    const clock = new FixedClock();
    const http = new FakeHttpClient().on('GET', wellKnown, { json: document() });
    const protocol = new OpenIdClientProtocol(http, clock);
    await Promise.all([authorizationUrl(protocol), authorizationUrl(protocol)]);
    clock.advance(59 * 60_000);
    await authorizationUrl(protocol);
    expect(http.calls).toHaveLength(1);
    clock.advance(60_001);
    await authorizationUrl(protocol);
    expect(http.calls).toHaveLength(2);
  });

  it('does not keep a failed discovery: the next sign-in tries again', async () => {
    let answers = 0;
    const http = new FakeHttpClient().on('GET', wellKnown, () => (++answers === 1 ? { status: 503 } : { json: document() }));
    const protocol = new OpenIdClientProtocol(http);
    const error = await failure(authorizationUrl(protocol));
    expect(error.reason).toMatch(/^discovery/u);
    await expect(authorizationUrl(protocol)).resolves.toBeInstanceOf(URL);
  });
});
