import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Auth, OAuth, ProviderB } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import { fakeProviderB } from '../../support/fake-provider-b.js';
import { LogMailbox } from '../../support/mailbox.js';
import * as flows from '../../support/flows.js';

/**
 * A reset link is tied to the credentials it was made for: once the password or the address
 * changes, by any path, an outstanding link no longer resets anything (the outside review's
 * account takeover: a mailed link used after the owner changed the password).
 */
const PASSWORD = 'correct horse battery';
const ATTACKER_PASSWORD = 'the attacker wins now';
const MINUTE = 60_000;
const INVALID_RESET = 'This password reset link is invalid or has expired.';
const dir = useTempDir('fw-reset-binding-');

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`an outstanding reset link after a credential change, on ${engine.name}`, () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    let app: TestApp;
    let server: TestServer;
    let mailbox: LogMailbox;

    beforeAll(async () => {
      const root = join(dir(), engine.name);
      mailbox = new LogMailbox(root);
      app = TestApp.create({
        root,
        clock,
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:', APP_URL: 'http://localhost' },
        build: (options) => createWelcomeApp(App.create(options).module(Auth.create().account()).module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b')))),
      });
      fakeProviderB(app.fakeHttp(), [{ id: 301, email: 'social-reset@example.com', verified: true, name: 'Social' }]);
      server = await app.serve();
    });
    afterAll(() => server.stop());
    // The guest forms allow 30 requests a minute per client: a new minute for every test.
    beforeEach(() => clock.advance(MINUTE + 1000));

    async function register(email: string): Promise<TestClient> {
      const client = server.client();
      const answer = await flows.register(client, { name: 'Owner', email, password: PASSWORD });
      expect(answer.location).toBe('/');
      return client;
    }

    /** What the attacker holding the mailed link gets: a fresh browser submits it. */
    async function useLink(token: string, email: string): Promise<{ location: string | null; page: string }> {
      const attacker = server.client();
      await attacker.get(`/reset-password/${token}?email=${encodeURIComponent(email)}`);
      const answer = await attacker.post('/reset-password', { form: { token, email, password: ATTACKER_PASSWORD, password_confirmation: ATTACKER_PASSWORD } });
      return { location: answer.location, page: (await attacker.get(answer.location ?? '/')).text };
    }

    async function signsIn(email: string, password: string): Promise<boolean> {
      return (await flows.signIn(server.client(), email, password)).location === '/';
    }

    async function requestReset(email: string): Promise<string> {
      const client = server.client();
      await client.get('/forgot-password');
      expect((await client.post('/forgot-password', { form: { email } })).status).toBe(303);
      return mailbox.resetToken(email);
    }

    async function expectRefused(token: string, email: string): Promise<void> {
      const used = await useLink(token, email);
      expect(used.location).not.toBe('/login');
      expect(used.page).toContain(INVALID_RESET);
      expect(await signsIn(email, ATTACKER_PASSWORD)).toBe(false);
    }

    it('a password change on /account ends the link; the owner keeps the new password', async () => {
      const owner = await register('changer@example.com');
      const token = await requestReset('changer@example.com');
      await owner.get('/account');
      const changed = await owner.post('/account/password', { form: { current_password: PASSWORD, password: 'owner new password', password_confirmation: 'owner new password' } });
      expect(changed.status).toBe(303);
      await expectRefused(token, 'changer@example.com');
      expect(await signsIn('changer@example.com', 'owner new password')).toBe(true);
    });

    it('an address change on /account ends the link sent to the old address', async () => {
      const owner = await register('mover@example.com');
      const token = await requestReset('mover@example.com');
      await owner.get('/account');
      const moved = await owner.post('/account/profile', { form: { name: 'Owner', email: 'moved@example.com' } });
      expect(moved.status).toBe(303);
      await expectRefused(token, 'moved@example.com');
      await expectRefused(token, 'mover@example.com');
      expect(await signsIn('moved@example.com', PASSWORD)).toBe(true);
    });

    it('fwx user:password ends the link', async () => {
      await register('admin-reset@example.com');
      const token = await requestReset('admin-reset@example.com');
      const set = await app.call('user:password', ['admin-reset@example.com'], { input: ['set by the admin 1'] });
      expect(set.code).toBe(0);
      await expectRefused(token, 'admin-reset@example.com');
      expect(await signsIn('admin-reset@example.com', 'set by the admin 1')).toBe(true);
    });

    it('a completed reset ends every other link: a second link mailed before it no longer works', async () => {
      await register('twice@example.com');
      const first = await requestReset('twice@example.com');
      const used = server.client();
      await used.get(`/reset-password/${first}?email=twice%40example.com`);
      const done = await used.post('/reset-password', { form: { token: first, email: 'twice@example.com', password: 'reset by the owner', password_confirmation: 'reset by the owner' } });
      expect(done.location).toBe('/login');
      await expectRefused(first, 'twice@example.com');
      expect(await signsIn('twice@example.com', 'reset by the owner')).toBe(true);
    });

    it('a user without a password who sets a first one on /account ends the link', async () => {
      const owner = server.client();
      const start = await owner.get('/auth/provider_b/redirect');
      const state = new URL(start.location ?? '').searchParams.get('state') ?? '';
      expect((await owner.get(`/auth/provider_b/callback?code=code-301&state=${state}`)).location).toBe('/');
      const token = await requestReset('social-reset@example.com');
      await owner.get('/account');
      const set = await owner.post('/account/password', { form: { password: 'first password 1', password_confirmation: 'first password 1' } });
      expect(set.status).toBe(303);
      await expectRefused(token, 'social-reset@example.com');
      expect(await signsIn('social-reset@example.com', 'first password 1')).toBe(true);
    });

    it('without a change, the link still works (the binding refuses nothing else)', async () => {
      await register('keeper@example.com');
      const token = await requestReset('keeper@example.com');
      expect((await useLink(token, 'keeper@example.com')).location).toBe('/login');
      expect(await signsIn('keeper@example.com', ATTACKER_PASSWORD)).toBe(true);
    });
  });
}
