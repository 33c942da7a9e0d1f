import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { AccountLinked, AccountUnlinked, Audit, Auth, LoggedIn, LoggedInWith, OAuth, ProviderB, Registered, Routes, TOKENS, json } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { SIGN_IN_MESSAGES, TRY_AGAIN, UNLINK_MESSAGES } from '../../../domain/oauth/errors.js';
import { useEngines, useOwnDatabase, useTempDir } from '../../support/databases.js';
import { follow, PASSWORD, register, signIn, socialSignIn, startSocialSignIn } from '../../support/flows.js';
import { aUser } from '../../support/builders.js';
import { fakeProviderB, TOKEN_URL } from '../../support/fake-provider-b.js';
import type { FakePerson } from '../../support/fake-provider-b.js';
import type { FakeHttpClient } from '../../../adapters/outbound-http/fake-http-client.js';

const dir = useTempDir('fw-oauth-');

/** Who provider_b knows: codes are `code-<id>`, each accepted once. */
const PEOPLE: FakePerson[] = [
  { id: 101, email: 'new@example.com', verified: true, name: 'New Person' },
  { id: 102, email: 'unverified@example.com', verified: false },
  { id: 103, email: null, verified: false },
  { id: 104, email: 'owner@example.com', verified: true },
  { id: 105, email: 'lazy@example.com', verified: true },
  { id: 106, email: 'someone-else@example.com', verified: true },
  { id: 107, email: 'closed@example.com', verified: true },
  { id: 108, email: 'two@example.com', verified: true },
  { id: 109, email: 'changed@example.com', verified: true },
];

interface Harness {
  testApp: TestApp;
  fake: FakeHttpClient;
  server: TestServer;
  events: object[];
  clock: FixedClock;
}

function socialApp(root: string, databaseUrl: string, options: { registration: boolean; driver: 'cookie' | 'database' }): { testApp: TestApp; events: object[]; clock: FixedClock } {
  const events: object[] = [];
  const clock = new FixedClock('2026-05-01T09:00:00Z');
  const auth = Auth.create().account();
  if (!options.registration) auth.withoutRegistration();
  const testApp = TestApp.create({
    root,
    clock,
    environment: { DATABASE_URL: databaseUrl, MAIL_URL: 'log:', APP_URL: 'http://localhost', SESSION_LIFETIME: '600', SESSION_DRIVER: options.driver, LOG_LEVEL: 'info' },
    build: (appOptions) =>
      createWelcomeApp(App.create(appOptions).module(auth).module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b'))).module(Audit.create()))
        .module({
          name: 'pages',
          routes: new Routes()
            .get('/secure', (ctx) => json({ user: ctx.requireUser().email }))
            .requirePasswordConfirmed()
            .requireAuth(),
        })
        .listen(Registered, (e) => void events.push(e))
        .listen(AccountLinked, (e) => void events.push(e))
        .listen(AccountUnlinked, (e) => void events.push(e))
        .listen(LoggedInWith, (e) => void events.push(e))
        .listen(LoggedIn, (e) => void events.push(e)),
  });
  return { testApp, events, clock };
}

async function whoAmI(client: TestClient): Promise<string | null> {
  const page = await client.get('/secure');
  if (page.status === 200) return page.json<{ user: string }>().user;
  return page.location === '/login' ? null : `(${page.status} ${page.location})`;
}

for (const engine of useEngines()) {
  for (const driver of ['cookie', 'database'] as const) {
    describe.skipIf(!engine.available)(`social login over a real socket on ${engine.name}, ${driver} sessions`, () => {
      const database = useOwnDatabase(engine);
      const h = {} as Harness;

      beforeAll(async () => {
        const made = socialApp(join(dir(), `${engine.name}-${driver}`), database(), { registration: true, driver });
        Object.assign(h, made);
        h.fake = made.testApp.fakeHttp();
        fakeProviderB(h.fake, PEOPLE);
        h.server = await made.testApp.serve();
      });
      afterAll(() => h.server.stop());

      const users = async () => (await h.testApp.app.services()).get(TOKENS.userRepository);
      const links = async () => (await h.testApp.app.services()).get(TOKENS.linkedAccounts);

      it('the spec recipe: a redirect to the provider with state and an S256 challenge, then the callback lands on /', async () => {
        const client = h.server.client();
        const { authorize, back } = await socialSignIn(client, 'provider_b', 'code-101');
        expect(`${authorize.origin}${authorize.pathname}`).toBe('https://github.com/login/oauth/authorize');
        expect(authorize.searchParams.get('client_id')).toBe('client-b');
        expect(authorize.searchParams.get('redirect_uri')).toBe('http://localhost/auth/provider_b/callback');
        expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
        expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/u);
        expect(authorize.href).not.toContain('secret-b');
        expect(back.status).toBe(303);
        expect(back.location).toBe('/');
        expect(await whoAmI(client)).toBe('new@example.com');
      });

      it('row "nobody has the address; registration is open": a verified user without a password is made, linked, logged in, and the events fire', async () => {
        const user = await (await users()).findByEmail('new@example.com');
        expect(user?.hasPassword()).toBe(false);
        expect(user?.isVerified()).toBe(true);
        expect(user?.name).toBe('New Person');
        const rows = await (await links()).listOfUser(user?.id ?? 0);
        expect(rows.map((r) => [r.provider, r.providerUserId, r.email])).toEqual([['provider_b', '101', 'new@example.com']]);
        const id = user?.id ?? 0;
        expect(h.events.filter((e) => 'userId' in e && e.userId === id).map((e) => e.constructor.name)).toEqual(['Registered', 'AccountLinked', 'LoggedInWith', 'LoggedIn']);
        expect(h.events.find((e): e is Registered => e instanceof Registered && e.userId === id)?.provider).toBe('provider_b');
        expect(h.events.find((e): e is LoggedInWith => e instanceof LoggedInWith && e.userId === id)?.secondStep).toBe(false);
        // The exchange carried the PKCE verifier and the client secret; the token never reached a log line.
        const exchange = h.fake.calls.find((call) => call.method === 'POST' && call.url === TOKEN_URL);
        const form = new URLSearchParams(exchange?.body ?? '');
        expect(form.get('code_verifier')).toMatch(/^[A-Za-z0-9_-]{43}$/u);
        expect(form.get('redirect_uri')).toBe('http://localhost/auth/provider_b/callback');
        expect(JSON.stringify(h.testApp.logs)).not.toMatch(/token-101-/u);
      });

      it('the activity log holds oauth.linked and oauth.login with the provider, the client IP and the request id', async () => {
        const id = (await (await users()).findByEmail('new@example.com'))?.id ?? 0;
        const activity = await (await h.testApp.app.services()).get(TOKENS.activityLog).recent({ userId: id, limit: 10 });
        const actions = activity.map((a) => a.action);
        expect(actions).toEqual(expect.arrayContaining(['oauth.linked', 'oauth.login', 'auth.registered', 'auth.login']));
        const login = activity.find((a) => a.action === 'oauth.login');
        expect(login?.data).toEqual({ provider: 'provider_b' });
        expect(login?.ipAddress).toBe('127.0.0.1');
        expect(login?.requestId).toMatch(/.{8,}/u);
      });

      it('row "already linked": that user is logged in, whatever address the provider reports now', async () => {
        const client = h.server.client();
        await socialSignIn(client, 'provider_b', 'code-109');
        expect(await whoAmI(client)).toBe('changed@example.com');
        // The provider now reports another (verified) address: still the same user, and the
        // link row keeps what the provider said last.
        const person = PEOPLE.find((p) => p.id === 109);
        if (person !== undefined) person.email = 'renamed@example.com';
        const again = h.server.client();
        await socialSignIn(again, 'provider_b', 'code-109-second');
        expect(await whoAmI(again)).toBe('changed@example.com');
        expect((await (await links()).findByProviderAccount('provider_b', '109'))?.email).toBe('renamed@example.com');
        expect(await (await users()).findByEmail('renamed@example.com')).toBeNull();
        if (person !== undefined) person.email = 'changed@example.com';
      });

      it('row "not linked; the provider did not verify the address or gave none": refused, nothing made', async () => {
        for (const code of ['code-102', 'code-103']) {
          const client = h.server.client();
          const { back } = await socialSignIn(client, 'provider_b', code);
          expect(back.location).toBe('/login');
          expect(await follow(client, back.location)).toContain(SIGN_IN_MESSAGES['unverified-email']);
          expect(await whoAmI(client)).toBe(null);
        }
        expect(await (await users()).findByEmail('unverified@example.com')).toBeNull();
        expect(await (await links()).findByProviderAccount('provider_b', '102')).toBeNull();
        expect(await (await links()).findByProviderAccount('provider_b', '103')).toBeNull();
      });

      it('row "a user has this address, verified": the provider account is linked to that user, who is logged in', async () => {
        await h.testApp.createUser(aUser({ name: 'Owner', email: 'owner@example.com' }));
        const client = h.server.client();
        const { back } = await socialSignIn(client, 'provider_b', 'code-104');
        expect(back.location).toBe('/');
        expect(await whoAmI(client)).toBe('owner@example.com');
        const owner = await (await users()).findByEmail('owner@example.com');
        expect((await (await links()).listOfUser(owner?.id ?? 0)).map((l) => l.providerUserId)).toEqual(['104']);
      });

      it('row "a user has this address but it is not verified": refused with the advice to log in with the password and link from the account page', async () => {
        await h.testApp.createUser(aUser({ name: 'Lazy', email: 'lazy@example.com', verified: false }));
        const client = h.server.client();
        const { back } = await socialSignIn(client, 'provider_b', 'code-105');
        expect(back.location).toBe('/login');
        const page = await follow(client, back.location);
        expect(page).toContain('Log in with your password, then link the provider from your account page.');
        expect(await whoAmI(client)).toBe(null);
        expect(await (await links()).findByProviderAccount('provider_b', '105')).toBeNull();
      });

      it('row "a logged-in user returns (Link)": linked to them whatever the address; refused when linked to someone else', async () => {
        const client = h.server.client();
        await h.testApp.createUser(aUser({ name: 'Linker', email: 'linker@example.com' }));
        await signIn(client, 'linker@example.com');
        const { back } = await socialSignIn(client, 'provider_b', 'code-106');
        expect(back.location).toBe('/account');
        expect(await follow(client, back.location)).toContain('The account is linked.');
        const linker = await (await users()).findByEmail('linker@example.com');
        expect((await (await links()).findByProviderAccount('provider_b', '106'))?.userId).toBe(linker?.id);
        // The account page's card shows it, with the address the provider gave and an Unlink control.
        const account = await client.get('/account');
        expect(account.text).toContain('someone-else@example.com');
        expect(account.text).toContain('Unlink');

        // Someone else presses Link with the same provider account: refused, nothing moves.
        const other = h.server.client();
        expect((await register(other, { email: 'other@example.com' })).status).toBe(303);
        const otherUser = await (await users()).findByEmail('other@example.com');
        if (otherUser !== null) {
          otherUser.markVerified(new Date());
          await (await users()).save(otherUser);
        }
        const again = await socialSignIn(other, 'provider_b', 'code-106-again');
        expect(again.back.location).toBe('/account');
        expect(await follow(other, again.back.location)).toContain(SIGN_IN_MESSAGES['linked-to-another-user']);
        expect((await (await links()).findByProviderAccount('provider_b', '106'))?.userId).toBe(linker?.id);
      });

      it('row "registration closed" is covered by its own app below; unknown providers answer 404 on all three routes', async () => {
        const client = h.server.client();
        expect((await client.get('/auth/provider_z/redirect')).status).toBe(404);
        expect((await client.get('/auth/provider_z/callback?code=x&state=y')).status).toBe(404);
        expect((await register(client, { email: 'z@example.com' })).status).toBe(303);
        await client.get('/account');
        expect((await client.request('DELETE', '/auth/provider_z')).status).toBe(404);
      });

      it('the buttons: "Or continue with" on login and register, with hx-boost="false" links to oauth.redirect', async () => {
        const client = h.server.client();
        for (const path of ['/login', '/register']) {
          const page = (await client.get(path)).text;
          expect(page).toContain('Or continue with');
          expect(page).toMatch(/<a class="fw-button fw-button-outline" href="\/auth\/provider_b\/redirect" hx-boost="false"[^>]*>GitHub<\/a>/u);
        }
      });

      it('Value of state: a callback from another browser, for another provider, after ten minutes or used twice is refused', async () => {
        // Another browser: the state is not in its session.
        const starter = h.server.client();
        const { state } = await startSocialSignIn(starter, 'provider_b');
        const thief = h.server.client();
        const stolen = await thief.get(`/auth/provider_b/callback?code=code-108&state=${state}`);
        expect(stolen.location).toBe('/login');
        expect(await follow(thief, stolen.location)).toContain(TRY_AGAIN);
        expect(await whoAmI(thief)).toBe(null);

        // Ten minutes later, in the browser that started it.
        const late = h.server.client();
        const { state: lateState } = await startSocialSignIn(late, 'provider_b');
        h.clock.advance(10 * 60_000);
        const tooLate = await late.get(`/auth/provider_b/callback?code=code-108&state=${lateState}`);
        expect(tooLate.location).toBe('/login');
        expect(await whoAmI(late)).toBe(null);

        // Used once, whatever the outcome: a second callback with it is refused.
        const twice = h.server.client();
        const { state: used, back } = await socialSignIn(twice, 'provider_b', 'code-does-not-exist');
        expect(back.location).toBe('/login');
        const replay = await twice.get(`/auth/provider_b/callback?code=code-108&state=${used}`);
        expect(replay.location).toBe('/login');
        expect(await whoAmI(twice)).toBe(null);
        expect(await (await users()).findByEmail('two@example.com')).toBeNull();
        const warn = h.testApp.logs.filter((line) => line.level === 'warn' && line.message === 'social sign-in failed');
        expect(warn.length).toBeGreaterThanOrEqual(3);
        expect(JSON.stringify(warn)).not.toContain('code-108');
      });

      it('?remember=1 makes the login last as with "remember me"', async () => {
        PEOPLE.push({ id: 110, email: 'remember@example.com', verified: true });
        const client = h.server.client();
        const { back } = await socialSignIn(client, 'provider_b', 'code-110', '?remember=1');
        expect(back.headers.getSetCookie().join('\n')).toMatch(/Max-Age=2592000/iu);
      });

      it('a provider that fails (token endpoint down): "try again" on the login page, warn with the request id, nothing made', async () => {
        // The latest answer registered wins: the token endpoint is down for this test only.
        const fake = h.testApp.fakeHttp();
        fakeProviderB(fake, PEOPLE);
        fake.on('POST', TOKEN_URL, { status: 503, body: 'down' });
        PEOPLE.push({ id: 111, email: 'down@example.com', verified: true });
        const client = h.server.client();
        const { back } = await socialSignIn(client, 'provider_b', 'code-111');
        expect(back.location).toBe('/login');
        expect(await follow(client, back.location)).toContain(TRY_AGAIN);
        expect(await (await users()).findByEmail('down@example.com')).toBeNull();
        const warn = h.testApp.logs.filter((line) => line.level === 'warn' && line.message === 'social sign-in failed').at(-1);
        expect(JSON.stringify(warn)).toMatch(/requestId/u);
        h.fake = h.testApp.fakeHttp();
        fakeProviderB(h.fake, PEOPLE);
      });

      it('unlink: refused for a password-less user\'s only provider (nothing changes), allowed once a password is set; it needs the CSRF token', async () => {
        const client = h.server.client();
        PEOPLE.push({ id: 112, email: 'only@example.com', verified: true });
        await socialSignIn(client, 'provider_b', 'code-112');
        expect(await whoAmI(client)).toBe('only@example.com');
        await client.get('/account');
        expect((await client.request('DELETE', '/auth/provider_b', { csrf: false })).status).toBe(419);
        const refused = await client.request('DELETE', '/auth/provider_b');
        expect(refused.location).toBe('/account');
        expect(await follow(client, refused.location)).toContain(UNLINK_MESSAGES['only-way-to-log-in']);
        const only = await (await users()).findByEmail('only@example.com');
        expect(await (await links()).listOfUser(only?.id ?? 0)).toHaveLength(1);
        // The card says why and points at 'Set a password'.
        expect((await client.get('/account')).text).toContain('This is your only way to log in.');

        await client.post('/account/password', { form: { password: PASSWORD, password_confirmation: PASSWORD } });
        // Setting a password ends the other sessions and renews this one's CSRF token: the page shows the new one.
        await client.get('/account');
        const unlinked = await client.request('DELETE', '/auth/provider_b');
        expect(await follow(client, unlinked.location)).toContain('The account is unlinked.');
        expect(await (await links()).listOfUser(only?.id ?? 0)).toHaveLength(0);
        expect(h.events.some((e) => e instanceof AccountUnlinked && e.userId === only?.id)).toBe(true);
      });
    });
  }
}

describe('social login with Auth.withoutRegistration()', () => {
  let server: TestServer;
  let testApp: TestApp;
  beforeAll(async () => {
    const made = socialApp(join(dir(), 'closed'), 'sqlite::memory:', { registration: false, driver: 'cookie' });
    testApp = made.testApp;
    fakeProviderB(testApp.fakeHttp(), PEOPLE);
    server = await testApp.serve();
  });
  afterAll(() => server.stop());

  it('row "nobody has the address; without_registration": refused with "no account uses this address", nothing made', async () => {
    const client = server.client();
    const { back } = await socialSignIn(client, 'provider_b', 'code-107');
    expect(back.location).toBe('/login');
    expect(await follow(client, back.location)).toContain(SIGN_IN_MESSAGES['registration-closed']);
    const services = await testApp.app.services();
    expect(await services.get(TOKENS.userRepository).findByEmail('closed@example.com')).toBeNull();
  });
});
