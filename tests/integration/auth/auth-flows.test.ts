import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Auth, LoggedIn, LoggedOut, PasswordReset, Registered, Routes, Verified, json } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { useEngines, useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-auth-');
const engines = useEngines();

/** The Auth module as `npm start` serves it, with a page that needs a login and one that needs a fresh password. */
function authApp(root: string, databaseUrl: string, clock: FixedClock, events: object[]) {
  return TestApp.create({
    root,
    clock,
    environment: { DATABASE_URL: databaseUrl, MAIL_URL: 'log:', APP_URL: 'http://localhost', SESSION_LIFETIME: '600' },
    build: (options) =>
      createWelcomeApp(App.create(options).module(Auth.create().redirectTo('/dashboard')))
        .module({
          name: 'pages',
          routes: new Routes()
            .get('/dashboard', (ctx) => json({ user: ctx.requireUser().email, verified: ctx.requireUser().isVerified() }))
            .requireAuth()
            .get('/danger', () => json({ danger: true }))
            .requirePasswordConfirmed()
            .requireAuth(),
        })
        .listen(Registered, (event) => void events.push(event))
        .listen(LoggedIn, (event) => void events.push(event))
        .listen(LoggedOut, (event) => void events.push(event))
        .listen(PasswordReset, (event) => void events.push(event))
        .listen(Verified, (event) => void events.push(event)),
  });
}

/** The link of the mail with this subject to this address (the log mailer writes every mail to storage/mail). */
async function mailLink(root: string, subject: string, address: string): Promise<{ to: string; link: string }> {
  const folder = join(root, 'storage', 'mail');
  for (const file of readdirSync(folder)) {
    const mail = await simpleParser(readFileSync(join(folder, file)));
    const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
    if (mail.subject !== subject || !to.includes(address)) continue;
    const link = /https?:\/\/\S+/u.exec(mail.text ?? '')?.[0];
    if (link === undefined) throw new Error(`no link in ${file}`);
    return { to, link };
  }
  throw new Error(`no mail '${subject}' to ${address}`);
}

function pathOf(link: string): string {
  const url = new URL(link);
  return `${url.pathname}${url.search}`;
}

for (const engine of engines) {
  describe.skipIf(!engine.available)(`password accounts over a real socket on ${engine.name}`, () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    const events: object[] = [];
    let root: string;
    let app: TestApp;
    let server: TestServer;

    beforeAll(async () => {
      root = join(dir(), engine.name, 'app');
      app = authApp(root, engine.url(), clock, events);
      server = await app.serve();
    });
    afterAll(() => server.stop());

    async function register(email: string, password = 'correct horse battery'): Promise<TestClient> {
      const client = server.client();
      await client.get('/register');
      const answer = await client.post('/register', { form: { name: 'Ada Lovelace', email, password, password_confirmation: password } });
      expect([answer.status, answer.location]).toEqual([303, '/dashboard']);
      return client;
    }

    it('registers, signs the new user in, mails a signed verification link that verifies once', async () => {
      const client = await register('ada@example.com');
      expect((await client.get('/dashboard')).json()).toEqual({ user: 'ada@example.com', verified: false });
      const mail = await mailLink(root, 'Verify your email address', 'ada@example.com');
      expect(mail.link).toMatch(/^http:\/\/localhost\/verify-email\/\d+\/[0-9a-f]{64}\?expires=\d+&signature=[0-9a-f]{64}$/u);
      const tampered = pathOf(mail.link).replace(/signature=(.)/u, (_all, c: string) => `signature=${c === 'a' ? 'b' : 'a'}`);
      expect((await client.get(tampered)).status).toBe(403);
      const verified = await client.get(pathOf(mail.link));
      expect(verified.status).toBe(303);
      expect((await client.get('/dashboard')).json()).toEqual({ user: 'ada@example.com', verified: true });
      expect(events.some((event) => event instanceof Registered)).toBe(true);
      expect(events.some((event) => event instanceof Verified)).toBe(true);
    });

    it('refuses a second account with the same address in another case, keeping the input', async () => {
      const client = server.client();
      await client.get('/register');
      const answer = await client.post('/register', { form: { name: 'Other', email: 'ADA@example.com', password: 'another password', password_confirmation: 'another password' } });
      expect([answer.status, answer.location]).toEqual([303, '/register']);
      const page = await client.get('/register');
      expect(page.text).toContain('The email has already been taken.');
      expect(page.text).toContain('value="Other"');
      expect(page.text).not.toContain('another password');
    });

    it('shows field errors for bad input, never a 500: short password, mismatch, bad email, a 1 MB password', async () => {
      const client = server.client();
      await client.get('/register');
      const answer = await client.post('/register', { form: { name: '', email: 'not-an-email', password: 'short', password_confirmation: 'other' } });
      expect(answer.status).toBe(303);
      const page = (await client.get('/register')).text;
      expect(page).toMatch(/name.*required/iu);
      expect(page).toMatch(/valid email/iu);
      expect(page).toMatch(/at least 8/iu);
      const huge = await client.post('/register', { form: { name: 'Big', email: 'big@example.com', password: 'x'.repeat(1_000_000), password_confirmation: 'x'.repeat(1_000_000) } });
      expect(huge.status).toBeLessThan(500);
    });

    it('logs out, and logs in again landing on the remembered page; one message for a wrong password and an unknown address', async () => {
      const client = await register('grace@example.com');
      // A page after the login carries the new CSRF token, as the page with the logout button would.
      await client.get('/');
      expect((await client.post('/logout')).location).toBe('/');
      expect((await client.get('/dashboard')).location).toBe('/login');

      await client.get('/login');
      for (const [email, password] of [
        ['grace@example.com', 'wrong password'],
        ['nobody@example.com', 'correct horse battery'],
      ] as const) {
        const failed = await client.post('/login', { form: { email, password } });
        expect([failed.status, failed.location]).toEqual([303, '/login']);
        const page = (await client.get('/login')).text;
        expect(page).toContain('These credentials do not match our records.');
        expect(page).toContain(`value="${email}"`);
      }
      const ok = await client.post('/login', { form: { email: 'GRACE@example.com', password: 'correct horse battery' } });
      expect(ok.location).toBe('/dashboard');
      expect(events.filter((event) => event instanceof LoggedOut)).toHaveLength(1);
    });

    it("keeps a 'remember me' login in a cookie that outlives the browser", async () => {
      await register('remember@example.com');
      const client = server.client();
      await client.get('/login');
      const answer = await client.post('/login', { form: { email: 'remember@example.com', password: 'correct horse battery', remember: '1' } });
      expect(answer.headers.getSetCookie().find((line) => line.startsWith('fw_session='))).toMatch(/Max-Age=2592000/u);
    });

    it('locks an address for one client after five failed logins in a minute: 429 with the wait', async () => {
      await register('locked@example.com');
      const client = server.client();
      await client.get('/login');
      for (let i = 0; i < 5; i++) expect((await client.post('/login', { form: { email: 'locked@example.com', password: 'wrong password' } })).status).toBe(303);
      const locked = await client.post('/login', { form: { email: 'locked@example.com', password: 'correct horse battery' } });
      expect(locked.status).toBe(429);
      expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(locked.text).toMatch(/Too many login attempts\. Please try again in \d+ seconds?\./u);
    });

    it('resets a forgotten password by a mailed link, once; the page says the same for unknown addresses', async () => {
      await register('reset@example.com');
      const client = server.client();
      await client.get('/forgot-password');
      await client.post('/forgot-password', { form: { email: 'nobody@example.com' } });
      const unknownPage = (await client.get('/forgot-password')).text;
      await client.post('/forgot-password', { form: { email: 'reset@example.com' } });
      const knownPage = (await client.get('/forgot-password')).text;
      const status = /<p class="fw-status-message"[^>]*>([^<]+)</u;
      expect(status.exec(unknownPage)?.[1]).toBe(status.exec(knownPage)?.[1]);

      const mail = await mailLink(root, 'Reset your password', 'reset@example.com');
      const form = await client.get(pathOf(mail.link));
      expect(form.text).toContain('value="reset@example.com"');
      const token = /name="token" value="([^"]+)"/u.exec(form.text)?.[1] ?? '';
      const done = await client.post('/reset-password', { form: { token, email: 'reset@example.com', password: 'a brand new password', password_confirmation: 'a brand new password' } });
      expect(done.location).toBe('/login');
      const again = await client.post('/reset-password', { form: { token, email: 'reset@example.com', password: 'third password!!', password_confirmation: 'third password!!' } });
      expect(again.status).toBe(303);
      expect((await client.get(again.location ?? '/')).text).toContain('This password reset link is invalid or has expired.');

      await client.get('/login');
      expect((await client.post('/login', { form: { email: 'reset@example.com', password: 'a brand new password' } })).location).toBe('/dashboard');
      expect(events.some((event) => event instanceof PasswordReset)).toBe(true);
    });

    it('asks for the password again after three hours before a sensitive page, then returns there', async () => {
      const client = await register('confirm@example.com');
      expect((await client.get('/danger')).status).toBe(200);
      clock.advance(3 * 60 * 60_000 + 1000);
      expect((await client.get('/danger')).location).toBe('/confirm-password');
      await client.get('/confirm-password');
      const wrong = await client.post('/confirm-password', { form: { password: 'not it' } });
      expect(wrong.location).toBe('/confirm-password');
      expect((await client.get('/confirm-password')).text).toContain('The provided password is incorrect.');
      const right = await client.post('/confirm-password', { form: { password: 'correct horse battery' } });
      expect(right.location).toBe('/danger');
      expect((await client.get('/danger')).status).toBe(200);
    });

    it('sends users away from the guest pages, and guests away from the user pages', async () => {
      const user = await register('pages@example.com');
      expect((await user.get('/login')).location).toBe('/');
      expect((await server.client().get('/verify-email')).location).toBe('/login');
    });
  });

  describe.skipIf(!engine.available)(`Auth without registration on ${engine.name}`, () => {
    it('answers 404 at /register', async () => {
      const app = TestApp.create({
        root: join(dir(), engine.name, 'closed'),
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:' },
        build: (options) => createWelcomeApp(App.create(options).module(Auth.create().withoutRegistration())),
      });
      const server = await app.serve();
      try {
        expect((await server.client().get('/register')).status).toBe(404);
        expect((await server.client().get('/login')).text).not.toContain('/register');
      } finally {
        await server.stop();
      }
    });
  });
}
