import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Audit, Auth, LoggedIn, LoggedInWith, OAuth, ProviderB, TOKENS } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { aUser } from '../../support/builders.js';
import { PASSWORD, signIn, socialSignIn } from '../../support/flows.js';
import { fakeProviderB } from '../../support/fake-provider-b.js';
import type { FakePerson } from '../../support/fake-provider-b.js';

const dir = useTempDir('fw-oauth-passwordless-');
const PEOPLE: FakePerson[] = [
  { id: 201, email: 'social@example.com', verified: true, name: 'Social' },
  { id: 202, email: 'twofactor@example.com', verified: true, name: 'Two Factor' },
  { id: 203, email: 'stranger@example.com', verified: true },
];

/**
 * Spec 000, 'Users without a password' and 'Login with a second step', over a real socket: a
 * user made by a social login confirms with the provider, resets a password by mail, and a
 * user with two-factor on waits at the challenge after a provider's callback.
 */
describe('users without a password, and the second step, over a real socket', () => {
  const clock = new FixedClock('2026-06-01T08:00:00Z');
  const events: object[] = [];
  let testApp: TestApp;
  let server: TestServer;
  let root = '';

  beforeAll(async () => {
    root = join(dir(), 'app');
    testApp = TestApp.create({
      root,
      clock,
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}`, MAIL_URL: 'log:', APP_URL: 'http://localhost', SESSION_LIFETIME: '600' },
      build: (options) =>
        createWelcomeApp(App.create(options).module(Auth.create().account()).module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b'))).module(Audit.create()))
          .listen(LoggedInWith, (e) => void events.push(e))
          .listen(LoggedIn, (e) => void events.push(e)),
    });
    fakeProviderB(testApp.fakeHttp(), PEOPLE);
    server = await testApp.serve();
  });
  afterAll(() => server.stop());

  it('the password card is "Set a password" without a current-password field', async () => {
    const client = server.client();
    await socialSignIn(client, 'provider_b', 'code-201');
    const page = (await client.get('/account')).text;
    expect(page).toContain('Set a password');
    expect(page).not.toContain('name="current_password"');
    const user = await (await testApp.app.services()).get(TOKENS.userRepository).findByEmail('social@example.com');
    expect(user?.hasPassword()).toBe(false);
  });

  it('after three hours, "Log out other devices" goes to /confirm-password, which offers "Or confirm it\'s you with" and only the linked providers, asking intent=confirm', async () => {
    const client = server.client();
    await socialSignIn(client, 'provider_b', 'code-201-again');
    clock.advance(3 * 60 * 60_000 + 60_000);
    await client.get('/account');
    const asked = await client.post('/account/logout-other-devices');
    expect(asked.location).toBe('/confirm-password');
    const confirm = (await client.get('/confirm-password')).text;
    expect(confirm).toContain("Or confirm it&#39;s you with");
    expect(confirm).toContain('href="/auth/provider_b/redirect?intent=confirm"');
    expect(confirm).not.toContain('name="password"');

    // Coming back from the provider with intent=confirm counts as typing the password.
    const { back } = await socialSignIn(client, 'provider_b', 'code-201-confirm', '?intent=confirm');
    expect(back.location).toBe('/account');
    await client.get('/account');
    const done = await client.post('/account/logout-other-devices');
    expect(done.location).toBe('/account');
    expect((await client.get('/account')).text).toContain('Your other devices have been logged out.');
  });

  it('intent=confirm with a provider account that is not linked to the user confirms nothing', async () => {
    const client = server.client();
    await socialSignIn(client, 'provider_b', 'code-201-third');
    clock.advance(3 * 60 * 60_000 + 60_000);
    const { back } = await socialSignIn(client, 'provider_b', 'code-203', '?intent=confirm');
    expect(back.location).toBe('/confirm-password');
    expect((await client.get('/confirm-password')).text).toContain('This provider account is not linked to yours.');
    const guarded = await client.get('/user/two-factor');
    expect(guarded.status).toBe(200);
    await client.get('/user/two-factor');
    expect((await client.post('/user/two-factor')).location).toBe('/confirm-password');
    expect(await (await testApp.app.services()).get(TOKENS.linkedAccounts).findByProviderAccount('provider_b', '203')).toBeNull();
  });

  it("'Forgot your password?' works: the link goes to the user's verified address and sets a first password", async () => {
    const client = server.client();
    await client.get('/forgot-password');
    await client.post('/forgot-password', { form: { email: 'social@example.com' } });
    const folder = join(root, 'storage', 'mail');
    const mail = readdirSync(folder)
      .map((file) => readFileSync(join(folder, file), 'utf8'))
      .find((text) => text.includes('social@example.com') && /reset-password/u.test(text));
    const link = /http:\/\/localhost\/reset-password\/[A-Za-z0-9_-]+(\?|=3F)[^\s"]*/u.exec(mail?.replace(/=\r?\n/gu, '') ?? '')?.[0];
    expect(link).toBeDefined();
    const token = /reset-password\/([A-Za-z0-9_-]+)/u.exec(link ?? '')?.[1] ?? '';
    await client.get(`/reset-password/${token}?email=social%40example.com`);
    const reset = await client.post('/reset-password', { form: { token, email: 'social@example.com', password: PASSWORD, password_confirmation: PASSWORD } });
    expect(reset.location).toBe('/login');
    const login = await signIn(client, 'social@example.com');
    expect(login.location).toBe('/');
  });

  it('a user with two-factor on waits at the challenge after the callback; LoggedInWith.secondStep is true and LoggedIn fires only after the code', async () => {
    // Made by a first sign-in; two-factor turned on (a login counts as a recent confirmation).
    const client = server.client();
    await socialSignIn(client, 'provider_b', 'code-202');
    await client.get('/user/two-factor');
    await client.post('/user/two-factor');
    const page = (await client.get('/user/two-factor')).text;
    const secret = (/Key: <code>([A-Z2-7 ]+)<\/code>/u.exec(page)?.[1] ?? '').replace(/ /gu, '');
    const totp = (at: Date) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: at.getTime() });
    await client.post('/user/two-factor/confirm', { form: { code: totp(clock.now()) } });
    clock.advance(60_000);

    const user = await (await testApp.app.services()).get(TOKENS.userRepository).findByEmail('twofactor@example.com');
    events.splice(0);
    const browser = server.client();
    const { back } = await socialSignIn(browser, 'provider_b', 'code-202-again');
    expect(back.location).toBe('/two-factor-challenge');
    expect(events).toEqual([new LoggedInWith(user?.id ?? 0, 'provider_b', true)]);
    expect((await browser.get('/account')).location).toBe('/login');
    await browser.get('/two-factor-challenge');
    const passed = await browser.post('/two-factor-challenge', { form: { code: totp(clock.now()) } });
    // The intended page: /account sent the waiting guest to the login page and is remembered.
    expect(passed.location).toBe('/account');
    expect(events.at(-1)).toEqual(new LoggedIn(user?.id ?? 0, false, 'provider_b'));
    expect((await browser.get('/account')).status).toBe(200);
  });

  it('fwx oauth:list shows the links; oauth:unlink follows the route\'s rule', async () => {
    const list = await testApp.call('oauth:list', ['--user', 'twofactor@example.com']);
    expect(list.code).toBe(0);
    expect(list.stdout).toContain('provider_b');
    expect(list.stdout).toContain('202');
    const refused = await testApp.call('oauth:unlink', ['twofactor@example.com', 'provider_b']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain('This is your only way to log in.');
    const unlinked = await testApp.call('oauth:unlink', ['social@example.com', 'provider_b']);
    expect(unlinked.code).toBe(0);
    expect((await testApp.call('oauth:list', ['--json'])).stdout).not.toContain('social@example.com');
    expect((await testApp.call('oauth:unlink', ['nobody@example.com', 'provider_b'])).code).toBe(1);
    expect((await testApp.call('oauth:unlink', ['social@example.com', 'provider_z'])).code).toBe(1);
  });

  it('fwx activity shows the Audit log, newest first, for one user or one action', async () => {
    const mine = await testApp.call('activity', ['--user', 'social@example.com', '--json']);
    expect(mine.code).toBe(0);
    const entries = JSON.parse(mine.stdout) as { action: string; data: Record<string, unknown>; ipAddress: string | null }[];
    const actions = entries.map((e) => e.action);
    // The admin command's unlink comes first: it is the newest, and it had no request (no IP).
    expect(actions[0]).toBe('oauth.unlinked');
    expect(entries[0]?.ipAddress).toBeNull();
    expect(actions).toEqual(expect.arrayContaining(['auth.registered', 'oauth.linked', 'oauth.login', 'auth.login', 'auth.password_reset']));
    const logins = await testApp.call('activity', ['--action', 'oauth.login', '--limit', '2']);
    expect(logins.stdout.split('\n').filter((line) => line.includes('oauth.login'))).toHaveLength(2);
    expect((await testApp.call('activity', ['--limit', '0'])).code).toBe(2);
  });
});

describe('the default app: OAuth.create().providerA().providerB()', () => {
  it('without PROVIDER_* settings: no buttons, and the three routes answer 404', async () => {
    const testApp = TestApp.create({ root: join(dir(), 'default-off'), environment: { MAIL_URL: 'log:' } });
    const server = await testApp.serve();
    try {
      const client = server.client();
      expect((await client.get('/login')).text).not.toContain('Or continue with');
      // Nor a 'Linked accounts' card with nothing in it on the account page.
      await testApp.createUser(aUser({ name: 'Ada', email: 'ada@example.com' }));
      await signIn(client, 'ada@example.com');
      const account = await client.get('/account');
      expect(account.status).toBe(200);
      expect(account.text).not.toContain('Linked accounts');
      for (const provider of ['provider_a', 'provider_b']) {
        expect((await client.get(`/auth/${provider}/redirect`)).status).toBe(404);
        expect((await client.get(`/auth/${provider}/callback?code=a&state=b`)).status).toBe(404);
      }
    } finally {
      await server.stop();
    }
  });

  it('with PROVIDER_B_CLIENT_ID and _SECRET: the GitHub button appears (PROVIDER_B_LABEL renames it) and the redirect goes to the provider', async () => {
    const testApp = TestApp.create({
      root: join(dir(), 'default-on'),
      environment: { MAIL_URL: 'log:', PROVIDER_B_CLIENT_ID: 'id-from-env', PROVIDER_B_CLIENT_SECRET: 'secret-from-env', PROVIDER_B_LABEL: 'GitHub Enterprise' },
    });
    const server = await testApp.serve();
    try {
      const client = server.client();
      const login = (await client.get('/login')).text;
      expect(login).toContain('>GitHub Enterprise</a>');
      await testApp.createUser(aUser({ name: 'Ada', email: 'ada@example.com' }));
      await signIn(client, 'ada@example.com');
      expect((await client.get('/account')).text).toContain('Linked accounts');
      await client.post('/logout');
      expect(login).not.toContain('provider_a/redirect');
      const start = await client.get('/auth/provider_b/redirect');
      expect(new URL(start.location ?? '').searchParams.get('client_id')).toBe('id-from-env');
      expect(start.location).not.toContain('secret-from-env');
      expect((await client.get('/auth/provider_a/redirect')).status).toBe(404);
    } finally {
      await server.stop();
    }
  });
});
