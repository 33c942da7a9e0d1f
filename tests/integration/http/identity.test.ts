import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTokenVerifier, Routes, TOKENS, View, contextKey, json } from '../../../composition/index.js';
import type { UserRepository } from '../../../ports/user-repository.js';
import { App } from '../../../composition/index.js';
import type { AppOptions } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import type { User } from '../../../domain/users/user.js';
import { useTempDir } from '../../support/databases.js';

const MINUTE = 60_000;

/** Routes that sign in and out and report who the kernel thinks is asking. */
function identityApp(tokens: InMemoryTokenVerifier) {
  return (options: AppOptions): App => {
    const routes = new Routes()
      .get('/hello', () => View.make('hello.html'))
      .get('/whoami', (ctx) => json({ user: ctx.user?.email ?? null, token: ctx.session.token(), viaToken: ctx.user?.viaToken ?? false }))
      .post('/login/{id}', async (ctx) => {
        const users = ctx.provided(USERS);
        const user = await users.findById(ctx.params.int('id'));
        if (user === null) return json({ error: 'no user' }, 404);
        const remember = (ctx.body() as Record<string, unknown> | null)?.['remember'] === '1';
        ctx.auth.login(user, { remember });
        return json({ user: user.email, token: ctx.session.token() });
      })
      .post('/logout', (ctx) => {
        ctx.auth.logout();
        return json({ token: ctx.session.token() });
      })
      .post('/logout-other-devices', async (ctx) => {
        await ctx.auth.logoutOtherDevices();
        return json({ ok: true });
      });
    return createWelcomeApp(App.create(options)).tokenVerifier(tokens).module({ name: 'identity-test', routes });
  };
}

const USERS = contextKey<UserRepository>('users');

const dir = useTempDir('fw-identity-');

for (const driver of ['cookie', 'database'] as const) {
  describe(`signing in and out with SESSION_DRIVER=${driver}`, () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    const tokens = new InMemoryTokenVerifier();
    let app: TestApp;
    let server: TestServer;
    let ada: User;

    beforeAll(async () => {
      const root = join(dir(), driver);
      mkdirSync(join(root, 'resources', 'views'), { recursive: true });
      writeFileSync(join(root, 'resources', 'views', 'hello.html'), '{% if auth.check %}Hello {{ auth.user.name }} {{ auth.user | dump }}{% else %}Hello guest{% endif %}');
      app = TestApp.create({
        root,
        environment: { DATABASE_URL: `sqlite:${dir()}/${driver}.sqlite`, SESSION_DRIVER: driver, SESSION_LIFETIME: '120', REMEMBER_LIFETIME: '30d' },
        build: (options) => {
          const built = identityApp(tokens)(options);
          return built;
        },
        clock,
      });
      server = await app.serve();
      const services = await app.app.services();
      app.app.provide(USERS, services.get(TOKENS.userRepository));
      ada = await app.createUser({ name: 'Ada', email: 'ada@example.com', password: 'correct horse battery' });
      tokens.add('ada-token', { userId: ada.id });
    });
    afterAll(() => server.stop());

    async function signedIn(options: { remember?: boolean } = {}): Promise<TestClient> {
      const client = server.client();
      await whoami(client);
      const answer = await client.post(`/login/${ada.id}`, { form: options.remember === true ? { remember: '1' } : {} });
      expect(answer.status).toBe(200);
      await whoami(client);
      return client;
    }

    /** Who the server sees; the client learns the session's current CSRF token from it, like a page's meta tag. */
    const whoami = async (client: TestClient) => {
      const seen = (await client.get('/whoami')).json<{ user: string | null; token: string; viaToken: boolean }>();
      client.csrfToken = seen.token;
      return seen;
    };

    it('signs in with a new CSRF token, and the session remembers the user', async () => {
      const client = server.client();
      const before = await whoami(client);
      expect(before.user).toBeNull();
      const login = (await client.post(`/login/${ada.id}`)).json<{ token: string }>();
      expect(login.token).not.toBe(before.token);
      expect((await whoami(client)).user).toBe('ada@example.com');
    });

    it('gives templates auth.check and the public fields of auth.user, never the password hash', async () => {
      expect((await server.client().get('/hello')).text).toBe('Hello guest');
      const page = (await (await signedIn()).get('/hello')).text;
      expect(page).toContain('Hello Ada');
      expect(page).toContain('ada@example.com');
      expect(page).not.toMatch(/argon2|password_?hash/iu);
    });

    it('logs out this device only, with a new CSRF token', async () => {
      const phone = await signedIn();
      const laptop = await signedIn();
      const before = await whoami(phone);
      const logout = (await phone.post('/logout')).json<{ token: string }>();
      expect(logout.token).not.toBe(before.token);
      expect((await whoami(phone)).user).toBeNull();
      expect((await whoami(laptop)).user).toBe('ada@example.com');
    });

    it('refuses a session cookie copied before the logout', async () => {
      const client = await signedIn();
      const copy = client.cookies.get('fw_session') ?? '';
      await client.post('/logout');
      const replay = server.client();
      replay.cookies.set('fw_session', copy);
      expect((await whoami(replay)).user).toBeNull();
    });

    it("ends the user's other sessions and copies of them with 'log out other devices', keeping this one", async () => {
      const laptop = await signedIn();
      const phone = await signedIn();
      const copiedPhone = phone.cookies.get('fw_session') ?? '';
      const copiedLaptop = laptop.cookies.get('fw_session') ?? '';
      expect((await laptop.post('/logout-other-devices')).status).toBe(200);
      expect((await whoami(laptop)).user).toBe('ada@example.com');
      expect((await whoami(phone)).user).toBeNull();
      for (const copy of [copiedPhone, copiedLaptop]) {
        const replay = server.client();
        replay.cookies.set('fw_session', copy);
        expect((await whoami(replay)).user).toBeNull();
      }
    });

    it('ends a session after SESSION_LIFETIME of inactivity; every visit restarts the clock', async () => {
      const client = await signedIn();
      clock.advance(119 * MINUTE);
      expect((await whoami(client)).user).toBe('ada@example.com');
      clock.advance(119 * MINUTE);
      expect((await whoami(client)).user).toBe('ada@example.com');
      clock.advance(121 * MINUTE);
      expect((await whoami(client)).user).toBeNull();
    });

    it("keeps a 'remember me' session for REMEMBER_LIFETIME, in a cookie that outlives the browser", async () => {
      const client = server.client();
      await whoami(client);
      const answer = await client.post(`/login/${ada.id}`, { form: { remember: '1' } });
      const cookie = answer.headers.getSetCookie().find((line) => line.startsWith('fw_session='));
      expect(cookie).toMatch(/Max-Age=2592000/u);
      clock.advance(29 * 24 * 60 * MINUTE);
      expect((await whoami(client)).user).toBe('ada@example.com');
    });

    it('signs in API clients by Bearer token without a session cookie; an unknown token is 401', async () => {
      const client = server.client();
      const answer = await client.get('/whoami', { headers: { authorization: 'Bearer ada-token' } });
      expect(answer.json()).toMatchObject({ user: 'ada@example.com', viaToken: true });
      expect(answer.headers.getSetCookie().some((line) => line.startsWith('fw_session='))).toBe(false);
      const refused = await client.get('/whoami', { headers: { authorization: 'Bearer nobody' } });
      expect(refused.status).toBe(401);
      expect(refused.json()).toEqual({ message: 'Unauthenticated.' });
    });

    if (driver === 'database') {
      it('keeps only a random id in the cookie, stored hashed, and moves the session to a new id at login and logout', async () => {
        const client = server.client();
        await whoami(client);
        const guestId = client.cookies.get('fw_session') ?? '';
        expect(guestId).toMatch(/^[A-Za-z0-9_-]{43}$/u);
        const raw = (await app.app.services()).get(TOKENS.database).raw;
        const rows = await raw.session((sql) => sql.query<{ id: string }>('SELECT id FROM sessions'));
        const hashed = createHash('sha256').update(guestId).digest('hex');
        expect(rows.map((row) => row.id)).toContain(hashed);
        expect(rows.map((row) => row.id)).not.toContain(guestId);

        await client.post(`/login/${ada.id}`);
        await whoami(client);
        const userId = client.cookies.get('fw_session') ?? '';
        expect(userId).not.toBe(guestId);
        const planted = server.client();
        planted.cookies.set('fw_session', guestId);
        expect((await whoami(planted)).user).toBeNull();

        await client.post('/logout');
        expect(client.cookies.get('fw_session')).not.toBe(userId);
      });

      it('deletes expired rows with `fwx session:prune`', async () => {
        const client = server.client();
        await client.get('/whoami');
        clock.advance(200 * MINUTE);
        const outcome = await app.call('session:prune');
        expect(outcome.code).toBe(0);
        expect(outcome.stdout).toMatch(/Deleted \d+ expired session/u);
        const raw = (await app.app.services()).get(TOKENS.database).raw;
        const live = await raw.session((sql) => sql.query('SELECT id FROM sessions WHERE expires_at <= ?', [clock.now()]));
        expect(live).toHaveLength(0);
      });
    }
  });
}
