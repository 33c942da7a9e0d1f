import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { InMemoryTokenVerifier, Redirect, Routes, TOKENS, json } from '../../../composition/index.js';
import { App } from '../../../composition/index.js';
import type { AppOptions } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import type { User } from '../../../domain/users/user.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { useTempDir } from '../../support/databases.js';

const HOUR = 3_600_000;
const dir = useTempDir('fw-guards-');
const clock = new FixedClock('2026-03-01T12:00:00Z');
const tokens = new InMemoryTokenVerifier();
let repository: UserRepository;

function guardedApp(options: AppOptions) {
  const signIn = new Routes()
    // Test-only sign-in; the Auth module's /login form arrives with its own issue.
    .post('/test-login/{id}', async (ctx) => {
      const user = await repository.findById(ctx.params.int('id'));
      if (user === null) return json({ error: 'no such user' }, 404);
      ctx.auth.login(user);
      return Redirect.intended('/after-login');
    })
    .withoutCsrf();
  const pages = new Routes()
    .get('/login', () => json({ page: 'login' }))
    .name('login')
    .get('/verify-email', () => json({ page: 'verify' }))
    .name('verification.notice')
    .post('/confirm-password', (ctx) => {
      ctx.auth.confirmPassword();
      return Redirect.intended('/');
    });
  const authOnly = new Routes()
    .get('/dashboard', (ctx) => json({ user: ctx.requireUser().email }))
    .post('/dashboard/save', () => json({ saved: true }))
    .requireAuth()
    .get('/public', () => json({ public: true }));
  const verifiedOnly = new Routes().get('/billing', () => json({ billing: true })).requireVerified();
  const guestsOnly = new Routes().get('/register', () => json({ register: true })).guestOnly();
  const roles = new Routes()
    .get('/admin', () => json({ admin: true }))
    .requireRole('admin')
    .get('/reports', () => json({ reports: true }))
    .requirePermission('reports.view')
    .get('/posts/{id}/edit', () => json({ edit: true }))
    .requireGate('edit-posts');
  const abilities = new Routes().post('/orders', () => json({ ordered: true })).requireAbility('orders:write');
  const confirmed = new Routes().get('/settings/danger', () => json({ danger: true })).requirePasswordConfirmed().requireAuth();
  const extractor = new Routes().get('/me', (ctx) => json({ me: ctx.requireUser().email }));

  return createWelcomeApp(App.create(options))
    .tokenVerifier(tokens)
    .roles((user) => (user.email === 'root@example.com' ? ['admin'] : []))
    .permissions((user) => (user.email === 'root@example.com' ? ['reports.view', 'edit-posts'] : []))
    .module({ name: 'guards', routes: signIn.merge(pages).merge(authOnly).merge(verifiedOnly).merge(guestsOnly).merge(roles).merge(abilities).merge(confirmed).merge(extractor) });
}

describe('guards over a real socket', () => {
  let app: TestApp;
  let server: TestServer;
  let ada: User;
  let root: User;
  let newcomer: User;

  beforeAll(async () => {
    app = TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/guards.sqlite`, SESSION_LIFETIME: '600' }, build: guardedApp, clock });
    server = await app.serve();
    repository = (await app.app.services()).get(TOKENS.userRepository);
    ada = await app.createUser({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery', verified: true });
    root = await app.createUser({ name: 'Root', email: 'root@example.com', password: 'correct horse battery', verified: true });
    newcomer = await app.createUser({ name: 'New', email: 'new@example.com', password: 'correct horse battery' });
    tokens.add('read-only', { userId: ada.id, abilities: ['orders:read'] });
    tokens.add('writer', { userId: ada.id, abilities: ['orders:write'] });
    tokens.add('unrestricted', { userId: newcomer.id });
  });
  afterAll(() => server.stop());

  async function as(user: User): Promise<TestClient> {
    const client = server.client();
    expect((await client.post(`/test-login/${user.id}`, { csrf: false })).status).toBe(303);
    return client;
  }

  describe('requireAuth and turned-away guests', () => {
    it('sends a guest to login and, after login, back to the page once', async () => {
      const guest = server.client();
      const turned = await guest.get('/dashboard?tab=2');
      expect([turned.status, turned.location]).toEqual([303, '/login']);
      const login = await guest.post(`/test-login/${ada.id}`, { csrf: false });
      expect(login.location).toBe('/dashboard?tab=2');
      expect((await guest.get('/dashboard')).json()).toEqual({ user: 'ada@example.com' });
      // Used once: the next login lands on the fallback.
      expect((await guest.post(`/test-login/${ada.id}`, { csrf: false })).location).toBe('/after-login');
    });

    it('does not remember a form the guest submitted', async () => {
      const guest = server.client();
      await guest.get('/public');
      const turned = await guest.post('/dashboard/save', { csrf: false, headers: { 'x-csrf-token': 'irrelevant' } });
      // CSRF runs first for a guest's POST without the session token: the page expired.
      expect(turned.status).toBe(419);
      const withToken = await guest.post('/dashboard/save');
      expect([withToken.status, withToken.location]).toEqual([303, '/login']);
      expect((await guest.post(`/test-login/${ada.id}`, { csrf: false })).location).toBe('/after-login');
    });

    it('answers a partial update with HX-Redirect and an API client with 401 JSON', async () => {
      const partial = await server.client().get('/dashboard', { headers: { 'hx-request': 'true' } });
      expect([partial.status, partial.headers.get('hx-redirect')]).toEqual([204, '/login']);
      const apiClient = await server.client().get('/dashboard', { headers: { accept: 'application/json' } });
      expect([apiClient.status, apiClient.json()]).toEqual([401, { message: 'Unauthenticated.' }]);
    });

    it('leaves routes added after the guard public', async () => {
      expect((await server.client().get('/public')).status).toBe(200);
    });

    it('the requireUser() extractor turns guests away like the guard', async () => {
      expect((await server.client().get('/me')).location).toBe('/login');
      expect((await server.client().get('/me', { headers: { accept: 'application/json' } })).status).toBe(401);
      expect((await (await as(ada)).get('/me')).json()).toEqual({ me: 'ada@example.com' });
    });
  });

  it('requireVerified: verified users pass; others to verification.notice, or 403 JSON', async () => {
    expect((await (await as(ada)).get('/billing')).status).toBe(200);
    const unverified = await as(newcomer);
    expect((await unverified.get('/billing')).location).toBe('/verify-email');
    const json = await unverified.get('/billing', { headers: { accept: 'application/json' } });
    expect([json.status, json.json()]).toEqual([403, { message: 'Your email address is not verified.' }]);
    expect((await server.client().get('/billing', { headers: { authorization: 'Bearer unrestricted' } })).status).toBe(403);
    expect((await server.client().get('/billing')).location).toBe('/login');
  });

  it('guestOnly: users go to the home route', async () => {
    expect((await server.client().get('/register')).status).toBe(200);
    const user = await (await as(ada)).get('/register');
    expect([user.status, user.location]).toEqual([303, '/']);
  });

  it('requireRole, requirePermission, requireGate: 403 unless the app allows it; guests to login', async () => {
    const plain = await as(ada);
    const admin = await as(root);
    for (const path of ['/admin', '/reports', '/posts/1/edit']) {
      expect((await plain.get(path)).status).toBe(403);
      expect((await admin.get(path)).status).toBe(200);
      expect((await server.client().get(path)).location).toBe('/login');
    }
  });

  it('requireAbility: tokens need the ability; sessions and unrestricted tokens pass', async () => {
    const post = (token: string) => server.client().post('/orders', { csrf: false, headers: { authorization: `Bearer ${token}` } });
    expect((await post('read-only')).status).toBe(403);
    expect((await post('writer')).status).toBe(200);
    expect((await post('unrestricted')).status).toBe(200);
    expect((await (await as(ada)).post('/orders')).status).toBe(200);
  });

  it('requirePasswordConfirmed: a login counts for three hours, then to /confirm-password and back', async () => {
    const client = await as(ada);
    expect((await client.get('/settings/danger')).status).toBe(200);
    clock.advance(3 * HOUR + 1000);
    const turned = await client.get('/settings/danger');
    expect([turned.status, turned.location]).toEqual([303, '/confirm-password']);
    const confirmed = await client.post('/confirm-password');
    expect(confirmed.location).toBe('/settings/danger');
    expect((await client.get('/settings/danger')).status).toBe(200);
    const api = await client.get('/settings/danger', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(200);
  });
});
