import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SystemClock } from '../../../adapters/clock/system-clock.js';
import { InProcessEventBus } from '../../../adapters/events/in-process-event-bus.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import { ProviderA } from '../../../adapters/oauth/providers/provider-a.js';
import { ProviderB } from '../../../adapters/oauth/providers/provider-b.js';
import { FakeHttpClient } from '../../../adapters/outbound-http/fake-http-client.js';
import { InMemoryLinkedAccounts } from '../../../adapters/persistence/memory/in-memory-linked-accounts.js';
import { InMemoryUserRepository } from '../../../adapters/persistence/memory/in-memory-user-repository.js';
import { openDatabase } from '../../../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../../../adapters/persistence/mikro-orm/database.js';
import { MikroOrmUserRepository } from '../../../adapters/persistence/mikro-orm/mikro-orm-user-repository.js';
import { SqlFileMigrator } from '../../../adapters/persistence/mikro-orm/sql-file-migrator.js';
import { SqlLinkedAccounts } from '../../../adapters/persistence/mikro-orm/sql-linked-accounts.js';
import { Registered, LoggedIn } from '../../../domain/auth/events.js';
import { Credentials } from '../../../domain/oauth/credentials.js';
import { SIGN_IN_MESSAGES, SUCCESS_MESSAGES, UNLINK_MESSAGES } from '../../../domain/oauth/errors.js';
import { AccountLinked, AccountUnlinked, LoggedInWith } from '../../../domain/oauth/events.js';
import { Profile } from '../../../domain/oauth/profile.js';
import type { OAuth2Provider } from '../../../ports/identity-provider.js';
import type { LinkedAccounts } from '../../../ports/linked-accounts.js';
import type { UserRepository } from '../../../ports/user-repository.js';
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

/** A browser of one: real HTTP, redirects not followed, one cookie kept. */
class Browser {
  private cookie = '';
  cookies: string[] = [];

  constructor(private readonly base: string) {}

  async request(method: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
    const response = await fetch(new URL(path, this.base), { method, redirect: 'manual', headers: { ...headers, ...(this.cookie ? { cookie: this.cookie } : {}) } });
    for (const set of response.headers.getSetCookie()) {
      this.cookies.push(set);
      this.cookie = set.split(';')[0] ?? '';
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
    const response = await this.request('GET', '/me');
    return { status: response.status, body: (await response.json()) as Me };
  }
}

interface Me {
  id: number;
  email: string;
  csrfToken: string;
  notice: { message: string } | null;
  accounts: { providers: { name: string; linked: boolean }[]; can_unlink: boolean };
}

function describeFlow(name: string, stores: () => Promise<{ users: UserRepository; linkedAccounts: LinkedAccounts }>): void {
  describe(name, () => {
    const fake = new FakeHttpClient();
    const logger = new MemoryLogger();
    const events: object[] = [];
    let close = (): Promise<void> => Promise.resolve();
    let base = '';

    beforeAll(async () => {
      fakeProviderB(fake, [{ id: 201, email: 'embed@example.com', verified: true, name: 'Em Bed' }]);
      answerProviderC(fake);
      const bus = new InProcessEventBus(logger);
      for (const type of [Registered, AccountLinked, AccountUnlinked, LoggedInWith, LoggedIn]) bus.listen(type, (event: object) => void events.push(event));
      const host = createHost({
        // provider_a has no credentials in these settings: it is off, and its routes answer 404.
        providers: [ProviderB.create('client-b', 'secret-b'), providerC, (settings) => ProviderA.fromConfig(settings)],
        settings: { get: () => undefined },
        http: fake,
        ...(await stores()),
        appUrl: 'http://127.0.0.1',
        events: bus,
        logger,
      });
      await new Promise<void>((resolve) => host.server.listen(0, '127.0.0.1', resolve));
      base = `http://127.0.0.1:${(host.server.address() as AddressInfo).port}`;
      close = () => new Promise((resolve, reject) => host.server.close((error) => (error ? reject(error) : resolve())));
    });
    afterAll(() => close());

    it('signs up with provider_b, links provider_c, unlinks one, and refuses to unlink the last way in', async () => {
      const browser = new Browser(base);
      expect((await browser.me()).status).toBe(401);
      expect((await browser.request('GET', '/auth/provider_a/redirect')).status).toBe(404);
      expect((await browser.request('GET', '/auth/nobody/redirect')).status).toBe(404);

      // 1. A guest signs in with provider_b: a user is made, linked and logged in.
      const first = await browser.signIn('provider_b', 'code-201');
      expect(first.authorize.origin + first.authorize.pathname).toBe('https://github.com/login/oauth/authorize');
      expect(first.authorize.searchParams.get('code_challenge_method')).toBe('S256');
      expect(first.authorize.searchParams.get('redirect_uri')).toBe('http://127.0.0.1/auth/provider_b/callback');
      expect(first.back.status).toBe(303);
      expect(first.back.headers.get('location')).toBe('/me');
      expect(browser.cookies[0]).toMatch(/; HttpOnly; SameSite=Lax/u);
      // A login gets a new session id.
      expect(new Set(browser.cookies.map((cookie) => cookie.split(';')[0])).size).toBe(2);
      const signedUp = await browser.me();
      expect(signedUp.status).toBe(200);
      expect(signedUp.body.email).toBe('embed@example.com');
      expect(signedUp.body.accounts.providers.map((p) => [p.name, p.linked])).toEqual([['provider_b', true], ['provider_c', false]]);
      expect(signedUp.body.accounts.can_unlink).toBe(false);
      const userId = signedUp.body.id;
      expect(events).toEqual([new Registered(userId, 'Em Bed', 'embed@example.com', 'provider_b'), new AccountLinked(userId, 'provider_b'), new LoggedInWith(userId, 'provider_b', false), new LoggedIn(userId, false, 'provider_b')]);

      // The same callback again: the state was spent by the first one.
      const replay = await browser.request('GET', `/auth/provider_b/callback?code=code-201&state=${first.authorize.searchParams.get('state') ?? ''}`);
      expect(replay.status).toBe(303);
      expect((await browser.me()).body.notice?.message).toBe(SIGN_IN_MESSAGES['state-refused']);

      // 2. The logged-in user links a provider_c account (its address does not matter).
      events.length = 0;
      const link = await browser.signIn('provider_c', 'c-code');
      expect(link.back.headers.get('location')).toBe('/me');
      const linked = await browser.me();
      expect(linked.body.id).toBe(userId);
      expect(linked.body.notice?.message).toBe(SUCCESS_MESSAGES.linked);
      expect(linked.body.accounts.providers.every((p) => p.linked)).toBe(true);
      expect(linked.body.accounts.can_unlink).toBe(true);
      expect(events).toEqual([new AccountLinked(userId, 'provider_c')]);

      // 3. Unlink needs the CSRF token; with it, provider_b goes.
      expect((await browser.request('POST', '/auth/provider_b/unlink')).status).toBe(403);
      const unlinked = await browser.request('POST', '/auth/provider_b/unlink', { 'x-csrf-token': linked.body.csrfToken });
      expect(unlinked.status).toBe(200);
      expect(await unlinked.json()).toEqual({ provider: 'provider_b', linked: false });
      expect(events).toEqual([new AccountLinked(userId, 'provider_c'), new AccountUnlinked(userId, 'provider_b')]);

      // 4. provider_c is now the only way in (no password): refused, nothing changes.
      const refused = await browser.request('DELETE', '/auth/provider_c', { 'x-csrf-token': linked.body.csrfToken });
      expect(refused.status).toBe(409);
      expect(await refused.json()).toMatchObject({ provider: 'provider_c', linked: true, reason: 'only-way-to-log-in', message: UNLINK_MESSAGES['only-way-to-log-in'] });
      const after = await browser.me();
      expect(after.body.accounts.providers.map((p) => [p.name, p.linked])).toEqual([['provider_b', false], ['provider_c', true]]);
      expect(events).toHaveLength(2);

      // The token was used for the profile only; no log line carries it.
      expect(JSON.stringify(logger.lines)).not.toMatch(/token-201|c-token/u);
    });
  });
}

describeFlow('in memory', () => {
  const users = new InMemoryUserRepository();
  return Promise.resolve({ users, linkedAccounts: new InMemoryLinkedAccounts(users) });
});

describe('on a SQLite file', () => {
  const dir = useTempDir('fw-embedding-');
  let database: Database | null = null;
  afterAll(async () => {
    await database?.close();
  });
  describeFlow('SqlLinkedAccounts + MikroOrmUserRepository', async () => {
    database = await openDatabase({ engine: 'sqlite', path: join(dir(), 'host.sqlite') });
    const migrations = fileURLToPath(new URL('../../../migrations', import.meta.url));
    await new SqlFileMigrator(database.raw, [{ module: 'fw', directory: migrations }], new SystemClock()).migrate();
    return { users: new MikroOrmUserRepository(database.orm, database.raw), linkedAccounts: new SqlLinkedAccounts(database.raw) };
  });
});
