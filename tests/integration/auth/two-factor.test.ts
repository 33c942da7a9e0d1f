import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Auth, Routes, json } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { useEngines, useTempDir } from '../../support/databases.js';
import * as flows from '../../support/flows.js';

const dir = useTempDir('fw-two-factor-');
const PASSWORD = 'correct horse battery';

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`two-factor login over a real socket on ${engine.name}`, () => {
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    let server: TestServer;
    let secret = '';
    let recoveryCodes: string[] = [];

    const codeAt = (time: Date) => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: time.getTime() });

    beforeAll(async () => {
      const app = TestApp.create({
        root: join(dir(), engine.name),
        clock,
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:', SESSION_LIFETIME: '600' },
        build: (options) =>
          createWelcomeApp(App.create(options).module(Auth.create().redirectTo('/dashboard'))).module({
            name: 'pages',
            routes: new Routes().get('/dashboard', (ctx) => json({ user: ctx.requireUser().email })).requireAuth(),
          }),
      });
      server = await app.serve();
    });
    afterAll(() => server.stop());

    async function login(client: TestClient): Promise<string | null> {
      return (await flows.signIn(client, 'ada@example.com', PASSWORD)).location;
    }

    it('turns two-factor on: QR code and key, recovery codes shown once, confirmed by a first code', async () => {
      const client = server.client();
      await flows.register(client, { name: 'Ada', email: 'ada@example.com', password: PASSWORD });
      const off = await client.get('/user/two-factor');
      expect(off.text).toContain('Turn on');
      const enabled = await client.post('/user/two-factor');
      expect(enabled.location).toBe('/user/two-factor');
      const page = (await client.get('/user/two-factor')).text;
      expect(page).toContain('<svg');
      secret = (/Key: <code>([A-Z2-7 ]+)<\/code>/u.exec(page)?.[1] ?? '').replace(/ /gu, '');
      expect(secret.length).toBeGreaterThanOrEqual(32);
      recoveryCodes = [...page.matchAll(/<li><code>([0-9a-z-]+)<\/code><\/li>/giu)].map((match) => match[1] ?? '');
      expect(recoveryCodes.length).toBeGreaterThanOrEqual(8);
      expect((await client.get('/user/two-factor')).text).not.toContain(recoveryCodes[0]);

      const wrong = await client.post('/user/two-factor/confirm', { form: { code: '000000' === codeAt(clock.now()) ? '111111' : '000000' } });
      expect(wrong.location).toBe('/user/two-factor');
      await client.post('/user/two-factor/confirm', { form: { code: codeAt(clock.now()) } });
      expect((await client.get('/user/two-factor')).text).toContain('<strong>on</strong>');
    });

    it('asks for the code after the password: the visitor stays a guest until it is right, and a code works once', async () => {
      clock.advance(30_000);
      const client = server.client();
      expect(await login(client)).toBe('/two-factor-challenge');
      expect((await client.get('/dashboard')).location).toBe('/login');
      const challenge = await client.get('/two-factor-challenge');
      expect(challenge.status).toBe(200);
      const bad = await client.post('/two-factor-challenge', { form: { code: '12345x' } });
      expect(bad.location).toBe('/two-factor-challenge');
      expect((await client.get('/two-factor-challenge')).text).toContain('The provided two-factor code was invalid.');
      const code = codeAt(clock.now());
      const passed = await client.post('/two-factor-challenge', { form: { code } });
      expect(passed.location).toBe('/dashboard');
      expect((await client.get('/dashboard')).json()).toEqual({ user: 'ada@example.com' });

      const replay = server.client();
      expect(await login(replay)).toBe('/two-factor-challenge');
      await replay.get('/two-factor-challenge');
      expect((await replay.post('/two-factor-challenge', { form: { code } })).location).toBe('/two-factor-challenge');
    });

    it('lets a recovery code in once', async () => {
      const client = server.client();
      await login(client);
      await client.get('/two-factor-challenge');
      const code = recoveryCodes[0] ?? '';
      expect((await client.post('/two-factor-challenge', { form: { recovery_code: code.toUpperCase() } })).location).toBe('/dashboard');
      const again = server.client();
      await login(again);
      await again.get('/two-factor-challenge');
      expect((await again.post('/two-factor-challenge', { form: { recovery_code: code } })).location).toBe('/two-factor-challenge');
    });

    it('sends a stale pending login back to the login page after ten minutes', async () => {
      const client = server.client();
      await login(client);
      await client.get('/two-factor-challenge');
      clock.advance(11 * 60_000);
      const late = await client.post('/two-factor-challenge', { form: { code: codeAt(clock.now()) } });
      expect(late.location).toBe('/login');
      expect((await client.get('/login')).text).toContain('The login took too long.');
    });
  });
}
