import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import { ProviderA } from '../../../adapters/oauth/providers/provider-a.js';
import { ProviderB } from '../../../adapters/oauth/providers/provider-b.js';
import { FakeHttpClient } from '../../../adapters/outbound-http/fake-http-client.js';
import { Registered, LoggedIn } from '../../../domain/auth/events.js';
import { Credentials } from '../../../domain/oauth/credentials.js';
import { noticeText } from '../../../adapters/http/oauth/oauth-messages.js';
import { english } from '../../support/lang.js';
import { AccountLinked, AccountUnlinked, LoggedInWith } from '../../../domain/oauth/events.js';
import { Profile } from '../../../domain/oauth/profile.js';
import type { OAuth2Provider } from '../../../ports/identity-provider.js';
import { createHost } from '../../../examples/node-http-host/server.js';
import { useTempDir } from '../../support/databases.js';
import { fakeProviderB } from '../../support/fake-provider-b.js';

const C = 'https://c.example.test';

/** A provider of the app's own, written against the port: plain OAuth 2.0, one profile read. */
const providerC: OAuth2Provider = {
  name: () => 'provider_c',
  label: () => 'Provider C',
  credentials: () => Credentials.create('client-c', 'secret-c'),
  authorizeEndpoint: () => `${C}/oauth/authorize`,
  tokenEndpoint: () => `${C}/oauth/token`,
  scopes: () => ['profile', 'email'],
  async profile(http, token) {
    const response = await http.fetch(`${C}/api/me`, { headers: { authorization: `Bearer ${token.accessToken}` } });
    const me = (await response.json()) as { sub: string; email: string; email_verified: boolean; name: string };
    return Profile.create(me.sub).email(me.email, me.email_verified).name(me.name);
  },
};

function answerProviderC(fake: FakeHttpClient): void {
  fake.on('POST', `${C}/oauth/token`, (request) => {
    const form = new URLSearchParams(request.body ?? '');
    // PKCE: the verifier reaches the token endpoint (and only it).
    if (form.get('code') !== 'c-code' || (form.get('code_verifier') ?? '').length < 43) return { status: 400, json: { error: 'invalid_grant' } };
    return { json: { access_token: 'c-token', token_type: 'bearer' } };
  });
  fake.on('GET', `${C}/api/me`, (request) =>
    request.headers['authorization'] === 'Bearer c-token'
      ? { json: { sub: 'c-77', email: 'someone.else@c.example.test', email_verified: true, name: 'Cee' } }
      : { status: 401, json: {} },
  );
}

/** A browser of one: real HTTP, redirects not followed, cookies kept by name. */
class Browser {
  readonly jar = new Map<string, string>();
  readonly setCookies: string[] = [];

  constructor(private readonly base: string) {}

  async request(method: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
    const cookie = [...this.jar].map(([name, value]) => `${name}=${value}`).join('; ');
    const response = await fetch(new URL(path, this.base), { method, redirect: 'manual', headers: { ...headers, ...(cookie ? { cookie } : {}) } });
    for (const set of response.headers.getSetCookie()) {
      this.setCookies.push(set);
      const [pair = ''] = set.split(';');
      const at = pair.indexOf('=');
      this.jar.set(pair.slice(0, at), pair.slice(at + 1));
    }
    return response;
  }

  /** The spec's recipe: GET redirect, read `state` from `location`, come back with a code. */
  async signIn(provider: string, code: string): Promise<{ authorize: URL; back: Response }> {
    const start = await this.request('GET', `/auth/${provider}/redirect`);
    expect(start.status).toBe(303);
    const authorize = new URL(start.headers.get('location') ?? '');
    const back = await this.request('GET', `/auth/${provider}/callback?code=${code}&state=${authorize.searchParams.get('state') ?? ''}`);
    return { authorize, back };
  }

  async me(): Promise<{ status: number; body: Me }> {
    const response = await this.request('GET', '/me', { accept: 'application/json' });
    return { status: response.status, body: (await response.json()) as Me };
  }
}

interface Me {
  id: number;
  email: string;
  csrfToken: string;
}

function describeFlow(name: string, databaseUrl: () => string): void {
  describe(name, () => {
    const fake = new FakeHttpClient();
    const logger = new MemoryLogger();
    const events: object[] = [];
    let close = (): Promise<void> => Promise.resolve();
    let base = '';

    beforeAll(async () => {
      fakeProviderB(fake, [{ id: 201, email: 'embed@example.com', verified: true, name: 'Em Bed' }]);
      answerProviderC(fake);
      const host = createHost({
        // provider_a has no credentials in these settings: it is off, and its routes answer 404.
        providers: [ProviderB.create('client-b', 'secret-b'), providerC, (settings) => ProviderA.fromConfig(settings)],
        app: {
          environment: { APP_URL: 'http://127.0.0.1', APP_KEY: `base64:${randomBytes(32).toString('base64')}`, DATABASE_URL: databaseUrl(), LOG_LEVEL: 'silent' },
          envFile: false,
          logger,
          httpClient: fake,
        },
      });
      for (const type of [Registered, AccountLinked, AccountUnlinked, LoggedInWith, LoggedIn]) host.app.listen(type, (event: object) => void events.push(event));
      await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
      close = async () => {
        await new Promise<void>((resolve, reject) => host.server.close((error) => (error ? reject(error) : resolve())));
        await host.app.close();
      };
    });
    afterAll(() => close());

    it("answers its own route itself and hands every other request to fw's kernel", async () => {
      const own = await fetch(`${base}/host/status`);
      expect([own.status, await own.text()]).toEqual([200, 'the host answers this itself\n']);
      expect(own.headers.get('x-request-id')).toBeNull();
      const health = await fetch(`${base}/health`);
      expect(health.status).toBe(200);
      expect(health.headers.get('x-content-type-options')).toBe('nosniff');
      expect(health.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/u);
    });

    it('signs up with provider_b, links provider_c, unlinks one, and refuses to unlink the last way in', async () => {
      const browser = new Browser(base);
      expect((await browser.me()).status).toBe(401);
      expect((await browser.request('GET', '/auth/provider_a/redirect')).status).toBe(404);
      expect((await browser.request('GET', '/auth/nobody/redirect')).status).toBe(404);

      // 1. A guest signs in with provider_b: a user is made, linked and logged in, by fw.
      const first = await browser.signIn('provider_b', 'code-201');
      expect(first.authorize.origin + first.authorize.pathname).toBe('https://github.com/login/oauth/authorize');
      expect(first.authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(first.authorize.searchParams.get('redirect_uri')).toBe('http://127.0.0.1/auth/provider_b/callback');
      expect(first.back.status).toBe(303);
      expect(first.back.headers.get('location')).toBe('/me');
      expect(browser.setCookies.find((line) => line.startsWith('fw_session='))).toMatch(/; HttpOnly; SameSite=Lax; Path=\//u);
      const signedUp = await browser.me();
      expect(signedUp.status).toBe(200);
      expect(signedUp.body.email).toBe('embed@example.com');
      const userId = signedUp.body.id;
      expect(events).toEqual([new Registered(userId, 'Em Bed', 'embed@example.com', 'provider_b'), new AccountLinked(userId, 'provider_b'), new LoggedInWith(userId, 'provider_b', false), new LoggedIn(userId, false, 'provider_b')]);

      // 2. The logged-in user links a provider_c account (its address does not matter).
      events.length = 0;
      const link = await browser.signIn('provider_c', 'c-code');
      expect(link.back.status).toBe(303);
      expect((await browser.me()).body.id).toBe(userId);
      expect(events).toEqual([new AccountLinked(userId, 'provider_c')]);

      // 3. Unlink needs fw's CSRF token; with it, provider_b goes.
      const asJson = { accept: 'application/json' };
      expect((await browser.request('DELETE', '/auth/provider_b', asJson)).status).toBe(419);
      const token = (await browser.me()).body.csrfToken;
      const unlinked = await browser.request('DELETE', '/auth/provider_b', { ...asJson, 'x-csrf-token': token });
      expect([unlinked.status, await unlinked.json()]).toEqual([200, { provider: 'provider_b', linked: false }]);
      expect(events).toEqual([new AccountLinked(userId, 'provider_c'), new AccountUnlinked(userId, 'provider_b')]);

      // 4. provider_c is now the only way in (no password): refused, nothing changes.
      const refused = await browser.request('DELETE', '/auth/provider_c', { ...asJson, 'x-csrf-token': token });
      expect([refused.status, await refused.json()]).toEqual([409, { provider: 'provider_c', linked: true, message: noticeText(english, 'only-way-to-log-in') }]);
      expect(events).toHaveLength(2);

      // The tokens were used for the profiles only; no log line carries them.
      expect(JSON.stringify(logger.lines)).not.toMatch(/token-201|c-token/u);
    });
  });
}

describeFlow('SQLite in memory', () => 'sqlite::memory:');

describe('on a SQLite file', () => {
  const dir = useTempDir('fw-embedding-');
  describeFlow('SQLite file', () => `sqlite:${join(dir(), 'host.sqlite')}`);
});
