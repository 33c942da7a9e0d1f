import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { startDevIdentityProvider } from '../../../adapters/oauth/dev-identity-provider.js';
import type { DevIdentityProvider } from '../../../adapters/oauth/dev-identity-provider.js';
import { AccountLinked, Auth, LoggedIn, LoggedInWith, OAuth, Registered, Routes, TOKENS, json } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestResponse, TestServer } from '../../../composition/testing.js';
import { SIGN_IN_MESSAGES, SUCCESS_MESSAGES, TRY_AGAIN } from '../../../domain/oauth/errors.js';
import { randomToken } from '../../../domain/oauth/pkce.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import { loginAtDevProvider } from '../../support/dev-provider-login.js';
import { copyOf, follow, signedIn, startSocialSignIn } from '../../support/flows.js';
import { aUser } from '../../support/builders.js';

/**
 * Social login against a REAL OpenID provider: the dev identity provider (oidc-provider) on
 * loopback, with `provider_a` pointed at it only through settings (PROVIDER_A_ISSUER,
 * PROVIDER_A_CLIENT_ID, PROVIDER_A_CLIENT_SECRET). Nothing is faked between the app and the
 * provider: discovery, the signed ID token, PKCE at the token endpoint and RFC 9207 `iss` are
 * the real thing. One app per engine; CACHE_STORE=database, so the spent-state counter that
 * decides the races below is the engine's own upsert.
 */

const APP_URL = 'http://localhost';
const CALLBACK = `${APP_URL}/auth/provider_a/callback`;
const CLIENT = { clientId: 'fw-e2e', clientSecret: randomToken(randomBytes(32)) };
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/u;

const dir = useTempDir('fw-oauth-e2e-');
const engines = useEngines();

let dev: DevIdentityProvider;

/** What the dev provider's token endpoint answered and what it was sent: the test never sees these otherwise. */
interface TokenCall {
  code: string;
  status: number;
  accessToken: string | null;
  idToken: string | null;
}
const tokenCalls: TokenCall[] = [];

beforeAll(async () => {
  dev = await startDevIdentityProvider({ clients: [{ ...CLIENT, redirectUris: [CALLBACK] }] });
  // The app's outgoing client is the real fetch (TestApp without fakeHttp): watch it, passing
  // every request through, to learn the tokens the app received and must never log.
  const realFetch = globalThis.fetch;
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    const response = await realFetch(input, init);
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    if (url.origin === dev.issuer && url.pathname === '/token' && init?.method === 'POST') {
      const sent = new URLSearchParams(typeof init.body === 'string' || init.body instanceof URLSearchParams ? init.body : '');
      const body = (await response
        .clone()
        .json()
        .catch(() => ({}))) as Record<string, unknown>;
      tokenCalls.push({
        code: sent.get('code') ?? '',
        status: response.status,
        accessToken: typeof body['access_token'] === 'string' ? body['access_token'] : null,
        idToken: typeof body['id_token'] === 'string' ? body['id_token'] : null,
      });
    }
    return response;
  });
});

afterAll(async () => {
  vi.restoreAllMocks();
  await dev?.stop();
});

interface Harness {
  testApp: TestApp;
  server: TestServer;
  clock: FixedClock;
  events: object[];
}

function buildApp(root: string, databaseUrl: string): { testApp: TestApp; clock: FixedClock; events: object[] } {
  const events: object[] = [];
  // Now, not a date in the past: the ID token's iat/exp are checked against the system time,
  // the state's ten minutes against this clock.
  const clock = new FixedClock(new Date());
  const testApp = TestApp.create({
    root,
    clock,
    environment: {
      DATABASE_URL: databaseUrl,
      MAIL_URL: 'log:',
      APP_URL,
      CACHE_STORE: 'database',
      LOG_LEVEL: 'debug',
      PROVIDER_A_ISSUER: dev.issuer,
      PROVIDER_A_CLIENT_ID: CLIENT.clientId,
      PROVIDER_A_CLIENT_SECRET: CLIENT.clientSecret,
      // A second provider, enabled with made-up credentials: it is never reached, it only owns a callback route.
      PROVIDER_B_CLIENT_ID: 'fake-b',
      PROVIDER_B_CLIENT_SECRET: 'fake-b-secret',
    },
    build: (appOptions) =>
      createWelcomeApp(App.create(appOptions).module(Auth.create().account()).module(OAuth.create().providerA().providerB()))
        .module({ name: 'pages', routes: new Routes().get('/whoami', (ctx) => json({ user: ctx.requireUser().email })).requireAuth() })
        .listen(Registered, (e) => void events.push(e))
        .listen(AccountLinked, (e) => void events.push(e))
        .listen(LoggedInWith, (e) => void events.push(e))
        .listen(LoggedIn, (e) => void events.push(e)),
  });
  return { testApp, clock, events };
}

/** The provider's redirect back, requested by `client` (path and query: APP_URL is not the test server's). */
function callback(client: TestClient, back: URL, path = back.pathname): Promise<TestResponse> {
  return client.get(`${path}${back.search}`);
}

/** A whole sign-in: redirect, the person logs in at the provider as `login`, the callback. */
async function signIn(client: TestClient, login: string) {
  const { authorize } = await startSocialSignIn(client, 'provider_a');
  const back = await loginAtDevProvider(authorize.href, login);
  const response = await callback(client, back);
  return { authorize, back, response };
}

async function whoAmI(client: TestClient): Promise<string | null> {
  const page = await client.get('/whoami');
  if (page.status === 200) return page.json<{ user: string }>().user;
  return page.location === '/login' ? null : `(${page.status} ${page.location})`;
}

/** A browser signed in with a password, checked by the page that names its user. */
async function logInWithPassword(server: TestServer, email: string): Promise<TestClient> {
  const client = await signedIn(server, email);
  expect(await whoAmI(client)).toBe(email);
  return client;
}

for (const engine of engines) {
  describe.skipIf(!engine.available)(`social login against a real OpenID provider on ${engine.name}`, () => {
    const h = {} as Harness;

    beforeAll(async () => {
      Object.assign(h, buildApp(join(dir(), engine.name), engine.url()));
      h.server = await h.testApp.serve();
    });
    afterAll(() => h.server?.stop());

    // oauth.redirect, oauth.callback and /login are throttled per IP (30 a minute on the app's
    // clock); every request here comes from 127.0.0.1, so each test starts in a fresh minute.
    beforeEach(() => h.clock.advance(61_000));

    const services = async () => await h.testApp.app.services();
    const users = async () => (await services()).get(TOKENS.userRepository);
    const links = async () => (await services()).get(TOKENS.linkedAccounts);
    const eventsOf = (userId: number | undefined) => h.events.filter((e) => 'userId' in e && e.userId === userId);
    /** The warn lines 'social sign-in failed' written since log line `from`, with this reason for the refused state. */
    const refusals = (from: number, reason: string) => h.testApp.logs.slice(from).filter((l) => l.level === 'warn' && l.message === 'social sign-in failed' && l.fields['detail'] === reason);

    it('a new user is made (verified, no password), linked and logged in; the authorization URL carried the nonce and the S256 challenge', async () => {
      const client = h.server.client();
      const { authorize, back, response } = await signIn(client, 'newcomer');

      expect(`${authorize.origin}${authorize.pathname}`).toBe(`${dev.issuer}/auth`);
      expect(authorize.searchParams.get('client_id')).toBe(CLIENT.clientId);
      expect(authorize.searchParams.get('redirect_uri')).toBe(CALLBACK);
      expect(authorize.searchParams.get('scope')?.split(' ')).toEqual(expect.arrayContaining(['openid', 'email']));
      expect(authorize.searchParams.get('state')).toMatch(TOKEN_SHAPE);
      expect(authorize.searchParams.get('nonce')).toMatch(TOKEN_SHAPE);
      expect(authorize.searchParams.get('nonce')).not.toBe(authorize.searchParams.get('state'));
      expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorize.searchParams.get('code_challenge')).toMatch(TOKEN_SHAPE);
      expect(authorize.href).not.toContain(CLIENT.clientSecret);
      // The provider came back to APP_URL's callback with a code, the same state and RFC 9207 iss.
      expect(`${back.origin}${back.pathname}`).toBe(CALLBACK);
      expect(back.searchParams.get('state')).toBe(authorize.searchParams.get('state'));
      expect(back.searchParams.get('iss')).toBe(dev.issuer);

      expect(response.status).toBe(303);
      expect(response.location).toBe('/');
      expect(await whoAmI(client)).toBe('newcomer@example.test');

      const user = await (await users()).findByEmail('newcomer@example.test');
      expect(user?.hasPassword()).toBe(false);
      expect(user?.isVerified()).toBe(true);
      expect(user?.name).toBe('newcomer');
      const rows = await (await links()).listOfUser(user?.id ?? 0);
      expect(rows.map((r) => [r.provider, r.providerUserId, r.email])).toEqual([['provider_a', 'newcomer', 'newcomer@example.test']]);
      // The one code exchange for this sign-in succeeded at the real token endpoint.
      const exchanges = tokenCalls.filter((c) => c.code === back.searchParams.get('code'));
      expect(exchanges.map((c) => c.status)).toEqual([200]);
    });

    it('LoggedInWith fired with secondStep false (with Registered, AccountLinked and LoggedIn, in that order)', async () => {
      const id = (await (await users()).findByEmail('newcomer@example.test'))?.id;
      expect(eventsOf(id).map((e) => e.constructor.name)).toEqual(['Registered', 'AccountLinked', 'LoggedInWith', 'LoggedIn']);
      const loggedInWith = eventsOf(id).find((e): e is LoggedInWith => e instanceof LoggedInWith);
      expect(loggedInWith).toEqual(new LoggedInWith(id ?? 0, 'provider_a', false));
      expect(eventsOf(id).find((e): e is Registered => e instanceof Registered)?.provider).toBe('provider_a');
    });

    it('the nonce is checked: an ID token carrying another nonce than the session\'s is refused, nothing made', async () => {
      const client = h.server.client();
      const { authorize } = await startSocialSignIn(client, 'provider_a');
      authorize.searchParams.set('nonce', randomToken(randomBytes(32)));
      const back = await loginAtDevProvider(authorize.href, 'nonce-swapped');
      const response = await callback(client, back);
      expect(response.location).toBe('/login');
      expect(await follow(client, response.location)).toContain(TRY_AGAIN);
      expect(await whoAmI(client)).toBeNull();
      expect(await (await users()).findByEmail('nonce-swapped@example.test')).toBeNull();
      expect(await (await links()).findByProviderAccount('provider_a', 'nonce-swapped')).toBeNull();
      const warn = h.testApp.logs.filter((l) => l.level === 'warn' && l.message === 'social sign-in failed').at(-1);
      expect(String(warn?.fields['detail'])).toMatch(/nonce/iu);
    });

    it('email_verified false: refused with the advice to verify at the provider, and nothing made (no user, no link)', async () => {
      const client = h.server.client();
      const { response } = await signIn(client, 'unverified-ann');
      expect(response.status).toBe(303);
      expect(response.location).toBe('/login');
      expect(await follow(client, response.location)).toContain(SIGN_IN_MESSAGES['unverified-email']);
      expect(await whoAmI(client)).toBeNull();
      expect(await (await users()).findByEmail('unverified-ann@example.test')).toBeNull();
      expect(await (await links()).findByProviderAccount('provider_a', 'unverified-ann')).toBeNull();
    });

    it('an existing user with a verified address is linked and logged in (keeping the password)', async () => {
      const owner = await h.testApp.createUser(aUser({ name: 'Owner', email: 'owner@example.test' }));
      const client = h.server.client();
      const { response } = await signIn(client, 'owner');
      expect(response.location).toBe('/');
      expect(await whoAmI(client)).toBe('owner@example.test');
      expect((await (await links()).findByProviderAccount('provider_a', 'owner'))?.userId).toBe(owner.id);
      expect((await (await users()).findById(owner.id))?.hasPassword()).toBe(true);
      expect(eventsOf(owner.id).map((e) => e.constructor.name)).toEqual(['AccountLinked', 'LoggedInWith', 'LoggedIn']);
      expect(eventsOf(owner.id).find((e): e is LoggedInWith => e instanceof LoggedInWith)?.secondStep).toBe(false);
    });

    it('an existing user whose address is unverified: refused with the advice to log in with the password and link from the account page', async () => {
      const lazy = await h.testApp.createUser(aUser({ name: 'Lazy', email: 'lazy@example.test', verified: false }));
      const client = h.server.client();
      const { response } = await signIn(client, 'lazy');
      expect(response.location).toBe('/login');
      expect(await follow(client, response.location)).toContain(SIGN_IN_MESSAGES['email-owner-unverified']);
      expect(await whoAmI(client)).toBeNull();
      expect(await (await links()).findByProviderAccount('provider_a', 'lazy')).toBeNull();
      expect((await (await users()).findById(lazy.id))?.isVerified()).toBe(false);
      expect(eventsOf(lazy.id)).toEqual([]);
    });

    it('a replayed code is refused: the same browser replaying the callback after success, and an old copy of its cookie', async () => {
      const client = h.server.client();
      const { authorize } = await startSocialSignIn(client, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'replayer');
      // The cookie session as it was before the callback: it still holds the state.
      const before = copyOf(h.server, client);
      const first = await callback(client, back);
      expect(first.location).toBe('/');
      const user = await (await users()).findByEmail('replayer@example.test');
      const eventsBefore = eventsOf(user?.id).length;
      const logFrom = h.testApp.logs.length;

      const replay = await callback(client, back);
      expect(replay.status).toBe(303);
      // A user whose state was refused lands where a login would, still logged in as themselves.
      expect(replay.location).toBe('/');
      expect(await follow(client, replay.location)).toContain(TRY_AGAIN);
      expect(await whoAmI(client)).toBe('replayer@example.test');

      const copied = await callback(before, back);
      expect(copied.status).toBe(303);
      expect(copied.location).toBe('/login');
      expect(await whoAmI(before)).toBeNull();

      // Neither reached the token endpoint again, and nothing happened twice.
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(1);
      expect(eventsOf(user?.id)).toHaveLength(eventsBefore);
      expect(await (await links()).listOfUser(user?.id ?? 0)).toHaveLength(1);
      // The session no longer held the state; the old copy did, but the state was spent.
      expect(refusals(logFrom, 'unknown-state')).toHaveLength(1);
      expect(refusals(logFrom, 'already-used')).toHaveLength(1);
    });

    it("a replayed code is refused: a fresh sign-in's callback URL requested twice", async () => {
      const client = h.server.client();
      const { authorize } = await startSocialSignIn(client, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'twice');
      const first = await callback(client, back);
      const second = await callback(client, back);
      expect([first.status, first.location]).toEqual([303, '/']);
      expect([second.status, second.location]).toEqual([303, '/']);
      expect(await follow(client, second.location)).toContain(TRY_AGAIN);
      const user = await (await users()).findByEmail('twice@example.test');
      expect(eventsOf(user?.id).filter((e) => e instanceof LoggedInWith)).toHaveLength(1);
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(1);
    });

    it('a code carried to another browser is refused (a guest, or a logged-in user: nothing linked to them); the browser that started it still signs in', async () => {
      const victim = h.server.client();
      const { authorize } = await startSocialSignIn(victim, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'carried');

      const guest = h.server.client();
      const stolen = await callback(guest, back);
      expect(stolen.status).toBe(303);
      expect(stolen.location).toBe('/login');
      expect(await follow(guest, stolen.location)).toContain(TRY_AGAIN);
      expect(await whoAmI(guest)).toBeNull();

      await h.testApp.createUser(aUser({ name: 'Mallory', email: 'mallory@example.test' }));
      const mallory = await logInWithPassword(h.server, 'mallory@example.test');
      const planted = await callback(mallory, back);
      expect(planted.status).toBe(303);
      expect(await whoAmI(mallory)).toBe('mallory@example.test');
      expect(await (await links()).findByProviderAccount('provider_a', 'carried')).toBeNull();
      expect(await (await users()).findByEmail('carried@example.test')).toBeNull();
      // Refused before the code exchange: the code was never spent by the other browsers.
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(0);

      const own = await callback(victim, back);
      expect(own.location).toBe('/');
      expect(await whoAmI(victim)).toBe('carried@example.test');
    });

    it('a state older than ten minutes is refused; one a millisecond younger is accepted', async () => {
      const late = h.server.client();
      const { authorize } = await startSocialSignIn(late, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'late');
      h.clock.advance(10 * 60_000);
      const logFrom = h.testApp.logs.length;
      const response = await callback(late, back);
      expect(response.location).toBe('/login');
      expect(await follow(late, response.location)).toContain(TRY_AGAIN);
      expect(await whoAmI(late)).toBeNull();
      expect(await (await users()).findByEmail('late@example.test')).toBeNull();
      expect(refusals(logFrom, 'expired')).toHaveLength(1);
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(0);

      h.clock.advance(61_000);
      const inTime = h.server.client();
      const { authorize: started } = await startSocialSignIn(inTime, 'provider_a');
      const returned = await loginAtDevProvider(started.href, 'in-time');
      h.clock.advance(10 * 60_000 - 1);
      expect((await callback(inTime, returned)).location).toBe('/');
      expect(await whoAmI(inTime)).toBe('in-time@example.test');
    });

    it("a state from provider_a sent to provider_b's callback is refused, and is spent: provider_a's callback then refuses it too", async () => {
      const client = h.server.client();
      const { authorize } = await startSocialSignIn(client, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'crossed');
      const logFrom = h.testApp.logs.length;
      const crossed = await callback(client, back, '/auth/provider_b/callback');
      expect(crossed.status).toBe(303);
      expect(crossed.location).toBe('/login');
      expect(refusals(logFrom, 'other-provider')).toHaveLength(1);
      const own = await callback(client, back);
      expect(own.status).toBe(303);
      expect(own.location).toBe('/login');
      expect(refusals(logFrom, 'unknown-state')).toHaveLength(1);
      expect(await whoAmI(client)).toBeNull();
      expect(await (await users()).findByEmail('crossed@example.test')).toBeNull();
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(0);
    });

    it('race: 8 parallel callbacks with one state and the same cookies: exactly one logs in, the rest are refused cleanly', async () => {
      const starter = h.server.client();
      const { authorize } = await startSocialSignIn(starter, 'provider_a');
      const back = await loginAtDevProvider(authorize.href, 'racer');
      const tabs = Array.from({ length: 8 }, () => copyOf(h.server, starter));
      const logLinesBefore = h.testApp.logs.length;

      const responses = await Promise.all(tabs.map((tab) => callback(tab, back)));

      expect(responses.map((r) => r.status)).toEqual(Array(8).fill(303));
      expect(responses.filter((r) => r.location === '/')).toHaveLength(1);
      expect(responses.filter((r) => r.location === '/login')).toHaveLength(7);
      const who = await Promise.all(tabs.map((tab) => whoAmI(tab)));
      expect(who.filter((w) => w === 'racer@example.test')).toHaveLength(1);
      expect(who.filter((w) => w === null)).toHaveLength(7);

      const user = await (await users()).findByEmail('racer@example.test');
      expect(await (await links()).listOfUser(user?.id ?? 0)).toHaveLength(1);
      expect(eventsOf(user?.id).map((e) => e.constructor.name)).toEqual(['Registered', 'AccountLinked', 'LoggedInWith', 'LoggedIn']);
      // Only the winner exchanged the code; the others were stopped by the spent state.
      expect(tokenCalls.filter((c) => c.code === back.searchParams.get('code'))).toHaveLength(1);
      const lines = h.testApp.logs.slice(logLinesBefore);
      expect(refusals(logLinesBefore, 'already-used')).toHaveLength(7);
      expect(lines.filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    });

    it('race: two users pressing Link for one provider account at once: one link, the other refused cleanly', async () => {
      const ada = await h.testApp.createUser(aUser({ name: 'Ada', email: 'ada@example.test' }));
      const bob = await h.testApp.createUser(aUser({ name: 'Bob', email: 'bob@example.test' }));
      const browsers = [await logInWithPassword(h.server, 'ada@example.test'), await logInWithPassword(h.server, 'bob@example.test')];
      // Both reach the provider and log in there as the same person, then both come back at once.
      const returns = await Promise.all(browsers.map(async (browser) => loginAtDevProvider((await startSocialSignIn(browser, 'provider_a')).authorize.href, 'contested')));
      const logLinesBefore = h.testApp.logs.length;

      const responses = await Promise.all(browsers.map((browser, index) => callback(browser, returns[index] ?? new URL(CALLBACK))));

      expect(responses.map((r) => [r.status, r.location])).toEqual([
        [303, '/account'],
        [303, '/account'],
      ]);
      const link = await (await links()).findByProviderAccount('provider_a', 'contested');
      expect([ada.id, bob.id]).toContain(link?.userId);
      const winner = link?.userId === ada.id ? 0 : 1;
      const loser = 1 - winner;
      const pages = await Promise.all(browsers.map((browser) => follow(browser, '/account')));
      expect(pages[winner]).toContain(SUCCESS_MESSAGES.linked);
      expect(pages[loser]).toContain(SIGN_IN_MESSAGES['linked-to-another-user']);
      const loserId = [ada.id, bob.id][loser] ?? 0;
      expect(await (await links()).listOfUser(loserId)).toEqual([]);
      expect(h.events.filter((e) => e instanceof AccountLinked && (e.userId === ada.id || e.userId === bob.id))).toHaveLength(1);
      // Both still logged in as themselves.
      expect(await Promise.all(browsers.map((b) => whoAmI(b)))).toEqual(['ada@example.test', 'bob@example.test']);
      expect(h.testApp.logs.slice(logLinesBefore).filter((l) => l.level === 'error' || l.level === 'fatal')).toEqual([]);
    });

    it('no token, code or client secret appears in testApp.logs', () => {
      const seen = tokenCalls.filter((c) => c.status === 200);
      expect(seen.length).toBeGreaterThanOrEqual(5);
      const logs = JSON.stringify(h.testApp.logs);
      // The log is not empty: requests, refusals and warnings were all written.
      expect(h.testApp.logs.filter((l) => l.message === 'request').length).toBeGreaterThan(20);
      expect(logs).toContain('social sign-in failed');
      for (const call of tokenCalls) {
        if (call.accessToken !== null) expect(logs).not.toContain(call.accessToken);
        if (call.idToken !== null) {
          expect(logs).not.toContain(call.idToken);
          // Each of its three parts alone, too (a log line could quote the payload or the signature).
          for (const part of call.idToken.split('.')) expect(logs).not.toContain(part);
        }
        expect(logs).not.toContain(call.code);
      }
      expect(logs).not.toContain(CLIENT.clientSecret);
    });
  });
}
