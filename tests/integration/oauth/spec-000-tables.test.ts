/**
 * Spec 000 (the social-login module), every table: one `describe` per table and one test per
 * row, named after the row, so a failure says which promise of the spec broke. Each row is
 * asserted over a real socket, through the module's three routes and the pages around them.
 * SQLite only: social-login.test.ts runs the flows on both engines.
 *
 * Three apps share one FixedClock:
 * - `main`: the built-in templates; provider_b with credentials in code, two providers of our
 *   own ('acme', credentials from ACME_CLIENT_ID/_SECRET; 'beta', a function of the settings
 *   with its own code exchange), provider_a without credentials (off), Audit, database
 *   sessions, the database cache store and debug logging (so a whole-database scan and the
 *   log lines can be searched for tokens);
 * - `custom`: provider_b, with fw/auth/login_options.html and oauth/section.html replaced
 *   under its resources/views/ by templates that print the data they receive;
 * - `closed`: Auth.withoutRegistration().redirectTo('/dashboard'), provider_a and provider_b
 *   with credentials from the PROVIDER_A_* and PROVIDER_B_* settings.
 */
import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import * as OTPAuth from 'otpauth';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import type { FakeHttpClient } from '../../../adapters/outbound-http/fake-http-client.js';
import {
  AccountLinked,
  AccountUnlinked,
  App,
  Audit,
  Auth,
  Credentials,
  LoggedIn,
  LoggedInWith,
  OAuth,
  Profile,
  ProviderB,
  Registered,
  Routes,
  TOKENS,
  View,
  json,
} from '../../../composition/index.js';
import type { CodeExchange, HttpClient, Module, OAuth2Provider, ProviderDefinition, Registration } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestResponse, TestServer } from '../../../composition/testing.js';
import { SIGN_IN_MESSAGES, SUCCESS_MESSAGES, TRY_AGAIN, UNLINK_MESSAGES } from '../../../domain/oauth/errors.js';
import { sameSecret } from '../../../domain/security/constant-time.js';
import { useTempDir } from '../../support/databases.js';
import { aUser } from '../../support/builders.js';
import { follow, PASSWORD, signIn, socialSignIn, startSocialSignIn } from '../../support/flows.js';
import { API_URL, TOKEN_URL, fakeProviderB } from '../../support/fake-provider-b.js';
import type { FakePerson } from '../../support/fake-provider-b.js';

// 'Compared in constant time' cannot be seen over a socket. The comparison is watched instead:
// the real function still decides, and the test checks that the callback's state went through it.
vi.mock('../../../domain/security/constant-time.js', async (importOriginal) => {
  const real = await importOriginal<{ sameSecret: (expected: string, actual: string) => boolean }>();
  return { ...real, sameSecret: vi.fn(real.sameSecret) };
});

const dir = useTempDir('fw-spec-000-');
const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const FAR_FUTURE = new Date('2100-01-01T00:00:00Z');
const APP_URL = 'http://fw-app.test';
const asJson = { headers: { accept: 'application/json' } };

const ACME = { authorize: 'https://login.acme.example/oauth/authorize', token: 'https://login.acme.example/oauth/token', me: 'https://api.acme.example/v1/me' };
const BETA = { authorize: 'https://beta.example/authorize', token: 'https://beta.example/token', me: 'https://beta.example/me' };
const IDP = 'https://idp.example';

// ---------------------------------------------------------------------------------------------
// Who the fake providers know. Every test makes its own people, so rows do not share users.
// ---------------------------------------------------------------------------------------------

/** A person at 'acme' (and at 'beta', which shares the directory). */
interface AcmePerson {
  id: number;
  mail: string | null;
  verified: boolean;
  display: string | null;
  /** The profile endpoint answers 500 for this person. */
  profileDown?: boolean;
}

const PEOPLE_B: FakePerson[] = [];
const PEOPLE_ACME: AcmePerson[] = [];
let lastId = 300;
let codes = 0;

function personB(email: string | null, verified = true, name?: string): FakePerson {
  const person: FakePerson = { id: (lastId += 1), email, verified, ...(name === undefined ? {} : { name }) };
  PEOPLE_B.push(person);
  return person;
}

function personAcme(mail: string | null, verified = true, display: string | null = null): AcmePerson {
  const person: AcmePerson = { id: (lastId += 1), mail, verified, display };
  PEOPLE_ACME.push(person);
  return person;
}

/** A fresh one-time code naming the person (the fakes accept each code once). */
const codeB = (p: FakePerson) => `code-${p.id}-${(codes += 1)}`;
const codeAcme = (p: AcmePerson) => `acme-${p.id}-${(codes += 1)}`;
const codeBeta = (p: AcmePerson) => `beta-${p.id}-${(codes += 1)}`;

const acmePersonOfToken = (authorization: string | undefined, prefix: string) => PEOPLE_ACME.find((p) => authorization?.startsWith(`Bearer ${prefix}-${p.id}-`) === true);

/** 'acme': a standard OAuth 2.0 token endpoint (a form POST) and a JSON profile. */
function answerAcme(fake: FakeHttpClient): void {
  const used = new Set<string>();
  let issued = 0;
  fake.on('POST', ACME.token, (request) => {
    const code = new URLSearchParams(request.body ?? '').get('code') ?? '';
    if (code === 'acme-down') return { status: 503, body: 'down for maintenance' };
    const person = PEOPLE_ACME.find((p) => code.startsWith(`acme-${p.id}-`));
    if (person === undefined || used.has(code)) return { status: 400, json: { error: 'invalid_grant' } };
    used.add(code);
    issued += 1;
    return { json: { access_token: `acme-token-${person.id}-${issued}`, token_type: 'Bearer', expires_in: 3600 } };
  });
  fake.on('GET', ACME.me, (request) => {
    const person = acmePersonOfToken(request.headers['authorization'], 'acme-token');
    if (person === undefined) return { status: 401, json: { error: 'invalid_token' } };
    if (person.profileDown === true) return { status: 500, body: 'profile service down' };
    return { json: { sub: `acme-${person.id}`, mail: person.mail, mail_verified: person.verified, display: person.display } };
  });
}

/** 'beta': a token endpoint that wants JSON (what its own `exchange` sends), and a profile. */
function answerBeta(fake: FakeHttpClient): void {
  let issued = 0;
  fake.on('POST', BETA.token, (request) => {
    if (request.headers['content-type'] !== 'application/json') return { status: 415, json: { error: 'send JSON' } };
    const body = JSON.parse(request.body ?? '{}') as { code?: string };
    const person = PEOPLE_ACME.find((p) => body.code?.startsWith(`beta-${p.id}-`) === true);
    if (person === undefined) return { status: 500, body: 'no such code' };
    issued += 1;
    return { json: { token: `beta-token-${person.id}-${issued}` } };
  });
  fake.on('GET', BETA.me, (request) => {
    const person = acmePersonOfToken(request.headers['authorization'], 'beta-token');
    return person === undefined ? { status: 401, json: {} } : { json: { id: `beta-${person.id}`, mail: person.mail, verified: person.verified } };
  });
}

/** provider_a of the closed app: an OpenID issuer's discovery document, and a token endpoint that refuses. */
function answerIdp(fake: FakeHttpClient): void {
  fake.on('GET', `${IDP}/.well-known/openid-configuration`, {
    json: {
      issuer: IDP,
      authorization_endpoint: `${IDP}/authorize`,
      token_endpoint: `${IDP}/token`,
      jwks_uri: `${IDP}/jwks`,
      response_types_supported: ['code'],
      subject_types_supported: ['public'],
      id_token_signing_alg_values_supported: ['RS256'],
    },
  });
  fake.on('POST', `${IDP}/token`, { status: 400, json: { error: 'invalid_grant' } });
}

function installFake(testApp: TestApp): FakeHttpClient {
  const fake = testApp.fakeHttp();
  fakeProviderB(fake, PEOPLE_B);
  answerAcme(fake);
  answerBeta(fake);
  answerIdp(fake);
  return fake;
}

// ---------------------------------------------------------------------------------------------
// The providers of our own (spec: 'Adding another provider')
// ---------------------------------------------------------------------------------------------

/** What `acme.profile` was handed, each time it ran. */
const acmeProfileCalls: { http: HttpClient; accessToken: string }[] = [];
/** What the module handed `beta.exchange`, each time it ran. */
const betaExchanges: CodeExchange[] = [];

const acme: OAuth2Provider = {
  name: () => 'acme',
  label: () => 'Acme',
  credentials: () => Credentials.fromConfig('ACME'),
  authorizeEndpoint: () => ACME.authorize,
  tokenEndpoint: () => ACME.token,
  scopes: () => ['identity', 'email:read'],
  async profile(http, token) {
    acmeProfileCalls.push({ http, accessToken: token.accessToken });
    const response = await http.fetch(ACME.me, { headers: { authorization: `Bearer ${token.accessToken}`, accept: 'application/json' } });
    if (!response.ok) throw new Error(`acme profile answered ${response.status}`);
    const me = (await response.json()) as { sub: string; mail: string | null; mail_verified: boolean; display: string | null };
    return Profile.create(me.sub).email(me.mail, me.mail_verified).name(me.display);
  },
};

/** A definition may be a function of the settings: its label comes from BETA_LABEL. */
const beta: ProviderDefinition = (settings) => ({
  name: () => 'beta',
  label: () => settings.get('BETA_LABEL') ?? 'Beta',
  credentials: () => Credentials.create('beta-id', 'beta-secret'),
  authorizeEndpoint: () => BETA.authorize,
  tokenEndpoint: () => BETA.token,
  scopes: () => ['beta.profile'],
  async exchange(http, request) {
    betaExchanges.push(request);
    const response = await http.fetch(request.tokenEndpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ code: request.code, client: request.clientId, secret: request.clientSecret, verifier: request.codeVerifier, redirect: request.redirectUri }),
    });
    const body = (await response.json()) as { token: string };
    return { accessToken: body.token, tokenType: 'bearer', idTokenClaims: null };
  },
  async profile(http, token) {
    const response = await http.fetch(BETA.me, { headers: { authorization: `Bearer ${token.accessToken}` } });
    const me = (await response.json()) as { id: string; mail: string | null; verified: boolean };
    return Profile.create(me.id).email(me.mail, me.verified);
  },
});

// ---------------------------------------------------------------------------------------------
// The apps
// ---------------------------------------------------------------------------------------------

interface Running {
  testApp: TestApp;
  server: TestServer;
  fake: FakeHttpClient;
  root: string;
}

const clock = new FixedClock('2026-07-01T08:00:00Z');
/** Every event of the main app, in order. */
const events: object[] = [];
/** What `Auth.onRegistered` received in the main app. */
const registrations: Registration[] = [];

/** Routes every app gets: who is logged in (unguarded, so it remembers no intended page), and guarded pages. */
function pagesModule(): Module {
  const open = new Routes()
    .get('/who', (ctx) => json({ user: ctx.user?.email ?? null }))
    .get('/spec000/providers', () => View.make('spec000/providers.html'))
    .get('/my-login', () => View.make('spec000/my-login.html'));
  const secure = new Routes()
    .get('/secure', (ctx) => json({ user: ctx.requireUser().email }))
    .requirePasswordConfirmed()
    .requireAuth();
  const dashboard = new Routes().get('/dashboard', (ctx) => json({ dashboard: ctx.requireUser().email })).requireAuth();
  return { name: 'spec000-pages', routes: open.merge(secure).merge(dashboard) };
}

function write(root: string, path: string, content: string): void {
  mkdirSync(join(root, 'resources', 'views', path, '..'), { recursive: true });
  writeFileSync(join(root, 'resources', 'views', path), content);
}

let main: Running;
let custom: Running;
let closed: Running;

async function serve(testApp: TestApp, root: string): Promise<Running> {
  const fake = installFake(testApp);
  const server = await testApp.serve();
  return { testApp, server, fake, root };
}

beforeAll(async () => {
  const mainRoot = join(dir(), 'main');
  write(mainRoot, 'spec000/providers.html', '<pre id="providers">{{ oauth_providers | dump | safe }}</pre>\n<p id="routes">{{ route("oauth.redirect", "acme") }} {{ route("oauth.callback", "acme") }} {{ route("oauth.unlink", "acme") }}</p>');
  write(mainRoot, 'spec000/my-login.html', '<main id="my-login">{% set page = \'login\' %}{% include "fw/auth/login_options.html" %}</main>');
  // Tests do not read .env: these credentials must not switch provider_a on.
  writeFileSync(join(mainRoot, '.env'), 'PROVIDER_A_CLIENT_ID=from-dotenv\nPROVIDER_A_CLIENT_SECRET=from-dotenv-secret\n');
  const mainApp = TestApp.create({
    root: mainRoot,
    clock,
    environment: {
      DATABASE_URL: `sqlite:${join(mainRoot, 'db.sqlite')}`,
      MAIL_URL: 'log:',
      APP_URL,
      SESSION_LIFETIME: '6000',
      SESSION_DRIVER: 'database',
      CACHE_STORE: 'database',
      LOG_LEVEL: 'debug',
      ACME_CLIENT_ID: 'acme-id',
      ACME_CLIENT_SECRET: 'acme-secret',
      BETA_LABEL: 'Beta Cloud',
    },
    build: (options) =>
      createWelcomeApp(
        App.create(options)
          .module(
            Auth.create()
              .account()
              .onRegistered((registration) => void registrations.push({ ...registration }))
              // No name is this long: the register form refuses everyone, a social sign-in does not run the rules.
              .registrationRules((v) => void v.field('name').min(500)),
          )
          .module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b')).provider(acme).provider(beta).providerA())
          .module(Audit.create()),
      )
        .module(pagesModule())
        .listen(Registered, (e) => void events.push(e))
        .listen(AccountLinked, (e) => void events.push(e))
        .listen(AccountUnlinked, (e) => void events.push(e))
        .listen(LoggedIn, (e) => void events.push(e))
        .listen(LoggedInWith, async (e, services) => {
          events.push(e);
          // The spec's `state.cache`: the app's shared counters, reachable from the listener.
          await services.get(TOKENS.cacheStore).increment(`spec000:logged-in-with:${e.userId}`, FAR_FUTURE);
        }),
  });

  const customRoot = join(dir(), 'custom');
  write(customRoot, 'fw/auth/login_options.html', '<section class="replaced-login-options" data-page="{{ page }}">{{ oauth_providers | dump | safe }}</section>');
  write(customRoot, 'oauth/section.html', '<section class="replaced-section">{{ section.data | dump | safe }}</section>');
  const customApp = TestApp.create({
    root: customRoot,
    clock,
    environment: { DATABASE_URL: `sqlite:${join(customRoot, 'db.sqlite')}`, MAIL_URL: 'log:', APP_URL, SESSION_LIFETIME: '6000' },
    build: (options) =>
      createWelcomeApp(App.create(options).module(Auth.create().account()).module(OAuth.create().provider(ProviderB.create('client-b', 'secret-b')))).module(pagesModule()),
  });

  const closedRoot = join(dir(), 'closed');
  mkdirSync(closedRoot, { recursive: true });
  const closedApp = TestApp.create({
    root: closedRoot,
    clock,
    environment: {
      DATABASE_URL: `sqlite:${join(closedRoot, 'db.sqlite')}`,
      MAIL_URL: 'log:',
      APP_URL,
      SESSION_LIFETIME: '6000',
      LOG_LEVEL: 'info',
      PROVIDER_A_CLIENT_ID: 'a-id-from-settings',
      PROVIDER_A_CLIENT_SECRET: 'a-secret-from-settings',
      PROVIDER_A_ISSUER: IDP,
      PROVIDER_B_CLIENT_ID: 'b-id-from-settings',
      PROVIDER_B_CLIENT_SECRET: 'b-secret-from-settings',
    },
    build: (options) =>
      createWelcomeApp(App.create(options).module(Auth.create().account().withoutRegistration().redirectTo('/dashboard')).module(OAuth.create().providerA().providerB())).module(pagesModule()),
  });

  [main, custom, closed] = await Promise.all([serve(mainApp, mainRoot), serve(customApp, customRoot), serve(closedApp, closedRoot)]);
});

afterAll(async () => {
  await Promise.all([main?.server.stop(), custom?.server.stop(), closed?.server.stop()]);
});

// The routes are throttled (30 a minute per client): each test starts in a fresh window.
beforeEach(() => clock.advance(61_000));

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

const signInB = (client: TestClient, person: FakePerson, query = '') => socialSignIn(client, 'provider_b', codeB(person), query);
const signInAcme = (client: TestClient, person: AcmePerson, query = '') => socialSignIn(client, 'acme', codeAcme(person), query);

async function who(client: TestClient): Promise<string | null> {
  return (await client.get('/who')).json<{ user: string | null }>().user;
}

async function passwordUser(app: Running, email: string, verified = true) {
  return app.testApp.createUser(aUser({ name: 'Pass Word', email, verified }));
}

async function loggedInWithPassword(app: Running, email: string, form: Record<string, string> = {}): Promise<{ client: TestClient; login: TestResponse }> {
  const client = app.server.client();
  const login = await signIn(client, email, PASSWORD, form);
  expect(login.status).toBe(303);
  expect(await who(client)).toBe(email);
  return { client, login };
}

async function unlink(client: TestClient, provider: string, options: { headers?: Record<string, string> } = {}): Promise<TestResponse> {
  // Like the browser: the account page (which carries the CSRF token) is loaded first.
  await client.get('/account');
  return client.request('DELETE', `/auth/${provider}`, options);
}

const services = (app: Running) => app.testApp.app.services();
const userByEmail = async (app: Running, email: string) => (await services(app)).get(TOKENS.userRepository).findByEmail(email);
const linksOf = async (app: Running, userId: number) => (await services(app)).get(TOKENS.linkedAccounts).listOfUser(userId);
const linkOf = async (app: Running, provider: string, providerUserId: string) => (await services(app)).get(TOKENS.linkedAccounts).findByProviderAccount(provider, providerUserId);
const activity = async (app: Running, userId: number) => (await services(app)).get(TOKENS.activityLog).recent({ userId, limit: 50 });

async function sql<Row = Record<string, unknown>>(app: Running, statement: string, params: (string | number)[] = []): Promise<Row[]> {
  const { raw } = (await services(app)).get(TOKENS.database);
  return raw.session((s) => s.query<Row>(statement, params));
}

/** Every row of every table, as text: where a stored token would show. */
async function wholeDatabase(app: Running): Promise<string> {
  const tables = await sql<{ name: string }>(app, "SELECT name FROM sqlite_master WHERE type = 'table'");
  const dump: Record<string, unknown> = {};
  for (const { name } of tables) dump[name] = await sql(app, `SELECT * FROM "${name}"`);
  return JSON.stringify(dump);
}

/** The sessions (database driver) whose stored payload holds `value`. */
async function sessionsHolding(app: Running, value: string): Promise<number> {
  return (await sql<{ payload: string }>(app, 'SELECT payload FROM sessions')).filter((row) => row.payload.includes(value)).length;
}

function eventsOf(userId: number): object[] {
  return events.filter((e) => 'userId' in e && e.userId === userId);
}

const s256 = (verifier: string) => createHash('sha256').update(verifier, 'ascii').digest('base64url');

/** The calls the fake saw from index `from` on. */
const callsSince = (app: Running, from: number) => app.fake.calls.slice(from);

const warnings = (app: Running) => app.testApp.logs.filter((line) => line.level === 'warn' && line.message === 'social sign-in failed');

/** Logged in (with a provider, so no password), then refused at a guarded page once three hours have passed. */
async function socialUser(email: string) {
  const person = personB(email, true, 'Social Person');
  const client = main.server.client();
  const { back } = await signInB(client, person);
  expect(back.location).toBe('/');
  const user = await userByEmail(main, email);
  if (user === null) throw new Error(`${email} was not made`);
  return { person, client, user };
}

// =============================================================================================
// Setup
// =============================================================================================

describe('Setup variables', () => {
  it('Setup variables: APP_URL → base address of the app; callback URLs are built from it', async () => {
    const client = main.server.client();
    const person = personB('app-url@example.com');
    const before = main.fake.calls.length;
    const { authorize, back } = await signInB(client, person);
    expect(main.server.url).not.toContain('fw-app.test');
    expect(authorize.searchParams.get('redirect_uri')).toBe(`${APP_URL}/auth/provider_b/callback`);
    const exchange = callsSince(main, before).find((call) => call.method === 'POST' && call.url === TOKEN_URL);
    expect(new URLSearchParams(exchange?.body ?? '').get('redirect_uri')).toBe(`${APP_URL}/auth/provider_b/callback`);
    expect(back.location).toBe('/');
  });

  it('Setup variables: PROVIDER_A_CLIENT_ID, PROVIDER_A_CLIENT_SECRET → credentials of provider_a', async () => {
    const client = closed.server.client();
    expect((await client.get('/login')).text).toMatch(/href="\/auth\/provider_a\/redirect"[^>]*>Google<\/a>/u);
    const before = closed.fake.calls.length;
    const { authorize, state, response } = await startSocialSignIn(client, 'provider_a');
    expect(`${authorize.origin}${authorize.pathname}`).toBe(`${IDP}/authorize`);
    expect(authorize.searchParams.get('client_id')).toBe('a-id-from-settings');
    expect(response.location).not.toContain('a-secret-from-settings');
    // The secret goes to the token endpoint only (which refuses this made-up code).
    const back = await client.get(`/auth/provider_a/callback?code=made-up&state=${state}`);
    expect(back.location).toBe('/login');
    const exchange = callsSince(closed, before).find((call) => call.method === 'POST' && call.url === `${IDP}/token`);
    const form = new URLSearchParams(exchange?.body ?? '');
    expect([form.get('client_id'), form.get('client_secret')]).toEqual(['a-id-from-settings', 'a-secret-from-settings']);
  });

  it('Setup variables: PROVIDER_B_CLIENT_ID, PROVIDER_B_CLIENT_SECRET → credentials of provider_b', async () => {
    await passwordUser(closed, 'b-settings@example.com');
    const person = personB('b-settings@example.com');
    const client = closed.server.client();
    expect((await client.get('/login')).text).toMatch(/href="\/auth\/provider_b\/redirect"[^>]*>GitHub<\/a>/u);
    const before = closed.fake.calls.length;
    const { authorize, back } = await signInB(client, person);
    expect(authorize.searchParams.get('client_id')).toBe('b-id-from-settings');
    expect(authorize.href).not.toContain('b-secret-from-settings');
    const exchange = callsSince(closed, before).find((call) => call.method === 'POST' && call.url === TOKEN_URL);
    const form = new URLSearchParams(exchange?.body ?? '');
    expect([form.get('client_id'), form.get('client_secret')]).toEqual(['b-id-from-settings', 'b-secret-from-settings']);
    expect(back.location).toBe('/dashboard');
    expect(await who(client)).toBe('b-settings@example.com');
  });

  it('Setup variables: <NAME>_CLIENT_ID, <NAME>_CLIENT_SECRET → credentials of a custom provider (Credentials.fromConfig("ACME") reads ACME_CLIENT_ID, ACME_CLIENT_SECRET)', async () => {
    const person = personAcme('name-prefix@example.com');
    const client = main.server.client();
    const before = main.fake.calls.length;
    const { authorize, back } = await signInAcme(client, person);
    expect(authorize.searchParams.get('client_id')).toBe('acme-id');
    expect(authorize.href).not.toContain('acme-secret');
    const exchange = callsSince(main, before).find((call) => call.method === 'POST' && call.url === ACME.token);
    const form = new URLSearchParams(exchange?.body ?? '');
    expect([form.get('client_id'), form.get('client_secret')]).toEqual(['acme-id', 'acme-secret']);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('name-prefix@example.com');
  });
});

describe('Setup steps', () => {
  it('Setup 2: OAuth is registered after Auth (without Auth before it the app refuses to be built; no HTTP involved)', () => {
    expect(() => App.create({ environment: {}, envFile: false }).module(OAuth.create().provider(acme))).toThrow(/Register OAuth after Auth/u);
  });

  it('Setup 4: credentials may be given in code (ProviderB.create(client_id, client_secret))', async () => {
    const person = personB('in-code@example.com');
    const client = main.server.client();
    const before = main.fake.calls.length;
    const { authorize, back } = await signInB(client, person);
    expect(authorize.searchParams.get('client_id')).toBe('client-b');
    const exchange = callsSince(main, before).find((call) => call.method === 'POST' && call.url === TOKEN_URL);
    const form = new URLSearchParams(exchange?.body ?? '');
    expect([form.get('client_id'), form.get('client_secret')]).toEqual(['client-b', 'secret-b']);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('in-code@example.com');
  });

  it('Setup 5: a provider without a client id and secret is off: no button, its routes answer 404, the same code runs (provider_b beside it works)', async () => {
    const guest = main.server.client();
    const login = (await guest.get('/login')).text;
    expect(login).not.toContain('provider_a');
    expect(login).not.toContain('Google');
    expect(login).toContain('href="/auth/provider_b/redirect"');
    expect((await guest.get('/auth/provider_a/redirect')).status).toBe(404);
    expect((await guest.get('/auth/provider_a/callback?code=x&state=y')).status).toBe(404);
    const { client } = await socialUser('off-beside@example.com');
    expect((await unlink(client, 'provider_a')).status).toBe(404);
    expect((await client.get('/auth/provider_b/redirect')).status).toBe(303);
  });

  it('Setup 6: migrations create oauth_accounts (TestApp.serve runs them; checked in the database)', async () => {
    const tables = await sql<{ name: string }>(main, "SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'oauth_accounts'");
    expect(tables).toEqual([{ name: 'oauth_accounts' }]);
  });
});

// =============================================================================================
// Adding another provider
// =============================================================================================

describe("Adding another provider: the Provider's members", () => {
  const person = personAcme('acme-member@example.com', true, 'Acme Member');
  let signedIn: Awaited<ReturnType<typeof socialSignIn>>;
  let client: TestClient;
  /** What the fake saw during this sign-in. */
  let calls: FakeHttpClient['calls'] = [];

  beforeAll(async () => {
    client = main.server.client();
    const before = main.fake.calls.length;
    acmeProfileCalls.splice(0);
    signedIn = await signInAcme(client, person);
    calls = callsSince(main, before);
  });

  it('Adding another provider: name() → string used in URLs and in the table', async () => {
    expect(signedIn.response.status).toBe(303);
    expect(signedIn.authorize.searchParams.get('redirect_uri')).toBe(`${APP_URL}/auth/acme/callback`);
    expect(signedIn.back.location).toBe('/');
    const user = await userByEmail(main, 'acme-member@example.com');
    const stored = await sql<{ provider: string; provider_user_id: string }>(main, 'SELECT provider, provider_user_id FROM oauth_accounts WHERE user_id = ?', [user?.id ?? 0]);
    expect(stored).toEqual([{ provider: 'acme', provider_user_id: `acme-${person.id}` }]);
  });

  it('Adding another provider: label() → string shown on buttons', async () => {
    const login = (await main.server.client().get('/login')).text;
    expect(login).toMatch(/href="\/auth\/acme\/redirect" hx-boost="false"[^>]*>Acme<\/a>/u);
    // 'beta' is a definition of the settings: its label is BETA_LABEL.
    expect(login).toMatch(/href="\/auth\/beta\/redirect" hx-boost="false"[^>]*>Beta Cloud<\/a>/u);
  });

  it('Adding another provider: credentials() → Credentials.create(id, secret) or Credentials.fromConfig(PREFIX)', async () => {
    // fromConfig('ACME'): ACME_CLIENT_ID and ACME_CLIENT_SECRET.
    expect(signedIn.authorize.searchParams.get('client_id')).toBe('acme-id');
    const exchange = calls.find((call) => call.method === 'POST' && call.url === ACME.token);
    expect(new URLSearchParams(exchange?.body ?? '').get('client_secret')).toBe('acme-secret');
    // create('beta-id', 'beta-secret'): in code.
    const betaPerson = personAcme('beta-credentials@example.com');
    betaExchanges.splice(0);
    const betaStart = await socialSignIn(main.server.client(), 'beta', codeBeta(betaPerson));
    expect(betaStart.authorize.searchParams.get('client_id')).toBe('beta-id');
    expect(betaExchanges.map((e) => [e.clientId, e.clientSecret])).toEqual([['beta-id', 'beta-secret']]);
  });

  it("Adding another provider: authorize_endpoint() → provider's authorization URL", () => {
    expect(`${signedIn.authorize.origin}${signedIn.authorize.pathname}`).toBe(ACME.authorize);
    expect(signedIn.authorize.searchParams.get('response_type')).toBe('code');
  });

  it("Adding another provider: token_endpoint() → provider's token URL", () => {
    const exchanges = calls.filter((call) => call.method === 'POST');
    expect(exchanges.map((call) => call.url)).toEqual([ACME.token]);
    const form = new URLSearchParams(exchanges[0]?.body ?? '');
    expect(form.get('grant_type')).toBe('authorization_code');
    expect(form.get('code')).toMatch(new RegExp(`^acme-${person.id}-`, 'u'));
  });

  it('Adding another provider: scopes() → list of scope strings (sent in the authorization URL)', () => {
    expect(signedIn.authorize.searchParams.get('scope')).toBe('identity email:read');
  });

  it('Adding another provider: profile(http, token) → asynchronous, returns a Profile; token.access_token is the bearer value; the call goes through the app\'s HTTP client', async () => {
    expect(acmeProfileCalls).toHaveLength(1);
    const accessToken = acmeProfileCalls[0]?.accessToken ?? '';
    expect(accessToken).toMatch(new RegExp(`^acme-token-${person.id}-`, 'u'));
    // The client profile() was handed is the app's: its request reached the test's fake.
    const reads = calls.filter((call) => call.url === ACME.me);
    expect(reads).toHaveLength(1);
    expect(reads[0]?.headers['authorization']).toBe(`Bearer ${accessToken}`);
    // Profile.create(id).email(address, verified).name(name) made the account.
    const user = await userByEmail(main, 'acme-member@example.com');
    expect([user?.name, user?.isVerified(), user?.hasPassword()]).toEqual(['Acme Member', true, false]);
    expect(await who(client)).toBe('acme-member@example.com');
  });

  it('Adding another provider: exchange → optional override, called instead of the standard request', async () => {
    const betaPerson = personAcme('beta-exchange@example.com');
    const browser = main.server.client();
    betaExchanges.splice(0);
    const from = main.fake.calls.length;
    const code = codeBeta(betaPerson);
    const { authorize, back } = await socialSignIn(browser, 'beta', code);
    expect(betaExchanges).toHaveLength(1);
    const exchange = betaExchanges[0];
    expect(exchange).toMatchObject({ tokenEndpoint: BETA.token, clientId: 'beta-id', clientSecret: 'beta-secret', code, redirectUri: `${APP_URL}/auth/beta/callback` });
    expect(s256(exchange?.codeVerifier ?? '')).toBe(authorize.searchParams.get('code_challenge'));
    // Only the override's own JSON request reached the token endpoint: no standard form POST.
    const posts = callsSince(main, from).filter((call) => call.method === 'POST');
    expect(posts.map((call) => [call.url, call.headers['content-type']])).toEqual([[BETA.token, 'application/json']]);
    expect(back.location).toBe('/');
    expect(await who(browser)).toBe('beta-exchange@example.com');
  });
});

// =============================================================================================
// Template data
// =============================================================================================

describe('Template data', () => {
  it('Template data: fw/auth/login_options.html receives page (login, register, confirm) and oauth_providers (name, label, url)', async () => {
    const client = custom.server.client();
    const buttons = [{ name: 'provider_b', label: 'GitHub', url: '/auth/provider_b/redirect' }];
    const shown = (page: string) => {
      const match = /<section class="replaced-login-options" data-page="([^"]*)">([^<]*)<\/section>/u.exec(page);
      return { page: match?.[1], providers: JSON.parse(match?.[2] ?? 'null') as unknown };
    };
    expect(shown((await client.get('/login')).text)).toEqual({ page: 'login', providers: buttons });
    expect(shown((await client.get('/register')).text)).toEqual({ page: 'register', providers: buttons });
    const person = personB('page-confirm@example.com');
    await signInB(client, person);
    expect(await who(client)).toBe('page-confirm@example.com');
    // On the confirm page the buttons are the user's linked providers, and they confirm.
    expect(shown((await client.get('/confirm-password')).text)).toEqual({ page: 'confirm', providers: [{ ...buttons[0], url: '/auth/provider_b/redirect?intent=confirm' }] });
  });

  it('Template data: oauth/section.html receives section.data with providers (name, label, link_url, linked, email, since), has_password, can_unlink, set_password_url', async () => {
    const client = custom.server.client();
    const person = personB('section-data@example.com');
    const linkedAt = clock.now();
    await signInB(client, person);
    const page = (await client.get('/account')).text;
    const data = JSON.parse(/<section class="replaced-section">([^<]*)<\/section>/u.exec(page)?.[1] ?? 'null') as unknown;
    expect(data).toEqual({
      providers: [{ name: 'provider_b', label: 'GitHub', link_url: '/auth/provider_b/redirect', linked: true, email: 'section-data@example.com', since: linkedAt.toISOString() }],
      has_password: false,
      can_unlink: false,
      set_password_url: '/account#account-password',
    });
    // A user with a password and nothing linked.
    await passwordUser(custom, 'section-password@example.com');
    const { client: other } = await loggedInWithPassword(custom, 'section-password@example.com');
    const otherData = JSON.parse(/<section class="replaced-section">([^<]*)<\/section>/u.exec((await other.get('/account')).text)?.[1] ?? 'null') as unknown;
    expect(otherData).toEqual({
      providers: [{ name: 'provider_b', label: 'GitHub', link_url: '/auth/provider_b/redirect', linked: false, email: null, since: null }],
      has_password: true,
      can_unlink: true,
      set_password_url: '/account#account-password',
    });
  });

  it('Template data: every view also receives oauth_providers (the providers that have credentials)', async () => {
    const page = (await main.server.client().get('/spec000/providers')).text;
    const providers = JSON.parse(/<pre id="providers">([^<]*)<\/pre>/u.exec(page)?.[1] ?? 'null') as unknown;
    expect(providers).toEqual([
      { name: 'provider_b', label: 'GitHub', url: '/auth/provider_b/redirect' },
      { name: 'acme', label: 'Acme', url: '/auth/acme/redirect' },
      { name: 'beta', label: 'Beta Cloud', url: '/auth/beta/redirect' },
    ]);
  });

  it("Template data: a file of the same name under the app's resources/views/ replaces a built-in template (fw/auth/login_options.html, oauth/section.html)", async () => {
    const client = custom.server.client();
    const login = (await client.get('/login')).text;
    expect(login).toContain('class="replaced-login-options"');
    expect(login).not.toContain('Or continue with');
    const person = personB('replaced@example.com');
    await signInB(client, person);
    const account = (await client.get('/account')).text;
    expect(account).toContain('class="replaced-section"');
    expect(account).not.toContain('fw-linked-accounts');
    // The app without replacements shows the built-in ones.
    expect((await main.server.client().get('/login')).text).toContain('Or continue with');
  });

  it("Template data: a custom login page includes the buttons with page = 'login' around an include of fw/auth/login_options.html", async () => {
    const page = (await main.server.client().get('/my-login')).text;
    expect(page).toContain('<main id="my-login">');
    expect(page).toContain('Or continue with');
    for (const [name, label] of [
      ['provider_b', 'GitHub'],
      ['acme', 'Acme'],
      ['beta', 'Beta Cloud'],
    ]) {
      expect(page).toContain(`href="/auth/${name}/redirect" hx-boost="false" data-provider="${name}">${label}</a>`);
    }
  });
});

// =============================================================================================
// States and transitions
// =============================================================================================

describe('Outcome of a callback', () => {
  it('Outcome: this provider account is already linked to a user → that user is logged in, whatever address the provider reports now', async () => {
    const { person, user } = await socialUser('linked-first@example.com');
    // Now the provider reports another verified address, even one a different user has.
    await passwordUser(main, 'someone-else-owns@example.com');
    person.email = 'someone-else-owns@example.com';
    const client = main.server.client();
    const { back } = await signInB(client, person);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('linked-first@example.com');
    expect((await linkOf(main, 'provider_b', String(person.id)))?.userId).toBe(user.id);
  });

  it('Outcome: not linked; the provider did not verify the address or gave none → refused; nothing linked, no account made', async () => {
    for (const person of [personB('unverified-at-provider@example.com', false), personB(null, false)]) {
      const client = main.server.client();
      const { back } = await signInB(client, person);
      expect(back.location).toBe('/login');
      expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['unverified-email']);
      expect(await who(client)).toBeNull();
      expect(await linkOf(main, 'provider_b', String(person.id))).toBeNull();
    }
    expect(await userByEmail(main, 'unverified-at-provider@example.com')).toBeNull();
  });

  it("Outcome: not linked; a user has this address, that user's address is verified and the provider verified it → linked to that user, who is logged in", async () => {
    const owner = await passwordUser(main, 'verified-owner@example.com');
    const person = personB('verified-owner@example.com');
    const client = main.server.client();
    const { back } = await signInB(client, person);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('verified-owner@example.com');
    expect((await linksOf(main, owner.id)).map((l) => [l.provider, l.providerUserId])).toEqual([['provider_b', String(person.id)]]);
  });

  it("Outcome: not linked; a user has this address but that user's address is not verified → refused, with the advice to log in with the password and link from the account page", async () => {
    const owner = await passwordUser(main, 'unverified-owner@example.com', false);
    const person = personB('unverified-owner@example.com');
    const client = main.server.client();
    const { back } = await signInB(client, person);
    expect(back.location).toBe('/login');
    expect(await follow(client, back)).toContain('Log in with your password, then link the provider from your account page.');
    expect(await who(client)).toBeNull();
    expect(await linksOf(main, owner.id)).toEqual([]);
  });

  it('Outcome: not linked; nobody has the address; registration is open → a new user is made (no password, address verified), linked and logged in', async () => {
    const person = personB('brand-new@example.com', true, 'Brand New');
    const client = main.server.client();
    const { back } = await signInB(client, person);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('brand-new@example.com');
    const user = await userByEmail(main, 'brand-new@example.com');
    expect([user?.name, user?.hasPassword(), user?.isVerified()]).toEqual(['Brand New', false, true]);
    expect((await linksOf(main, user?.id ?? 0)).map((l) => l.providerUserId)).toEqual([String(person.id)]);
  });

  it('Outcome: not linked; nobody has the address; Auth.withoutRegistration() is set → refused with the message that no account uses this address', async () => {
    const person = personB('closed-nobody@example.com');
    const client = closed.server.client();
    const { back } = await signInB(client, person);
    expect(back.location).toBe('/login');
    expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['registration-closed']);
    expect(await who(client)).toBeNull();
    expect(await userByEmail(closed, 'closed-nobody@example.com')).toBeNull();
  });

  it('Outcome: a logged-in user returns (they pressed Link) → linked to them unless linked to someone else or they already have an account at this provider; the address does not matter', async () => {
    const linker = await passwordUser(main, 'link-presser@example.com');
    const { client } = await loggedInWithPassword(main, 'link-presser@example.com');
    const theirs = personB('a-different-address@example.com');
    const { back } = await signInB(client, theirs);
    expect(back.location).toBe('/account');
    expect(await follow(client, back)).toContain(SUCCESS_MESSAGES.linked);
    expect((await linkOf(main, 'provider_b', String(theirs.id)))?.userId).toBe(linker.id);
    // Linked to someone else: refused.
    const { person: taken, user: takenOwner } = await socialUser('taken-by-other@example.com');
    await passwordUser(main, 'second-presser@example.com');
    const { client: second } = await loggedInWithPassword(main, 'second-presser@example.com');
    const refused = await signInB(second, taken);
    expect(await follow(second, refused.back)).toContain(SIGN_IN_MESSAGES['linked-to-another-user']);
    expect((await linkOf(main, 'provider_b', String(taken.id)))?.userId).toBe(takenOwner.id);
    // Already an account at this provider: refused.
    const another = personB('another-b-account@example.com');
    const again = await signInB(client, another);
    expect(await follow(client, again.back)).toContain(SIGN_IN_MESSAGES['provider-already-linked']);
    expect(await linkOf(main, 'provider_b', String(another.id))).toBeNull();
    expect(await who(client)).toBe('link-presser@example.com');
  });

  it('Outcome: a logged-in user returns after ?intent=confirm → the user is treated as having confirmed their identity', async () => {
    const { person, client, user } = await socialUser('confirm-outcome@example.com');
    clock.advance(3 * HOUR + MINUTE);
    const asked = await client.get('/secure');
    expect(asked.location).toBe('/confirm-password');
    const { back } = await signInB(client, person, '?intent=confirm');
    expect(back.location).toBe('/secure');
    expect((await client.get('/secure')).status).toBe(200);
    expect(await linksOf(main, user.id)).toHaveLength(1);
  });

  it('Outcome: new accounts go through Auth.onRegistered, which reads name, email and provider from its Registration', async () => {
    const person = personB('hooked@example.com', true, 'Hooked Person');
    await signInB(main.server.client(), person);
    expect(registrations).toContainEqual({ name: 'Hooked Person', email: 'hooked@example.com', provider: 'provider_b' });
  });

  it('Outcome: registration_rules do not run for an account made by a provider (there is no form)', async () => {
    // The main app's rule wants a name of 500 characters: the register form refuses…
    const form = main.server.client();
    await form.get('/register');
    const refused = await form.post('/register', { form: { name: 'Short Name', email: 'rules-form@example.com', password: PASSWORD, password_confirmation: PASSWORD } });
    expect(refused.location).toBe('/register');
    expect(await userByEmail(main, 'rules-form@example.com')).toBeNull();
    // …and a provider's sign-in with the same name makes the account.
    const person = personB('rules-social@example.com', true, 'Short Name');
    const { back } = await signInB(main.server.client(), person);
    expect(back.location).toBe('/');
    expect((await userByEmail(main, 'rules-social@example.com'))?.name).toBe('Short Name');
  });

  it('Outcome: the Registered event fires as after /register', async () => {
    const person = personB('registered-event@example.com', true, 'Registered Event');
    await signInB(main.server.client(), person);
    const user = await userByEmail(main, 'registered-event@example.com');
    expect(eventsOf(user?.id ?? 0).filter((e) => e instanceof Registered)).toEqual([new Registered(user?.id ?? 0, 'Registered Event', 'registered-event@example.com', 'provider_b')]);
  });
});

describe('Link state of a provider account', () => {
  it('Link state: unlinked → linked by a callback (sign-in or Link) when the rows above allow it; also AccountLinked and the log entry oauth.linked', async () => {
    // Link, from the account page.
    const presser = await passwordUser(main, 'state-link@example.com');
    const { client } = await loggedInWithPassword(main, 'state-link@example.com');
    await signInB(client, personB('state-link-b@example.com'));
    expect((await linksOf(main, presser.id)).map((l) => l.provider)).toEqual(['provider_b']);
    expect(eventsOf(presser.id)).toContainEqual(new AccountLinked(presser.id, 'provider_b'));
    expect((await activity(main, presser.id)).filter((a) => a.action === 'oauth.linked').map((a) => a.data)).toEqual([{ provider: 'provider_b' }]);
    // A first sign-in.
    const { user } = await socialUser('state-first-sign-in@example.com');
    expect(eventsOf(user.id)).toContainEqual(new AccountLinked(user.id, 'provider_b'));
    expect((await activity(main, user.id)).filter((a) => a.action === 'oauth.linked').map((a) => a.data)).toEqual([{ provider: 'provider_b' }]);
  });

  it('Link state: linked → unlinked by oauth.unlink of the owner who has a password or another linked provider; also AccountUnlinked and the log entry oauth.unlinked', async () => {
    // A password.
    const owner = await passwordUser(main, 'unlink-with-password@example.com');
    const { client } = await loggedInWithPassword(main, 'unlink-with-password@example.com');
    await signInB(client, personB('unlink-with-password-b@example.com'));
    const done = await unlink(client, 'provider_b');
    expect(await follow(client, done)).toContain(SUCCESS_MESSAGES.unlinked);
    expect(await linksOf(main, owner.id)).toEqual([]);
    expect(eventsOf(owner.id)).toContainEqual(new AccountUnlinked(owner.id, 'provider_b'));
    expect((await activity(main, owner.id)).filter((a) => a.action === 'oauth.unlinked').map((a) => a.data)).toEqual([{ provider: 'provider_b' }]);
    // No password, another linked provider.
    const { client: social, user } = await socialUser('unlink-with-second@example.com');
    await signInAcme(social, personAcme('unlink-with-second-acme@example.com'));
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b', 'acme']);
    await unlink(social, 'acme');
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
    expect(eventsOf(user.id)).toContainEqual(new AccountUnlinked(user.id, 'acme'));
    expect((await activity(main, user.id)).filter((a) => a.action === 'oauth.unlinked').map((a) => a.data)).toEqual([{ provider: 'acme' }]);
  });

  it("Link state: linked stays linked when oauth.unlink would remove the only provider of a user without a password (refused; nothing changes)", async () => {
    const { client, user } = await socialUser('only-provider@example.com');
    const eventsBefore = eventsOf(user.id).length;
    const refused = await unlink(client, 'provider_b');
    expect(refused.location).toBe('/account');
    expect(await follow(client, refused)).toContain(UNLINK_MESSAGES['only-way-to-log-in']);
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
    expect(eventsOf(user.id)).toHaveLength(eventsBefore);
    expect((await activity(main, user.id)).filter((a) => a.action === 'oauth.unlinked')).toEqual([]);
  });
});

describe('Value of state', () => {
  it('Value of state: none → stored in the session by oauth.redirect, when the provider is enabled', async () => {
    const client = main.server.client();
    const { state } = await startSocialSignIn(client, 'provider_b');
    expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(await sessionsHolding(main, state)).toBe(1);
    // Not enabled: 404, nothing started.
    expect((await client.get('/auth/provider_a/redirect')).status).toBe(404);
  });

  it('Value of state: stored → removed by the first callback, whatever the outcome, right or wrong', async () => {
    // Wrong: the provider refuses the code. The state is gone; a good code with it is refused.
    const person = personB('state-removed@example.com');
    const client = main.server.client();
    const wrong = await startSocialSignIn(client, 'provider_b');
    const failed = await client.get(`/auth/provider_b/callback?code=code-no-such-person&state=${wrong.state}`);
    expect(failed.location).toBe('/login');
    expect(await sessionsHolding(main, wrong.state)).toBe(0);
    const retried = await client.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${wrong.state}`);
    expect(await follow(client, retried)).toContain(TRY_AGAIN);
    expect(await who(client)).toBeNull();
    // Right: logged in; the state is gone and cannot be used again.
    const right = await signInB(client, person);
    expect(right.back.location).toBe('/');
    expect(await sessionsHolding(main, right.state)).toBe(0);
    const user = await userByEmail(main, 'state-removed@example.com');
    const loginsBefore = eventsOf(user?.id ?? 0).filter((e) => e instanceof LoggedInWith).length;
    const warned = warnings(main).length;
    const replay = await client.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${right.state}`);
    expect(replay.status).toBe(303);
    expect(warnings(main).slice(warned).map((line) => line.fields['reason'])).toEqual(['state-refused']);
    expect(eventsOf(user?.id ?? 0).filter((e) => e instanceof LoggedInWith)).toHaveLength(loginsBefore);
  });

  it('Value of state: stored → accepted in the same browser, within ten minutes, for the same provider, value equal (constant-time comparison)', async () => {
    const person = personB('state-accepted@example.com');
    const client = main.server.client();
    const { state } = await startSocialSignIn(client, 'provider_b');
    clock.advance(10 * MINUTE - 1);
    vi.mocked(sameSecret).mockClear();
    const back = await client.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${state}`);
    expect(back.location).toBe('/');
    expect(await who(client)).toBe('state-accepted@example.com');
    // The value was compared by the constant-time function (the real one, watched).
    expect(vi.mocked(sameSecret).mock.calls).toContainEqual([state, state]);
  });

  it('Value of state: stored → refused from another browser, older than ten minutes, or for another provider', async () => {
    const person = personB('state-refused@example.com');
    // Another browser.
    const starter = main.server.client();
    const started = await startSocialSignIn(starter, 'provider_b');
    const thief = main.server.client();
    const stolen = await thief.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${started.state}`);
    expect(await follow(thief, stolen)).toContain(TRY_AGAIN);
    expect(await who(thief)).toBeNull();
    // Ten minutes old.
    const late = main.server.client();
    const lateStart = await startSocialSignIn(late, 'provider_b');
    clock.advance(10 * MINUTE);
    await late.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${lateStart.state}`);
    expect(await who(late)).toBeNull();
    // Another provider: a state of provider_b presented at acme's callback.
    const crossed = main.server.client();
    const crossedStart = await startSocialSignIn(crossed, 'provider_b');
    await crossed.get(`/auth/acme/callback?code=${codeAcme(personAcme('state-crossed@example.com'))}&state=${crossedStart.state}`);
    expect(await who(crossed)).toBeNull();
    // A value that is not equal.
    const tampered = main.server.client();
    const tamperedStart = await startSocialSignIn(tampered, 'provider_b');
    const other = `${tamperedStart.state.slice(0, -1)}${tamperedStart.state.endsWith('A') ? 'B' : 'A'}`;
    await tampered.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${other}`);
    expect(await who(tampered)).toBeNull();
    expect(await userByEmail(main, 'state-refused@example.com')).toBeNull();
    expect(await userByEmail(main, 'state-crossed@example.com')).toBeNull();
  });
});

// =============================================================================================
// Endpoints
// =============================================================================================

describe('Endpoints', () => {
  const routeNames = async () => /<p id="routes">([^<]*)<\/p>/u.exec((await main.server.client().get('/spec000/providers')).text)?.[1]?.split(' ') ?? [];

  it('Endpoints: GET /auth/{provider}/redirect (oauth.redirect) starts a sign-in: redirects to the provider with state and the PKCE challenge', async () => {
    expect((await routeNames())[0]).toBe('/auth/acme/redirect');
    const { response, authorize } = await startSocialSignIn(main.server.client(), 'acme');
    expect(response.status).toBe(303);
    expect(`${authorize.origin}${authorize.pathname}`).toBe(ACME.authorize);
    expect(authorize.searchParams.get('state')).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(authorize.searchParams.get('code_challenge')).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
  });

  it('Endpoints: GET /auth/{provider}/callback (oauth.callback) is the return from the provider: logs in, links or confirms', async () => {
    expect((await routeNames())[1]).toBe('/auth/acme/callback');
    // Logs in.
    const person = personAcme('endpoint-callback@example.com');
    const client = main.server.client();
    expect((await signInAcme(client, person)).back.location).toBe('/');
    expect(await who(client)).toBe('endpoint-callback@example.com');
    // Links (a logged-in user).
    const linked = await signInB(client, personB('endpoint-callback-b@example.com'));
    expect(linked.back.location).toBe('/account');
    const user = await userByEmail(main, 'endpoint-callback@example.com');
    expect((await linksOf(main, user?.id ?? 0)).map((l) => l.provider)).toEqual(['acme', 'provider_b']);
    // Confirms.
    clock.advance(3 * HOUR + MINUTE);
    expect((await client.get('/secure')).location).toBe('/confirm-password');
    expect((await signInAcme(client, person, '?intent=confirm')).back.location).toBe('/secure');
    expect((await client.get('/secure')).status).toBe(200);
  });

  it('Endpoints: DELETE /auth/{provider} (oauth.unlink) unlinks the provider from the logged-in user', async () => {
    expect((await routeNames())[2]).toBe('/auth/acme');
    const { client, user } = await socialUser('endpoint-unlink@example.com');
    await signInAcme(client, personAcme('endpoint-unlink-acme@example.com'));
    expect(await linksOf(main, user.id)).toHaveLength(2);
    await unlink(client, 'acme');
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
  });
});

describe('Payloads', () => {
  it('Payloads: oauth.redirect takes an optional query intent (confirm) and remember (1); output: a redirect to the authorization URL, whose query carries state', async () => {
    const guest = main.server.client();
    const { client: user } = await socialUser('payload-redirect@example.com');
    for (const [client, query] of [
      [guest, ''],
      [guest, '?remember=1'],
      [user, '?intent=confirm'],
      [user, '?intent=confirm&remember=1'],
    ] as const) {
      const { authorize } = await startSocialSignIn(client, 'provider_b', query);
      expect(`${authorize.origin}${authorize.pathname}`, query).toBe('https://github.com/login/oauth/authorize');
      expect(authorize.searchParams.get('state'), query).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    }
  });

  it('Payloads: oauth.callback takes query code and state (strings); output: a redirect to the landing address (the page that asked for login, else Auth.redirectTo, else home)', async () => {
    // The page that asked for login.
    const asked = main.server.client();
    expect((await asked.get('/dashboard')).location).toBe('/login');
    expect((await signInB(asked, personB('landing-intended@example.com'))).back.location).toBe('/dashboard');
    // Home.
    expect((await signInB(main.server.client(), personB('landing-home@example.com'))).back.location).toBe('/');
    // Auth.redirectTo('/dashboard') in the closed app.
    await passwordUser(closed, 'landing-redirect-to@example.com');
    expect((await signInB(closed.server.client(), personB('landing-redirect-to@example.com'))).back.location).toBe('/dashboard');
    // Not strings (missing, repeated): refused like any bad callback, never a server error.
    const client = main.server.client();
    const { state } = await startSocialSignIn(client, 'provider_b');
    for (const query of [`state=${state}`, 'code=code-x', `code=a&code=b&state=${state}`, `code=a&state=${state}&state=${state}`]) {
      const back = await client.get(`/auth/provider_b/callback?${query}`);
      expect([back.status, back.location], query).toEqual([303, '/login']);
    }
    expect(await who(client)).toBeNull();
  });

  it('Payloads: oauth.unlink takes no input (its status and body are not shown by the spec: the effect is asserted)', async () => {
    const { client, user } = await socialUser('payload-unlink@example.com');
    await signInAcme(client, personAcme('payload-unlink-acme@example.com'));
    const response = await unlink(client, 'acme');
    expect(response.status).toBeLessThan(400);
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
  });
});

describe('Rules of the endpoints', () => {
  it('Rules 1: oauth.redirect logs in a guest and links for a logged-in user', async () => {
    const guest = main.server.client();
    const person = personAcme('rule-one@example.com');
    await signInAcme(guest, person);
    expect(await who(guest)).toBe('rule-one@example.com');
    const user = await userByEmail(main, 'rule-one@example.com');
    const linked = await signInB(guest, personB('rule-one-b@example.com'));
    expect(await follow(guest, linked.back)).toContain(SUCCESS_MESSAGES.linked);
    expect((await linksOf(main, user?.id ?? 0)).map((l) => l.provider)).toEqual(['acme', 'provider_b']);
    expect(await who(guest)).toBe('rule-one@example.com');
  });

  it('Rules 2: with ?intent=confirm a logged-in user confirms who they are instead of linking', async () => {
    const { person, client, user } = await socialUser('rule-two@example.com');
    clock.advance(3 * HOUR + MINUTE);
    // Not linked to them: confirms nothing and links nothing.
    const stranger = personAcme('rule-two-stranger@example.com');
    const refused = await signInAcme(client, stranger, '?intent=confirm');
    expect(refused.back.location).toBe('/confirm-password');
    expect(await follow(client, refused.back)).toContain(SIGN_IN_MESSAGES['not-linked-to-you']);
    expect(await linkOf(main, 'acme', `acme-${stranger.id}`)).toBeNull();
    expect((await client.get('/secure')).location).toBe('/confirm-password');
    // Their own account: confirmed, nothing new linked, no AccountLinked.
    const linkedBefore = eventsOf(user.id).filter((e) => e instanceof AccountLinked).length;
    await signInB(client, person, '?intent=confirm');
    expect((await client.get('/secure')).status).toBe(200);
    expect(await linksOf(main, user.id)).toHaveLength(1);
    expect(eventsOf(user.id).filter((e) => e instanceof AccountLinked)).toHaveLength(linkedBefore);
  });

  it("Rules 3: with ?remember=1 a guest's login lasts as long as with 'remember me'", async () => {
    await passwordUser(main, 'remember-password@example.com');
    const { login } = await loggedInWithPassword(main, 'remember-password@example.com', { remember: 'on' });
    const lifetime = (response: TestResponse) =>
      response.headers
        .getSetCookie()
        .map((line) => /^([^=]+)=[^;]*;.*max-age=(\d+)/iu.exec(line))
        .filter((m) => m !== null)
        .map((m) => [m[1], Number(m[2])]);
    const byPassword = lifetime(login);
    const longest = Math.max(...byPassword.map(([, age]) => Number(age)));
    expect(longest).toBeGreaterThan(7 * 24 * 3600);
    const social = await signInB(main.server.client(), personB('remember-social@example.com'), '?remember=1');
    expect(lifetime(social.back)).toEqual(byPassword);
    const user = await userByEmail(main, 'remember-social@example.com');
    expect(eventsOf(user?.id ?? 0).find((e): e is LoggedIn => e instanceof LoggedIn)?.remember).toBe(true);
    // Without it: no cookie lasts that long.
    const plain = await signInB(main.server.client(), personB('remember-not@example.com'));
    expect(lifetime(plain.back).filter(([, age]) => Number(age) >= longest)).toEqual([]);
  });

  it('Rules 4: oauth.unlink requires a logged-in user', async () => {
    const guest = main.server.client();
    await guest.get('/');
    const page = await guest.request('DELETE', '/auth/provider_b');
    expect([page.status, page.location]).toEqual([303, '/login']);
    const api = await guest.request('DELETE', '/auth/provider_b', asJson);
    expect(api.status).toBe(401);
  });

  it('Rules 5: for a provider that is not enabled, all three routes answer 404', async () => {
    const { client } = await socialUser('rule-five@example.com');
    for (const provider of ['provider_a', 'nobody']) {
      expect((await client.get(`/auth/${provider}/redirect`)).status, provider).toBe(404);
      expect((await client.get(`/auth/${provider}/callback?code=x&state=y`)).status, provider).toBe(404);
      expect((await unlink(client, provider)).status, provider).toBe(404);
    }
  });
});

// =============================================================================================
// Authentication
// =============================================================================================

describe('Authentication', () => {
  it('Authentication 1: authorization code with PKCE (S256); the verifier never leaves the server, only its SHA-256 goes into the authorization URL', async () => {
    const client = main.server.client();
    const from = main.fake.calls.length;
    const { response, authorize, back } = await signInAcme(client, personAcme('pkce@example.com'));
    const challenge = authorize.searchParams.get('code_challenge') ?? '';
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    expect(authorize.searchParams.get('response_type')).toBe('code');
    expect(authorize.searchParams.has('code_verifier')).toBe(false);
    const calls = callsSince(main, from);
    const exchange = calls.find((call) => call.url === ACME.token);
    const verifier = new URLSearchParams(exchange?.body ?? '').get('code_verifier') ?? '';
    expect(verifier).toMatch(/^[A-Za-z0-9_-]{43,128}$/u);
    expect(s256(verifier)).toBe(challenge);
    // Nowhere else: not in what the browser got, not in any other outgoing call.
    for (const answer of [response, back]) {
      expect(answer.text).not.toContain(verifier);
      expect(JSON.stringify([...answer.headers])).not.toContain(verifier);
    }
    expect(calls.filter((call) => call !== exchange).some((call) => `${call.url} ${JSON.stringify(call.headers)} ${call.body ?? ''}`.includes(verifier))).toBe(false);
  });

  it('Authentication 2: state is random, kept in the session, compared in constant time and used once; with cookie sessions an old copy of the cookie still holds it, but the code is accepted once', async () => {
    const states = await Promise.all([0, 1, 2].map(async () => (await startSocialSignIn(main.server.client(), 'provider_b')).state));
    expect(new Set(states).size).toBe(3);
    for (const state of states) expect(state).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    // Kept in the session (the main app's sessions are rows of the database), compared in constant time.
    const person = personB('state-once@example.com');
    const client = main.server.client();
    const { state } = await startSocialSignIn(client, 'provider_b');
    expect(await sessionsHolding(main, state)).toBe(1);
    vi.mocked(sameSecret).mockClear();
    expect((await client.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${state}`)).location).toBe('/');
    expect(vi.mocked(sameSecret).mock.calls).toContainEqual([state, state]);
    // Used once.
    const warned = warnings(main).length;
    await client.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${state}`);
    expect(warnings(main).slice(warned).map((line) => line.fields['reason'])).toEqual(['state-refused']);

    // Cookie sessions (the custom app): a copy of the cookie taken before the callback.
    const browser = custom.server.client();
    const cookiePerson = personB('state-cookie-copy@example.com');
    const started = await startSocialSignIn(browser, 'provider_b');
    const oldCopy = custom.server.client();
    for (const [name, value] of browser.cookies) oldCopy.cookies.set(name, value);
    const code = codeB(cookiePerson);
    expect((await browser.get(`/auth/provider_b/callback?code=${code}&state=${started.state}`)).location).toBe('/');
    const replay = await oldCopy.get(`/auth/provider_b/callback?code=${code}&state=${started.state}`);
    expect(replay.location).toBe('/login');
    expect(await who(oldCopy)).toBeNull();
    expect(await who(browser)).toBe('state-cookie-copy@example.com');
  });

  it('Authentication 3: accounts are linked or made only by an address the provider verified; never linked to a user whose own address is unverified', async () => {
    const unverified = personAcme('auth3-unverified@example.com', false);
    const guest = main.server.client();
    await signInAcme(guest, unverified);
    expect(await who(guest)).toBeNull();
    expect(await userByEmail(main, 'auth3-unverified@example.com')).toBeNull();
    // A user whose own address is unverified presses Link: refused.
    const lazy = await passwordUser(main, 'auth3-lazy@example.com', false);
    const { client } = await loggedInWithPassword(main, 'auth3-lazy@example.com');
    const pressed = await signInAcme(client, personAcme('auth3-other-address@example.com'));
    expect(await follow(client, pressed.back)).toContain(SIGN_IN_MESSAGES['own-email-unverified']);
    expect(await linksOf(main, lazy.id)).toEqual([]);
  });

  it('Authentication 4: the token is used once to read the profile, then dropped: stored nowhere, never logged (LOG_LEVEL=debug)', async () => {
    const client = main.server.client();
    const from = main.fake.calls.length;
    await signInAcme(client, personAcme('token-dropped@example.com'));
    await signInB(client, personB('token-dropped-b@example.com'));
    await client.get('/account');
    const calls = callsSince(main, from);
    const tokens = [...new Set(calls.map((call) => /^Bearer (.+)$/u.exec(call.headers['authorization'] ?? '')?.[1]).filter((t): t is string => t !== undefined))];
    expect(tokens).toHaveLength(2);
    const acmeToken = tokens.find((t) => t.startsWith('acme-token-')) ?? '';
    expect(calls.filter((call) => call.headers['authorization'] === `Bearer ${acmeToken}`).map((call) => call.url)).toEqual([ACME.me]);
    const user = await userByEmail(main, 'token-dropped@example.com');
    const rows = await sql(main, 'SELECT * FROM oauth_accounts WHERE user_id = ?', [user?.id ?? 0]);
    expect(rows).toHaveLength(2);
    const database = await wholeDatabase(main);
    // The test logger keeps the lines of every level (debug included), whatever LOG_LEVEL says.
    const logs = JSON.stringify(main.testApp.logs);
    for (const token of tokens) {
      expect(JSON.stringify(rows)).not.toContain(token);
      expect(database).not.toContain(token);
      expect(logs).not.toContain(token);
    }
  });

  it('Authentication 5: unlinking never leaves a user without a way to log in', async () => {
    const { client, person, user } = await socialUser('never-locked-out@example.com');
    await signInAcme(client, personAcme('never-locked-out-acme@example.com'));
    await unlink(client, 'acme');
    // The last provider of a user without a password stays.
    const refused = await unlink(client, 'provider_b', asJson);
    expect(refused.status).toBe(409);
    expect(refused.json()).toMatchObject({ provider: 'provider_b', linked: true });
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
    const again = main.server.client();
    await signInB(again, person);
    expect(await who(again)).toBe('never-locked-out@example.com');
    // With a password set, it may go.
    await client.get('/account');
    await client.post('/account/password', { form: { password: PASSWORD, password_confirmation: PASSWORD } });
    await client.get('/account');
    expect((await unlink(client, 'provider_b', asJson)).json()).toEqual({ provider: 'provider_b', linked: false });
    expect(await linksOf(main, user.id)).toEqual([]);
  });

  it('Authentication 6: recent confirmation: a login counts for three hours', async () => {
    const { client } = await socialUser('auth6@example.com');
    clock.advance(3 * HOUR - MINUTE);
    expect((await client.get('/secure')).status).toBe(200);
    clock.advance(2 * MINUTE);
    expect((await client.get('/secure')).location).toBe('/confirm-password');
  });

  it("Authentication 7: the provider's scopes are given by scopes() (the built-in providers' scopes are not shown by the spec)", async () => {
    expect((await startSocialSignIn(main.server.client(), 'acme')).authorize.searchParams.get('scope')).toBe('identity email:read');
    expect((await startSocialSignIn(main.server.client(), 'beta')).authorize.searchParams.get('scope')).toBe('beta.profile');
  });
});

// =============================================================================================
// Events
// =============================================================================================

describe('Events', () => {
  it('Events: AccountLinked — a provider account was linked to a user (account page or first sign-in), with user_id and provider', async () => {
    const { client, user } = await socialUser('event-linked@example.com');
    await signInAcme(client, personAcme('event-linked-acme@example.com'));
    expect(eventsOf(user.id).filter((e) => e instanceof AccountLinked)).toEqual([new AccountLinked(user.id, 'provider_b'), new AccountLinked(user.id, 'acme')]);
  });

  it('Events: AccountUnlinked — a user unlinked a provider, with user_id and provider', async () => {
    const { client, user } = await socialUser('event-unlinked@example.com');
    await signInAcme(client, personAcme('event-unlinked-acme@example.com'));
    await unlink(client, 'provider_b');
    expect(eventsOf(user.id).filter((e) => e instanceof AccountUnlinked)).toEqual([new AccountUnlinked(user.id, 'provider_b')]);
  });

  it('Events: LoggedInWith — a user logged in with a provider, with user_id, provider and second_step (true when the login waits for a second step)', async () => {
    const { person, client, user } = await socialUser('event-logged-in-with@example.com');
    expect(eventsOf(user.id).filter((e) => e instanceof LoggedInWith)).toEqual([new LoggedInWith(user.id, 'provider_b', false)]);
    // Two-factor on (the login counts as a recent confirmation): the next login waits at the challenge.
    await client.get('/user/two-factor');
    await client.post('/user/two-factor');
    const secret = (/Key: <code>([A-Z2-7 ]+)<\/code>/u.exec((await client.get('/user/two-factor')).text)?.[1] ?? '').replace(/ /gu, '');
    const totp = () => new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(secret), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp: clock.now().getTime() });
    await client.post('/user/two-factor/confirm', { form: { code: totp() } });
    clock.advance(MINUTE);
    const browser = main.server.client();
    const { back } = await signInB(browser, person);
    expect(back.location).toBe('/two-factor-challenge');
    expect(eventsOf(user.id).filter((e) => e instanceof LoggedInWith).at(-1)).toEqual(new LoggedInWith(user.id, 'provider_b', true));
    expect(await who(browser)).toBeNull();
  });

  it("Events: the Auth module's own events also fire: Registered for a new account, LoggedIn once the user is in", async () => {
    const { user } = await socialUser('event-auth@example.com');
    expect(eventsOf(user.id).map((e) => e.constructor.name)).toEqual(['Registered', 'AccountLinked', 'LoggedInWith', 'LoggedIn']);
    expect(eventsOf(user.id).find((e) => e instanceof LoggedIn)).toEqual(new LoggedIn(user.id, false, 'provider_b'));
  });

  it('Events: a listener is registered on the app with .listen(LoggedInWith, (event, state) => …); state.cache is available to it', async () => {
    const { person, user } = await socialUser('event-listener@example.com');
    await signInB(main.server.client(), person);
    // The listener counted both logins on the app's cache store, which the test reads back.
    expect(await (await services(main)).get(TOKENS.cacheStore).count(`spec000:logged-in-with:${user.id}`)).toBe(2);
  });

  it('Events: with the Audit module the events are also written to the activity log as oauth.linked, oauth.unlinked and oauth.login, with the provider in data', async () => {
    const { client, user } = await socialUser('event-audit@example.com');
    await signInAcme(client, personAcme('event-audit-acme@example.com'));
    await unlink(client, 'acme');
    const entries = (await activity(main, user.id)).filter((a) => a.action.startsWith('oauth.')).reverse();
    expect(entries.map((a) => [a.action, a.data])).toEqual([
      ['oauth.linked', { provider: 'provider_b' }],
      ['oauth.login', { provider: 'provider_b' }],
      ['oauth.linked', { provider: 'acme' }],
      ['oauth.unlinked', { provider: 'acme' }],
    ]);
  });
});

// =============================================================================================
// Errors
// =============================================================================================

describe('Errors', () => {
  it('Errors: provider not enabled (no credentials) → 404', async () => {
    const guest = main.server.client();
    expect((await guest.get('/auth/provider_a/redirect')).status).toBe(404);
    expect((await guest.get('/auth/provider_a/callback?code=x&state=y')).status).toBe(404);
    const { client } = await socialUser('error-404@example.com');
    expect((await unlink(client, 'provider_a')).status).toBe(404);
  });

  it('Errors: callback from another browser, after ten minutes, or for another provider → refused', async () => {
    const person = personB('error-state@example.com');
    const starter = main.server.client();
    const { state } = await startSocialSignIn(starter, 'provider_b');
    const other = main.server.client();
    expect((await other.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${state}`)).location).toBe('/login');
    const late = main.server.client();
    const lateStart = await startSocialSignIn(late, 'provider_b');
    clock.advance(10 * MINUTE + 1);
    expect((await late.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${lateStart.state}`)).location).toBe('/login');
    const crossed = main.server.client();
    const crossedStart = await startSocialSignIn(crossed, 'acme');
    expect((await crossed.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${crossedStart.state}`)).location).toBe('/login');
    for (const client of [other, late, crossed]) expect(await who(client)).toBeNull();
    expect(await userByEmail(main, 'error-state@example.com')).toBeNull();
  });

  it('Errors: unverified or missing provider address, not linked → refused, nothing made', async () => {
    for (const person of [personAcme('error-unverified@example.com', false), personAcme(null, false)]) {
      const client = main.server.client();
      const { back } = await signInAcme(client, person);
      expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['unverified-email']);
      expect(await linkOf(main, 'acme', `acme-${person.id}`)).toBeNull();
    }
    expect(await userByEmail(main, 'error-unverified@example.com')).toBeNull();
  });

  it('Errors: address belongs to a user whose address is unverified → refused with advice to log in with the password and link from the account page', async () => {
    const owner = await passwordUser(main, 'error-owner-unverified@example.com', false);
    const client = main.server.client();
    const { back } = await signInAcme(client, personAcme('error-owner-unverified@example.com'));
    expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['email-owner-unverified']);
    expect(await linksOf(main, owner.id)).toEqual([]);
  });

  it('Errors: no user with the address and registration closed → refused: no account uses this address', async () => {
    const client = closed.server.client();
    const { back } = await signInB(client, personB('error-closed@example.com'));
    expect(await follow(client, back)).toContain('No account uses this email address.');
    expect(await userByEmail(closed, 'error-closed@example.com')).toBeNull();
  });

  it('Errors: unlink of the only provider of a password-less user → refused', async () => {
    const { client, user } = await socialUser('error-only@example.com');
    const refused = await unlink(client, 'provider_b');
    expect(await follow(client, refused)).toContain(UNLINK_MESSAGES['only-way-to-log-in']);
    expect(await linksOf(main, user.id)).toHaveLength(1);
  });

  it("Errors: any failure during sign-in → the visitor sees a 'try again' message; the reason is logged at level warn", async () => {
    const profileDown = personAcme('error-profile-down@example.com');
    profileDown.profileDown = true;
    const failures: [string, (client: TestClient) => Promise<TestResponse>][] = [
      // The token endpoint is down.
      ['acme', async (client) => (await socialSignIn(client, 'acme', 'acme-down')).back],
      // The token endpoint refuses the code.
      ['provider_b', async (client) => (await socialSignIn(client, 'provider_b', 'code-nobody-knows')).back],
      // The profile cannot be read.
      ['acme', async (client) => (await signInAcme(client, profileDown)).back],
      // A provider's own exchange breaks.
      ['beta', async (client) => (await socialSignIn(client, 'beta', 'beta-unknown')).back],
    ];
    for (const [provider, fail] of failures) {
      const before = warnings(main).length;
      const client = main.server.client();
      const back = await fail(client);
      expect(back.location, provider).toBe('/login');
      expect(await follow(client, back), provider).toContain(TRY_AGAIN);
      expect(await who(client), provider).toBeNull();
      const latest = warnings(main).slice(before);
      expect(latest, provider).toHaveLength(1);
      expect(latest[0]?.fields, provider).toMatchObject({ provider, reason: 'failed' });
      expect(typeof latest[0]?.fields['detail'], provider).toBe('string');
    }
    expect(await userByEmail(main, 'error-profile-down@example.com')).toBeNull();
  });
});

// =============================================================================================
// Limits
// =============================================================================================

describe('Limits', () => {
  it('Limits: lifetime of state → ten minutes, single use', async () => {
    const person = personB('limit-state@example.com');
    // Ten minutes: refused at 10:00, accepted just before.
    const late = main.server.client();
    const lateStart = await startSocialSignIn(late, 'provider_b');
    clock.advance(10 * MINUTE);
    expect((await late.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${lateStart.state}`)).location).toBe('/login');
    expect(await who(late)).toBeNull();
    const inTime = main.server.client();
    const inTimeStart = await startSocialSignIn(inTime, 'provider_b');
    clock.advance(10 * MINUTE - 1_000);
    await inTime.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${inTimeStart.state}`);
    expect(await who(inTime)).toBe('limit-state@example.com');
    // Single use: a first callback that fails spends it; the same state with a good code is refused.
    const once = main.server.client();
    const onceStart = await startSocialSignIn(once, 'provider_b');
    expect((await once.get(`/auth/provider_b/callback?code=code-unknown-${codes}&state=${onceStart.state}`)).location).toBe('/login');
    expect((await once.get(`/auth/provider_b/callback?code=${codeB(person)}&state=${onceStart.state}`)).location).toBe('/login');
    expect(await who(once)).toBeNull();
  });

  it('Limits: recent confirmation after login → three hours (a provider login counts: passes at 2h59, not at 3h01)', async () => {
    const { client } = await socialUser('limit-confirmation@example.com');
    clock.advance(2 * HOUR + 59 * MINUTE);
    expect((await client.get('/secure')).status).toBe(200);
    clock.advance(2 * MINUTE);
    expect((await client.get('/secure')).location).toBe('/confirm-password');
  });

  it('Limits: provider accounts per user per provider → one', async () => {
    const { client, user } = await socialUser('limit-one-per-provider@example.com');
    const second = personB('limit-one-per-provider-second@example.com');
    const { back } = await signInB(client, second);
    expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['provider-already-linked']);
    expect((await linksOf(main, user.id)).map((l) => l.provider)).toEqual(['provider_b']);
    expect(await linkOf(main, 'provider_b', String(second.id))).toBeNull();
  });

  it('Limits: users per provider account → one', async () => {
    const { person, user } = await socialUser('limit-one-user@example.com');
    await passwordUser(main, 'limit-one-user-other@example.com');
    const { client } = await loggedInWithPassword(main, 'limit-one-user-other@example.com');
    const { back } = await signInB(client, person);
    expect(await follow(client, back)).toContain(SIGN_IN_MESSAGES['linked-to-another-user']);
    expect((await linkOf(main, 'provider_b', String(person.id)))?.userId).toBe(user.id);
    const rows = await sql<{ n: number }>(main, 'SELECT count(*) AS n FROM oauth_accounts WHERE provider = ? AND provider_user_id = ?', ['provider_b', String(person.id)]);
    expect(rows).toEqual([{ n: 1 }]);
  });
});

// =============================================================================================
// Testing hooks
// =============================================================================================

describe('Testing hooks', () => {
  it('Testing hooks: TestApp.fakeHttp answers the code exchange (a JSON body with access_token) and the profile; GET redirect, read state from location, GET callback?code&state → redirect to /', async () => {
    main.testApp.fakeHttp({
      // As the spec says: a JSON body with access_token, nothing else (a missing token_type reads as bearer).
      [`POST ${TOKEN_URL}`]: { access_token: 'recipe-token' },
      [`GET ${API_URL}/user`]: { id: 990_001, name: 'Recipe Person' },
      [`GET ${API_URL}/user/emails`]: [{ email: 'recipe@example.com', primary: true, verified: true }],
    });
    try {
      const client = main.server.client();
      const redirect = await client.get('/auth/provider_b/redirect');
      const state = new URL(redirect.location ?? '').searchParams.get('state') ?? '';
      const back = await client.get(`/auth/provider_b/callback?code=recipe-code&state=${state}`);
      expect([back.status, back.location]).toEqual([303, '/']);
      expect(await who(client)).toBe('recipe@example.com');
    } finally {
      main.fake = installFake(main.testApp);
    }
  });

  it('Testing hooks: credentials are given in code in tests, since tests do not read .env', async () => {
    // The main app's folder has a .env with PROVIDER_A_CLIENT_ID and _SECRET: provider_a stays off.
    const client = main.server.client();
    expect((await client.get('/auth/provider_a/redirect')).status).toBe(404);
    expect((await client.get('/login')).text).not.toContain('provider_a');
    // provider_b, whose credentials are in code, works.
    expect((await signInB(client, personB('dotenv-ignored@example.com'))).back.location).toBe('/');
  });
});
