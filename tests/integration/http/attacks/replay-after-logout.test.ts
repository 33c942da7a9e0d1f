import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { Routes, TOKENS, json } from '../../../../composition/index.js';
import { App } from '../../../../composition/index.js';
import type { AppOptions, RequestContext } from '../../../../composition/index.js';
import { createWelcomeApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestClient, TestResponse, TestServer } from '../../../../composition/testing.js';
import type { AppServices } from '../../../../composition/services.js';
import { useTempDir } from '../../../support/databases.js';
import { setCookie } from '../cookie-lines.js';

/**
 * Spec 001, Session transitions and Authentication 5: a login or logout gives a new CSRF token
 * (and with the database driver a new session id); logout ends this device only;
 * `logoutOtherDevices` ends every other session of the user, also copies of old cookies, which
 * with the cookie driver still decrypt: what ends them is the user's session epoch, checked on
 * every request. An attacker here holds copies of the victim's `fw_session` cookie taken at
 * random moments and replays them later, with nothing else.
 */

const SESSION = 'fw_session';

interface Identity {
  userId: number | null;
  token: string;
}

const identity = (ctx: RequestContext) => json({ userId: ctx.user?.id ?? null, token: ctx.session.token() });

/** Routes that sign in and out and say who the session is; `services` is filled once the app runs. */
function authApp(options: AppOptions, services: () => AppServices): App {
  const routes = new Routes()
    .post('/login', async (ctx) => {
      const form = ctx.body() as { email?: string; remember?: string };
      const user = await services().get(TOKENS.findUserByEmail).execute(form.email ?? '');
      if (user === null) throw new Error(`no user ${String(form.email)}`);
      ctx.auth.login(user, { remember: form.remember === '1' });
      return identity(ctx);
    })
    .post('/logout', (ctx) => {
      ctx.auth.logout();
      return identity(ctx);
    })
    .post('/logout-other-devices', async (ctx) => {
      await ctx.auth.logoutOtherDevices();
      return identity(ctx);
    })
    .get('/me', identity)
    .get('/visit', (ctx) => {
      // Changes the session, so every visit sends a new cookie worth copying.
      ctx.session.increment('visits');
      return identity(ctx);
    })
    .post('/save', identity);
  return createWelcomeApp(App.create(options)).module({ name: 'auth-replay', routes });
}

/** A browser: keeps its cookies, and the CSRF token of its session as the last answer gave it. */
class Device {
  readonly client: TestClient;
  seen: Identity = { userId: null, token: '' };

  constructor(server: TestServer) {
    this.client = server.client();
  }

  /** The session cookie as it is now: what an attacker copies. */
  cookie(): string {
    const value = this.client.cookies.get(SESSION);
    if (value === undefined) throw new Error('this device has no session cookie yet');
    return value;
  }

  async get(path: string): Promise<TestResponse> {
    return this.read(await this.client.get(path));
  }

  async post(path: string, form: Record<string, string> = {}): Promise<TestResponse> {
    if (this.seen.token === '') await this.get('/me');
    return this.read(await this.client.post(path, { form: { ...form, _token: this.seen.token } }));
  }

  private read(response: TestResponse): TestResponse {
    expect(response.status, response.text.slice(0, 200)).toBe(200);
    this.seen = response.json<Identity>();
    return response;
  }
}

const drivers = ['cookie', 'database'] as const;

describe('replaying copied session cookies after logout (property-based)', () => {
  const dir = useTempDir('fw-replay-');

  describe.each(drivers)('SESSION_DRIVER=%s', (driver) => {
    const clock = new FixedClock('2026-11-01T09:00:00Z');
    let app: TestApp;
    let server: TestServer;
    let services: AppServices | null = null;
    const users: { alice: number; bob: number } = { alice: 0, bob: 0 };

    beforeAll(async () => {
      app = TestApp.create({
        clock,
        environment: { SESSION_DRIVER: driver, DATABASE_URL: `sqlite:${dir()}/${driver}.sqlite` },
        build: (options) =>
          authApp(options, () => {
            if (services === null) throw new Error('the app is not running yet');
            return services;
          }),
      });
      server = await app.serve();
      services = await app.app.services();
      for (const name of ['alice', 'bob'] as const) {
        const created = await services.get(TOKENS.createUser).execute({ name, email: `${name}@example.com`, password: null, verified: true });
        if (created.kind !== 'created') throw new Error(`cannot create ${name}: ${created.kind}`);
        users[name] = created.user.id;
      }
    });
    afterAll(() => server.stop());

    /** Who a bare copy of a cookie is, sent by a browser that has nothing else. */
    async function replay(cookie: string): Promise<Identity> {
      const response = await server.client().get('/me', { headers: { cookie: `${SESSION}=${cookie}` } });
      expect(response.status).toBe(200);
      return response.json<Identity>();
    }

    async function signIn(device: Device, who: 'alice' | 'bob', remember = false): Promise<void> {
      await device.post('/login', { email: `${who}@example.com`, remember: remember ? '1' : '0' });
      expect(device.seen.userId).toBe(users[who]);
    }

    it('changes the CSRF token at login and at logout; the old token is refused afterwards', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(3), fc.boolean(), async (visits, remember) => {
          const device = new Device(server);
          for (let n = 0; n < visits; n++) await device.get('/visit');
          await device.get('/me');
          const guestToken = device.seen.token;
          await signIn(device, 'alice', remember);
          const userToken = device.seen.token;
          expect(userToken).not.toBe(guestToken);
          expect((await device.client.post('/save', { csrf: false, headers: { 'x-csrf-token': guestToken } })).status).toBe(419);
          await device.post('/logout');
          expect(device.seen).toMatchObject({ userId: null });
          expect(device.seen.token).not.toBe(userToken);
          expect(new Set([guestToken, userToken, device.seen.token]).size).toBe(3);
          expect((await device.client.post('/save', { csrf: false, headers: { 'x-csrf-token': userToken } })).status).toBe(419);
        }),
        { numRuns: 15 },
      );
    });

    it('gives a remember-me login a lasting cookie, and logout takes it back', async () => {
      const device = new Device(server);
      const login = await device.post('/login', { email: 'alice@example.com', remember: '1' });
      expect(Number(setCookie(login, SESSION).attributes.get('max-age'))).toBe(30 * 24 * 60 * 60);
      const logout = await device.post('/logout');
      expect(setCookie(logout, SESSION).attributes.has('max-age')).toBe(false);
    });

    it('never signs in a cookie copied before the victim logged in (session fixation)', async () => {
      await fc.assert(
        fc.asyncProperty(fc.nat(3), fc.boolean(), async (visits, remember) => {
          const victim = new Device(server);
          for (let n = 0; n < visits; n++) await victim.get('/visit');
          await victim.get('/me');
          const planted = victim.cookie();
          const before = victim.seen.token;
          await signIn(victim, 'alice', remember);
          const replayed = await replay(planted);
          expect(replayed.userId).toBeNull();
          expect(replayed.token).not.toBe(victim.seen.token);
          if (driver === 'database') expect(replayed.token).not.toBe(before);
        }),
        { numRuns: 15 },
      );
    });

    it('after a logout, or a login as someone else on the same browser, no copy of the cookie taken while signed in signs anyone in', async () => {
      // With the cookie driver the copies still decrypt: the ended login must be remembered on
      // the server (every server) until the copies' lifetime is over.
      await fc.assert(
        fc.asyncProperty(fc.array(fc.boolean(), { minLength: 0, maxLength: 5 }), fc.boolean(), fc.constantFrom('logout', 'switch'), async (copyAfterVisit, remember, ending) => {
          const victim = new Device(server);
          await signIn(victim, 'alice', remember);
          const copies = [victim.cookie()];
          const tokens = [victim.seen.token];
          for (const copy of copyAfterVisit) {
            await victim.get('/visit');
            if (copy) copies.push(victim.cookie());
            tokens.push(victim.seen.token);
          }
          if (ending === 'logout') await victim.post('/logout');
          else await signIn(victim, 'bob');
          for (const copy of copies) {
            const replayed = await replay(copy);
            expect(replayed.userId).toBeNull();
            expect(tokens).not.toContain(replayed.token);
          }
          // The browser itself goes on as what it is now: a guest, or bob.
          expect((await victim.get('/me')).json<Identity>().userId).toBe(ending === 'logout' ? null : users.bob);
        }),
        { numRuns: 15 },
      );
    });

    it('after logoutOtherDevices, every other device and every copy of an older cookie is a guest; this device stays in', async () => {
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 1, max: 3 }), fc.array(fc.nat(), { maxLength: 6 }), fc.boolean(), async (others, copyMoments, remember) => {
          const keeper = new Device(server);
          const devices = Array.from({ length: others }, () => new Device(server));
          const bystander = new Device(server);
          await signIn(keeper, 'alice');
          for (const device of devices) await signIn(device, 'alice', remember);
          await signIn(bystander, 'bob');
          // Copies of the other devices' cookies, taken between their visits.
          const copies: string[] = [];
          for (const moment of copyMoments) {
            const device = devices[moment % devices.length];
            if (device === undefined) continue;
            await device.get('/visit');
            copies.push(device.cookie());
          }
          const keeperBefore = keeper.cookie();

          await keeper.post('/logout-other-devices');
          expect(keeper.seen.userId).toBe(users.alice);

          for (const device of devices) expect((await device.get('/me')).json<Identity>().userId).toBeNull();
          for (const copy of copies) expect((await replay(copy)).userId).toBeNull();
          // A copy of this device's cookie from before the call is an older session too (the
          // cookie driver: an older epoch; the database driver: the session moved to a new id).
          expect((await replay(keeperBefore)).userId).toBeNull();
          // This device stays signed in, also on later requests, and so does another user.
          expect((await keeper.get('/visit')).json<Identity>().userId).toBe(users.alice);
          expect((await keeper.get('/me')).json<Identity>().userId).toBe(users.alice);
          expect((await bystander.get('/me')).json<Identity>().userId).toBe(users.bob);
        }),
        { numRuns: 15 },
      );
    });
  });
});
