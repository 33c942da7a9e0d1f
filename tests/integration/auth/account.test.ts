import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Auth, InMemoryTokenVerifier, Redirect, Routes, TOKENS, Verified, status } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { useEngines, useOwnDatabase, useTempDir } from '../../support/databases.js';
import * as flows from '../../support/flows.js';

const dir = useTempDir('fw-account-');
const engines = useEngines();
const PASSWORD = 'correct horse battery';

/**
 * The Auth module with its account page, a section of another module (as the OAuth module's
 * card will be), and a test-only login for users without a password (a social login's stand-in).
 */
function accountApp(root: string, databaseUrl: string, clock: FixedClock, events: object[], driver: 'cookie' | 'database', tokens: InMemoryTokenVerifier): TestApp {
  return TestApp.create({
    root,
    clock,
    environment: {
      DATABASE_URL: databaseUrl,
      MAIL_URL: 'log:',
      APP_URL: 'http://localhost',
      SESSION_LIFETIME: '600',
      SESSION_DRIVER: driver,
    },
    build: (options) =>
      createWelcomeApp(
        App.create(options).module(
          Auth.create()
            .account()
            .accountSection({ name: 'linked', template: 'test/linked-section.html', data: (ctx) => ({ who: ctx.requireUser().email }) }),
        ),
      )
        .module({
          name: 'test-login',
          routes: new Routes().get('/test-login/{id}', async (ctx) => {
            const user = await ctx.service(TOKENS.userRepository).findById(ctx.params.int('id'));
            if (user === null) return status(404);
            ctx.auth.login(user);
            return Redirect.intended('/');
          }),
        })
        .listen(Verified, (event) => void events.push(event))
        .tokenVerifier(tokens),
  });
}

async function mailLink(root: string, subject: string, address: string): Promise<string> {
  const folder = join(root, 'storage', 'mail');
  for (const file of readdirSync(folder)) {
    const mail = await simpleParser(readFileSync(join(folder, file)));
    const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
    if (mail.subject !== subject || !to.includes(address)) continue;
    const link = /https?:\/\/\S+/u.exec(mail.text ?? '')?.[0];
    if (link !== undefined) return link;
  }
  throw new Error(`no mail '${subject}' to ${address}`);
}

function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

/** The error shown next to the field of this id, or null. */
function fieldError(page: string, id: string): string | null {
  return new RegExp(`id="${id}-error">([^<]+)<`, 'u').exec(page)?.[1] ?? null;
}

function toast(page: string): string | null {
  return /<div class="fw-toast fw-toast-success"><p class="fw-toast-text">([^<]+)</u.exec(page)?.[1] ?? null;
}

for (const engine of engines) {
  // Both drivers: the cookie one cannot delete other sessions, only the raised epoch ends them.
  describe.skipIf(!engine.available).each(['cookie', 'database'] as const)(`the account page over a real socket on ${engine.name} (%s sessions)`, (driver) => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    const events: object[] = [];
    const tokens = new InMemoryTokenVerifier();
    let root: string;
    let app: TestApp;
    let server: TestServer;
    // The two drivers' describes register the same addresses: a database each.
    const databaseUrl = useOwnDatabase(engine);

    beforeAll(async () => {
      root = join(dir(), engine.name, `app-${driver}`);
      mkdirSync(join(root, 'resources', 'views', 'test'), { recursive: true });
      writeFileSync(
        join(root, 'resources', 'views', 'test', 'linked-section.html'),
        '<h2 id="account-{{ section.name }}-title">Linked accounts</h2><p class="linked">Linked to {{ section.data.who }}</p>',
      );
      app = accountApp(root, databaseUrl(), clock, events, driver, tokens);
      server = await app.serve();
    });
    afterAll(() => server.stop());

    async function user(email: string, options: { password?: boolean } = {}): Promise<number> {
      const made = await app.createUser({ name: 'Ada Lovelace', email, verified: true, ...(options.password === false ? {} : { password: PASSWORD }) });
      return made.id;
    }

    /** Signs in by the login form, then loads the account page (a browser has the form's CSRF token from it). */
    async function signIn(email: string, password = PASSWORD): Promise<TestClient> {
      const client = server.client();
      const answer = await flows.signIn(client, email, password);
      expect([answer.status, answer.location]).toEqual([303, '/']);
      expect((await client.get('/account')).status).toBe(200);
      return client;
    }

    /** A user without a password signs in the way a social login would. */
    async function signInWithoutPassword(id: number): Promise<TestClient> {
      const client = server.client();
      expect((await client.get(`/test-login/${id}`)).status).toBe(303);
      expect((await client.get('/account')).status).toBe(200);
      return client;
    }

    async function isSignedIn(client: TestClient): Promise<boolean> {
      const answer = await client.get('/account');
      if (answer.status === 200) return true;
      expect(answer.location).toBe('/login');
      return false;
    }

    it('sends guests to log in, and shows a user every card, with the sections of other modules', async () => {
      expect((await server.client().get('/account')).location).toBe('/login');
      await user('cards@example.com');
      const client = await signIn('cards@example.com');
      const page = (await client.get('/account')).text;
      expect(page).toContain('<h1>Account</h1>');
      expect(page).toContain('value="Ada Lovelace"');
      expect(page).toContain('value="cards@example.com"');
      expect(page).toContain('Change password');
      expect(page).toContain('name="current_password"');
      expect(page).toContain('Log out other devices');
      expect(page).toContain('Delete account');
      expect(page).toContain('name="_method" value="DELETE"');
      expect(page).toContain('<p class="linked">Linked to cards@example.com</p>');
      // In order: the section after the password card, before 'Log out other devices'.
      const order = ['id="account-profile"', 'id="account-password"', 'id="account-linked"', 'id="account-other-devices"', 'id="account-delete"'].map((id) =>
        page.indexOf(id),
      );
      expect(order.every((at, i) => at > 0 && (i === 0 || at > (order[i - 1] ?? 0)))).toBe(true);
    });

    it('saves the name; refuses a blank name, a bad address and one another user has, keeping the input', async () => {
      await user('profile@example.com');
      await user('taken@example.com');
      const client = await signIn('profile@example.com');

      const blank = await client.post('/account/profile', { form: { name: '', email: 'not-an-email' } });
      expect([blank.status, blank.location]).toEqual([303, '/account']);
      let page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-profile-name')).toMatch(/name field is required/u);
      expect(fieldError(page, 'fw-profile-email')).toMatch(/valid email/u);
      expect(page).toContain('value="not-an-email"');
      // The other cards' errors stay empty: each card has its own bag.
      expect(fieldError(page, 'fw-password-new')).toBeNull();

      await client.post('/account/profile', { form: { name: 'Someone', email: 'TAKEN@example.com' } });
      page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-profile-email')).toBe('The email has already been taken.');

      const saved = await client.post('/account/profile', { form: { name: 'Ada King', email: 'profile@example.com' } });
      expect(saved.location).toBe('/account');
      page = (await client.get('/account')).text;
      expect(toast(page)).toBe('Your profile has been saved.');
      expect(page).toContain('value="Ada King"');
      expect(page).not.toContain('not verified');
    });

    it('makes a new address unverified and mails it a link that verifies it again', async () => {
      await user('old@example.com');
      const client = await signIn('old@example.com');
      await client.post('/account/profile', { form: { name: 'Ada Lovelace', email: 'New@Example.com' } });
      const page = (await client.get('/account')).text;
      expect(toast(page)).toBe('Your profile has been saved. We have emailed a link to verify your new address.');
      expect(page).toContain('value="new@example.com"');
      expect(page).toContain('Your email address is not verified yet');

      const link = await mailLink(root, 'Verify your email address', 'new@example.com');
      const before = events.filter((event) => event instanceof Verified).length;
      expect((await client.get(pathOf(link))).status).toBe(303);
      expect((await client.get('/account')).text).not.toContain('not verified yet');
      expect(events.filter((event) => event instanceof Verified)).toHaveLength(before + 1);
      // The old address no longer signs in; the new one does.
      await client.get('/');
      await client.post('/logout');
      const again = server.client();
      await again.get('/login');
      expect((await again.post('/login', { form: { email: 'old@example.com', password: PASSWORD } })).location).toBe('/login');
      expect((await again.post('/login', { form: { email: 'new@example.com', password: PASSWORD } })).location).toBe('/');
    });

    it('changes the password with the current one, ending the other sessions and keeping this one', async () => {
      await user('change@example.com');
      const client = await signIn('change@example.com');
      const other = await signIn('change@example.com');

      await client.post('/account/password', { form: { current_password: 'wrong password', password: 'a new password', password_confirmation: 'a new password' } });
      let page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-password-current')).toBe('The current password is incorrect.');
      expect(fieldError(page, 'fw-delete-password')).toBeNull();
      expect(page).not.toContain('a new password');

      await client.post('/account/password', { form: { password: 'a new password', password_confirmation: 'another one' } });
      page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-password-current')).toMatch(/current password field is required/u);
      expect(fieldError(page, 'fw-password-new')).toMatch(/confirmation does not match/u);

      const changed = await client.post('/account/password', { form: { current_password: PASSWORD, password: 'a new password', password_confirmation: 'a new password' } });
      expect(changed.location).toBe('/account');
      page = (await client.get('/account')).text;
      expect(toast(page)).toBe('Your password has been changed. Your other devices have been logged out.');
      expect(await isSignedIn(client)).toBe(true);
      expect(await isSignedIn(other)).toBe(false);

      const fresh = server.client();
      await fresh.get('/login');
      expect((await fresh.post('/login', { form: { email: 'change@example.com', password: PASSWORD } })).location).toBe('/login');
      expect((await fresh.post('/login', { form: { email: 'change@example.com', password: 'a new password' } })).location).toBe('/');
    });

    it("offers a user without a password 'Set a password', with no current password, and then 'Change password'", async () => {
      const id = await user('social@example.com', { password: false });
      const client = await signInWithoutPassword(id);
      let page = (await client.get('/account')).text;
      expect(page).toContain('Set a password');
      expect(page).not.toContain('name="current_password"');

      await client.post('/account/password', { form: { password: 'short', password_confirmation: 'short' } });
      page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-password-new')).toMatch(/at least 8/u);

      await client.post('/account/password', { form: { password: 'my first password', password_confirmation: 'my first password' } });
      page = (await client.get('/account')).text;
      expect(toast(page)).toBe('Your password has been set. Your other devices have been logged out.');
      expect(page).toContain('Change password');
      expect(page).toContain('name="current_password"');
      expect(await isSignedIn(client)).toBe(true);
      const fresh = server.client();
      await fresh.get('/login');
      expect((await fresh.post('/login', { form: { email: 'social@example.com', password: 'my first password' } })).location).toBe('/');
    });

    it('logs out the other devices after the password, and not with a wrong one', async () => {
      await user('devices@example.com');
      const client = await signIn('devices@example.com');
      const other = await signIn('devices@example.com');

      await client.post('/account/logout-other-devices', { form: { password: 'not it' } });
      const page = (await client.get('/account')).text;
      expect(fieldError(page, 'fw-devices-password')).toBe('The provided password is incorrect.');
      expect(await isSignedIn(other)).toBe(true);

      const done = await client.post('/account/logout-other-devices', { form: { password: PASSWORD } });
      expect(done.location).toBe('/account');
      expect(toast((await client.get('/account')).text)).toBe('Your other devices have been logged out.');
      expect(await isSignedIn(other)).toBe(false);
      expect(await isSignedIn(client)).toBe(true);
    });

    it('deletes the account after the password: the session ends everywhere and the user is gone', async () => {
      const id = await user('delete@example.com');
      const client = await signIn('delete@example.com');
      const other = await signIn('delete@example.com');

      const wrong = await client.post('/account', { form: { _method: 'DELETE', password: 'not it' } });
      expect(wrong.location).toBe('/account');
      expect(fieldError((await client.get('/account')).text, 'fw-delete-password')).toBe('The provided password is incorrect.');
      const missing = await client.post('/account', { form: { _method: 'DELETE' } });
      expect(missing.location).toBe('/account');
      expect(fieldError((await client.get('/account')).text, 'fw-delete-password')).toMatch(/password field is required/u);
      expect(await (await app.app.services()).get(TOKENS.userRepository).findById(id)).not.toBeNull();

      const deleted = await client.post('/account', { form: { _method: 'DELETE', password: PASSWORD } });
      expect([deleted.status, deleted.location]).toEqual([303, '/']);
      expect((await client.get('/')).text).toContain('Your account has been deleted.');
      expect(await isSignedIn(client)).toBe(false);
      expect(await isSignedIn(other)).toBe(false);
      expect(await (await app.app.services()).get(TOKENS.userRepository).findById(id)).toBeNull();
    });

    it('deletes an account without a password within three hours of signing in; later it asks to confirm first', async () => {
      const id = await user('late@example.com', { password: false });
      const client = await signInWithoutPassword(id);
      expect((await client.get('/account')).text).not.toContain('asked to confirm');
      clock.advance(3 * 60 * 60_000 + 1000);
      expect((await client.get('/account')).text).toContain('You will be asked to confirm that it is you first.');

      const refused = await client.post('/account', { form: { _method: 'DELETE' } });
      expect(refused.location).toBe('/confirm-password');
      expect(await (await app.app.services()).get(TOKENS.userRepository).findById(id)).not.toBeNull();
      // Signing in again counts as a confirmation, and lands on the remembered account page.
      expect((await client.get(`/test-login/${id}`)).location).toBe('/account');
      await client.get('/account');
      const deleted = await client.post('/account', { form: { _method: 'DELETE' } });
      expect(deleted.location).toBe('/');
      expect(await (await app.app.services()).get(TOKENS.userRepository).findById(id)).toBeNull();
      expect(await isSignedIn(client)).toBe(false);
    });

    it('logs out the other devices of a user without a password only after a recent confirmation', async () => {
      const id = await user('nopass-devices@example.com', { password: false });
      const client = await signInWithoutPassword(id);
      const other = await signInWithoutPassword(id);
      clock.advance(3 * 60 * 60_000 + 1000);
      expect((await client.post('/account/logout-other-devices')).location).toBe('/confirm-password');
      expect(await isSignedIn(other)).toBe(true);
      await client.get(`/test-login/${id}`);
      await client.get('/account');
      expect((await client.post('/account/logout-other-devices')).location).toBe('/account');
      expect(await isSignedIn(other)).toBe(false);
      expect(await isSignedIn(client)).toBe(true);
    });

    it('refuses a bearer token: the page changes what sessions hold, and a token has none', async () => {
      const id = await user('token@example.com');
      tokens.add(`token-${driver}`, { userId: id });
      const headers = { authorization: `Bearer token-${driver}` };
      expect((await server.client().get('/account', { headers })).status).toBe(403);
      expect((await server.client().post('/account', { headers, form: { _method: 'DELETE', password: PASSWORD } })).status).toBe(403);
      expect(await (await app.app.services()).get(TOKENS.userRepository).findById(id)).not.toBeNull();
    });
  });

  describe.skipIf(!engine.available)(`Auth without the account page on ${engine.name}`, () => {
    it('answers 404 at /account and its forms', async () => {
      const app = TestApp.create({
        root: join(dir(), engine.name, 'no-account'),
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:' },
        build: (options) => createWelcomeApp(App.create(options).module(Auth.create())),
      });
      const server = await app.serve();
      try {
        const client = server.client();
        await client.get('/login');
        expect((await client.get('/account')).status).toBe(404);
        expect((await client.post('/account/password', { form: { password: 'whatever it is' } })).status).toBe(404);
      } finally {
        await server.stop();
      }
    });
  });
}
