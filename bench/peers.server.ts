/**
 * The servers of the peers bench (peers.bench.ts), each in a process of its own:
 *
 *     tsx bench/peers.server.ts <kind> <temp folder>
 *
 * Every kind serves the same four things, as its users would write them:
 *
 * - `GET /health`: `{"status":"ok"}` as JSON;
 * - `GET /login`: bench/peers-login.html (nunjucks) with a CSRF field, the token kept in a new
 *   session (hapi's crumb keeps it in a cookie of its own: that is the hapi stack's way);
 * - `GET /account`: for a signed-in session, the user loaded by id from SQLite on every request,
 *   rendered with bench/peers-account.html; a guest is sent to /login;
 * - `POST /login` (form: `_token`, `email`, `password`): the CSRF check, the user found by email,
 *   Argon2id verify at fw's cost (OWASP's parameters, @node-rs/argon2), a new session (new id),
 *   303 to /account. better-auth has no form tokens (it checks the Origin): its row is its own
 *   `POST /api/auth/sign-in/email` (JSON, 200 and the session cookie), and its `/account` is its
 *   session check (`auth.api.getSession`, which loads the user) and the page.
 *
 * Listens on a free port of 127.0.0.1, sends `{ url }` to the parent over IPC, answers the
 * message 'stats' with its CPU time and memory (`StatsMessage`), and stops on 'stop' or when
 * the parent goes away.
 */
import { createHash, randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Request as HapiRequest } from '@hapi/hapi';
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from 'express';
import type session from 'express-session';
import nunjucks from 'nunjucks';
import { Argon2PasswordHasher } from '../adapters/password/argon2-password-hasher.js';
import { PASSWORD_MAX_LENGTH } from '../domain/auth/password-policy.js';
import { loadSqliteBinding } from '../adapters/persistence/mikro-orm/sqlite-binding.js';
import type { SqliteDatabaseHandle } from '../adapters/persistence/mikro-orm/sqlite-binding.js';
import { benchEnvironment, serveParent } from './support/child-servers.js';
// Each kind imports its own stack when it starts (below): a server's memory is its own stack's.

import { BENCH_USERS, PASSWORD, SERVER_KINDS, benchEmail, benchName } from './support/peers.js';
import type { ReadyMessage, ServerKind, StatsMessage } from './support/peers.js';

// bench/views/ beside the sources, also when this file runs compiled from dist/bench/.
const VIEWS = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bench/views/' : './views/', import.meta.url));
const LOGIN_TEMPLATE = 'bench/peers-login.html';
const ACCOUNT_TEMPLATE = 'bench/peers-account.html';
const TEMPLATES = ['bench/peers-layout.html', LOGIN_TEMPLATE, ACCOUNT_TEMPLATE];

const LOGIN_DATA = {
  heading: 'Sign in',
  links: [
    { href: '/register', label: 'Create an account' },
    { href: '/forgot-password', label: 'Forgot your password?' },
    { href: '/help', label: 'Help' },
  ],
};

const STATUS = { status: 'ok' } as const;
/** A 32+ character password, as the hapi and express READMEs show. */
const SECRET = 'the-bench-password-of-at-least-32-characters';

interface Running {
  url: string;
  stop(): Promise<void>;
}

interface PeerUser {
  id: number;
  name: string;
  email: string;
  password_hash: string;
}

/** The peers' users table in a SQLite file: lookups by id and by email, prepared once. */
async function peerUsers(file: string): Promise<{ byId(id: number): PeerUser | undefined; byEmail(email: string): PeerUser | undefined; db: SqliteDatabaseHandle }> {
  const Database = loadSqliteBinding();
  const db = new Database(file);
  db.exec('PRAGMA journal_mode = WAL');
  db.exec('CREATE TABLE users (id INTEGER PRIMARY KEY, name TEXT NOT NULL, email TEXT NOT NULL UNIQUE, password_hash TEXT NOT NULL)');
  const hasher = new Argon2PasswordHasher();
  const insert = db.prepare('INSERT INTO users (name, email, password_hash) VALUES (?, ?, ?)');
  for (let n = 0; n < BENCH_USERS; n++) insert.run(benchName(n), benchEmail(n), await hasher.hash(PASSWORD));
  const byId = db.prepare('SELECT id, name, email, password_hash FROM users WHERE id = ?');
  const byEmail = db.prepare('SELECT id, name, email, password_hash FROM users WHERE email = ?');
  return { byId: (id) => byId.get(id) as PeerUser | undefined, byEmail: (email) => byEmail.get(email) as PeerUser | undefined, db };
}

function plainEnvironment(): nunjucks.Environment {
  return new nunjucks.Environment(new nunjucks.FileSystemLoader(VIEWS), { autoescape: true });
}

function csrfField(token: string): () => nunjucks.runtime.SafeString {
  // Tokens are base64url or hex: nothing in them to escape.
  return () => new nunjucks.runtime.SafeString(`<input type="hidden" name="_token" value="${token}">`);
}

function formField(body: unknown, name: string): string {
  const value = typeof body === 'object' && body !== null ? (body as Record<string, unknown>)[name] : undefined;
  return typeof value === 'string' ? value : '';
}

async function fw(dir: string): Promise<Running> {
  const { App, Redirect, Routes, TOKENS, View, json } = await import('../composition/index.js');
  const { loginForm } = await import('../adapters/http/auth/auth-forms.js');
  const { HttpAbort } = await import('../adapters/http/kernel/http-error.js');
  // The app's root: templates are looked up in <root>/resources/views before the framework's.
  const root = join(dir, 'fw-app');
  mkdirSync(join(root, 'resources', 'views', 'bench'), { recursive: true });
  for (const template of TEMPLATES) copyFileSync(join(VIEWS, template), join(root, 'resources', 'views', template));
  // An app with its own login, written with fw's public API: the framework's login form and
  // AttemptLogin (login lock counters, user by email, Argon2id), `ctx.auth.login` (new session
  // id and token). `/health` is fw's own.
  const routes = new Routes()
    .get('/login', () => View.make(LOGIN_TEMPLATE, LOGIN_DATA))
    .name('login')
    .post('/login', async (ctx) => {
      const form = await ctx.valid(loginForm);
      const outcome = await ctx.service(TOKENS.attemptLogin).execute({ email: form.email, password: form.password, ip: ctx.ip });
      if (outcome.kind !== 'succeeded') throw new HttpAbort(422, 'These credentials do not match our records.');
      ctx.auth.login(outcome.user);
      return Redirect.to('/account');
    })
    .merge(
      new Routes()
        .get('/account', (ctx) => {
          const user = ctx.requireUser();
          return View.make(ACCOUNT_TEMPLATE, { name: user.name, email: user.email });
        })
        .requireAuth(),
    )
    .get('/json', () => json(STATUS));
  // As it runs in production: pino at warn, cached templates; cookie sessions, counters in memory.
  const app = App.create({ root, envFile: false, environment: benchEnvironment(`sqlite:${join(dir, 'fw.sqlite')}`) }).module({ name: 'peers', routes });
  const running = await app.serve();
  const createUser = running.services.get(TOKENS.createUser);
  for (let n = 0; n < BENCH_USERS; n++) {
    const created = await createUser.execute({ name: benchName(n), email: benchEmail(n), password: PASSWORD, verified: true });
    if (created.kind !== 'created') throw new Error(`the bench user was not created: ${JSON.stringify(created)}`);
  }
  return { url: running.url, stop: () => running.stop() };
}

async function hapi(): Promise<Running> {
  const { default: Hapi } = await import('@hapi/hapi');
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  server.route({ method: 'GET', path: '/health', handler: () => STATUS });
  await server.start();
  return { url: server.info.uri, stop: () => server.stop() };
}

async function hapiStack(dir: string): Promise<Running> {
  const [{ default: Hapi }, { default: Crumb }, { default: Vision }, { default: Yar }] = await Promise.all([import('@hapi/hapi'), import('@hapi/crumb'), import('@hapi/vision'), import('@hapi/yar')]);
  const users = await peerUsers(join(dir, 'hapi-stack.sqlite'));
  const hasher = new Argon2PasswordHasher();
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  await server.register([
    { plugin: Yar, options: { storeBlank: false, cookieOptions: { password: SECRET, isSecure: false, isSameSite: 'Lax' } } },
    // crumb keeps the token in a cookie of its own (its name is the form field's) and checks it on every POST.
    { plugin: Crumb, options: { key: '_token', cookieOptions: { isSecure: false, isSameSite: 'Lax' } } },
    Vision,
  ]);
  const env = plainEnvironment();
  server.views({
    engines: {
      html: {
        compile: (_source: string, options: { filename: string }) => {
          const name = options.filename.slice(VIEWS.length);
          return (context: object) => env.render(name, context);
        },
      },
    },
    relativeTo: VIEWS,
    path: '.',
    isCached: true,
  });
  const token = (request: HapiRequest): string => String((request.plugins as { crumb?: string }).crumb ?? '');
  server.route({ method: 'GET', path: '/health', handler: () => STATUS });
  server.route({ method: 'GET', path: '/login', handler: (request, h) => h.view(LOGIN_TEMPLATE, { ...LOGIN_DATA, csrf_field: csrfField(token(request)) }) });
  server.route({
    method: 'POST',
    path: '/login',
    handler: async (request, h) => {
      const user = users.byEmail(formField(request.payload, 'email'));
      const matches = await hasher.verify(user?.password_hash ?? '', formField(request.payload, 'password'));
      if (user === undefined || !matches) return h.response('These credentials do not match our records.').code(422);
      request.yar.reset();
      request.yar.set('userId', user.id);
      return h.redirect('/account').code(303);
    },
  });
  server.route({
    method: 'GET',
    path: '/account',
    handler: (request, h) => {
      const id = request.yar.get<number>('userId');
      const user = id === null ? undefined : users.byId(id);
      if (user === undefined) return h.redirect('/login').code(302);
      return h.view(ACCOUNT_TEMPLATE, { name: user.name, email: user.email, csrf_field: csrfField(token(request)) });
    },
  });
  await server.start();
  return {
    url: server.info.uri,
    stop: async () => {
      await server.stop();
      users.db.close();
    },
  };
}

interface SessionStoreModule {
  (expressSession: typeof session): new (options: { client: SqliteDatabaseHandle; expired: { clear: boolean; intervalMs: number } }) => session.Store;
}

declare module 'express-session' {
  interface SessionData {
    userId: number;
  }
}

async function expressServer(dir: string, store: 'memory' | 'sqlite'): Promise<Running> {
  const [{ default: express }, { default: session }, { csrfSync }] = await Promise.all([import('express'), import('express-session'), import('csrf-sync')]);
  const users = await peerUsers(join(dir, `express-${store}.sqlite`));
  const hasher = new Argon2PasswordHasher();
  const app = express();
  app.disable('x-powered-by');
  const env = plainEnvironment();
  const sessionOptions: session.SessionOptions = { secret: SECRET, resave: false, saveUninitialized: false, cookie: { httpOnly: true, sameSite: 'lax' } };
  let sessionsDb: SqliteDatabaseHandle | null = null;
  if (store === 'sqlite') {
    const SqliteStore = (createRequire(import.meta.url)('better-sqlite3-session-store') as SessionStoreModule)(session);
    const Database = loadSqliteBinding();
    sessionsDb = new Database(join(dir, 'express-sessions.sqlite'));
    sessionsDb.exec('PRAGMA journal_mode = WAL');
    sessionOptions.store = new SqliteStore({ client: sessionsDb, expired: { clear: true, intervalMs: 15 * 60_000 } });
  }
  app.use(session(sessionOptions));
  const { generateToken, csrfSynchronisedProtection } = csrfSync({ getTokenFromRequest: (request: ExpressRequest) => formField(request.body, '_token') });
  app.get('/health', (_request, response) => {
    response.json(STATUS);
  });
  app.get('/login', (request, response) => {
    response.type('html').send(env.render(LOGIN_TEMPLATE, { ...LOGIN_DATA, csrf_field: csrfField(generateToken(request)) }));
  });
  app.post('/login', express.urlencoded({ extended: false }), csrfSynchronisedProtection, async (request, response, next) => {
    try {
      const user = users.byEmail(formField(request.body, 'email'));
      const matches = await hasher.verify(user?.password_hash ?? '', formField(request.body, 'password'));
      if (user === undefined || !matches) {
        response.status(422).send('These credentials do not match our records.');
        return;
      }
      request.session.regenerate((error) => {
        if (error !== undefined && error !== null) return next(error);
        request.session.userId = user.id;
        // The new session's token, made now so that the signed-in pages do not rewrite the session.
        generateToken(request, true);
        response.redirect(303, '/account');
      });
    } catch (error) {
      next(error);
    }
  });
  app.get('/account', (request, response) => {
    const id = request.session.userId;
    const user = id === undefined ? undefined : users.byId(id);
    if (user === undefined) {
      response.redirect(302, '/login');
      return;
    }
    response.type('html').send(env.render(ACCOUNT_TEMPLATE, { name: user.name, email: user.email, csrf_field: csrfField(generateToken(request)) }));
  });
  // A refused CSRF token (the bench's forged post) is a 403, not a stack on the terminal.
  app.use((error: { status?: number }, _request: ExpressRequest, response: ExpressResponse, next: NextFunction) => {
    if (error.status === 403) response.status(403).send('Forbidden');
    else next(error);
  });
  const server = app.listen(0, '127.0.0.1');
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      users.db.close();
      sessionsDb?.close();
    },
  };
}

declare module '@fastify/secure-session' {
  interface SessionData {
    userId: number;
  }
}

/**
 * `secured`: the same app with the work fw does on a login besides the peers' list, written as a
 * fastify user would add it (an informational column, not one of the issue's peers): @fastify/helmet's
 * headers with a CSP nonce per response, a random request id sent back as `x-request-id`, the
 * form checked by a route schema (an email address of at most 254 characters, a bounded
 * password), and fw's login lock by hand (a ticket per attempt for the address and client in
 * the current minute, the sixth refused, cleared on success).
 */
async function fastify(dir: string, secured = false): Promise<Running> {
  const [{ default: Fastify }, { default: fastifyCsrf }, { default: fastifyFormbody }, { default: fastifySecureSession }, { default: fastifyView }, { default: fastifyHelmet }] = await Promise.all([
    import('fastify'),
    import('@fastify/csrf-protection'),
    import('@fastify/formbody'),
    import('@fastify/secure-session'),
    import('@fastify/view'),
    import('@fastify/helmet'),
  ]);
  const users = await peerUsers(join(dir, 'fastify.sqlite'));
  const hasher = new Argon2PasswordHasher();
  const app = secured ? Fastify({ genReqId: () => randomBytes(16).toString('hex') }) : Fastify();
  await app.register(fastifyFormbody);
  if (secured) {
    await app.register(fastifyHelmet, { enableCSPNonces: true });
    app.addHook('onSend', (request, reply, payload, done) => {
      void reply.header('x-request-id', request.id);
      done(null, payload);
    });
  }
  await app.register(fastifySecureSession, { key: randomBytes(32), cookieName: 'session', cookie: { path: '/', httpOnly: true, sameSite: 'lax' } });
  await app.register(fastifyCsrf, { sessionPlugin: '@fastify/secure-session', getToken: (request) => formField(request.body, '_token') });
  await app.register(fastifyView, { engine: { nunjucks }, templates: VIEWS });
  app.get('/health', () => STATUS);
  app.get('/login', (_request, reply) => reply.view(LOGIN_TEMPLATE, { ...LOGIN_DATA, csrf_field: csrfField(reply.generateCsrf()) }));
  const lock = loginLock();
  const schema = secured
    ? {
        body: {
          type: 'object',
          required: ['_token', 'email', 'password'],
          properties: { _token: { type: 'string' }, email: { type: 'string', format: 'email', maxLength: 254 }, password: { type: 'string', maxLength: PASSWORD_MAX_LENGTH } },
        },
      }
    : {};
  // The token is in the body: checked once the body is parsed.
  app.post('/login', { schema, preHandler: (request, reply, done) => app.csrfProtection(request, reply, done) }, async (request, reply) => {
    const email = secured ? formField(request.body, 'email').trim().toLowerCase() : formField(request.body, 'email');
    const lockKey = secured ? lock.take(email, request.ip) : null;
    if (lockKey === false) return reply.code(429).send('Too many login attempts.');
    const user = users.byEmail(email);
    const matches = await hasher.verify(user?.password_hash ?? '', formField(request.body, 'password'));
    if (user === undefined || !matches) return reply.code(422).send('These credentials do not match our records.');
    if (typeof lockKey === 'string') lock.clear(lockKey);
    request.session.regenerate();
    request.session.set('userId', user.id);
    // The new session's CSRF secret, made now so that the signed-in pages do not rewrite the session.
    reply.generateCsrf();
    return reply.code(303).redirect('/account');
  });
  app.get('/account', (request, reply) => {
    const id = request.session.get('userId');
    const user = id === undefined ? undefined : users.byId(id);
    if (user === undefined) return reply.redirect('/login');
    return reply.view(ACCOUNT_TEMPLATE, { name: user.name, email: user.email, csrf_field: csrfField(reply.generateCsrf()) });
  });
  const url = await app.listen({ host: '127.0.0.1', port: 0 });
  return {
    url,
    stop: async () => {
      await app.close();
      users.db.close();
    },
  };
}

/** fw's login lock written by hand: five attempts a minute for one address from one client. */
function loginLock(): { take(email: string, ip: string): string | false; clear(key: string): void } {
  const tickets = new Map<string, number>();
  return {
    take(email, ip) {
      const key = `${createHash('sha256').update(`${email}|${ip}`, 'utf8').digest('base64url')}:${Math.floor(Date.now() / 60_000)}`;
      const ticket = (tickets.get(key) ?? 0) + 1;
      if (tickets.size >= 100_000) tickets.clear();
      tickets.set(key, ticket);
      return ticket > 5 ? false : key;
    },
    clear(key) {
      tickets.delete(key);
    },
  };
}

async function betterAuthServer(dir: string): Promise<Running> {
  const { betterAuth } = await import('better-auth');
  const { getMigrations } = await import('better-auth/db/migration');
  const { toNodeHandler, fromNodeHeaders } = await import('better-auth/node');
  const hasher = new Argon2PasswordHasher();
  const env = plainEnvironment();
  const Database = loadSqliteBinding();
  const db = new Database(join(dir, 'better-auth.sqlite'));
  db.exec('PRAGMA journal_mode = WAL');
  let handler: ((request: IncomingMessage, response: ServerResponse) => Promise<void>) | null = null;
  let auth: { api: { getSession(options: { headers: Headers }): Promise<{ user: { name: string; email: string } } | null> } } | null = null;
  const server = createServer((request, response) => {
    if (auth === null || handler === null) {
      response.writeHead(503).end();
      return;
    }
    if (request.url?.startsWith('/api/auth/') === true) {
      void handler(request, response);
      return;
    }
    if (request.method === 'GET' && request.url === '/health') {
      response.writeHead(200, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(STATUS));
      return;
    }
    if (request.method === 'GET' && request.url === '/account') {
      auth.api.getSession({ headers: fromNodeHeaders(request.headers) }).then(
        (found) => {
          if (found === null) {
            response.writeHead(302, { location: '/login' }).end();
            return;
          }
          // better-auth has no form tokens (it checks the Origin of its own POSTs).
          const page = env.render(ACCOUNT_TEMPLATE, { name: found.user.name, email: found.user.email, csrf_field: () => '' });
          response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(page);
        },
        (error: unknown) => {
          console.error(error);
          response.writeHead(500).end();
        },
      );
      return;
    }
    response.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const instance = betterAuth({
    database: db as never,
    baseURL: url,
    secret: SECRET,
    telemetry: { enabled: false },
    // The bench's forged and wrong logins are expected: no lines about them.
    logger: { disabled: true },
    // fw's bench row has no throttle either.
    rateLimit: { enabled: false },
    emailAndPassword: {
      enabled: true,
      // At fw's cost: the same Argon2id hasher (better-auth's default is scrypt).
      password: { hash: (password) => hasher.hash(password), verify: ({ hash, password }) => hasher.verify(hash, password) },
    },
  });
  const { runMigrations } = await getMigrations(instance.options);
  await runMigrations();
  for (let n = 0; n < BENCH_USERS; n++) await instance.api.signUpEmail({ body: { name: benchName(n), email: benchEmail(n), password: PASSWORD } });
  auth = instance;
  handler = toNodeHandler(instance);
  return {
    url,
    stop: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      db.close();
    },
  };
}

function start(kind: ServerKind, dir: string): Promise<Running> {
  switch (kind) {
    case 'fw':
      return fw(dir);
    case 'hapi':
      return hapi();
    case 'hapi-stack':
      return hapiStack(dir);
    case 'express-memory':
      return expressServer(dir, 'memory');
    case 'express-sqlite':
      return expressServer(dir, 'sqlite');
    case 'fastify':
      return fastify(dir);
    case 'fastify-secured':
      return fastify(dir, true);
    case 'better-auth':
      return betterAuthServer(dir);
  }
}

const [kind, dir] = process.argv.slice(2);
if (dir === undefined || !(SERVER_KINDS as readonly string[]).includes(kind ?? '')) {
  console.error(`usage: tsx bench/peers.server.ts <${SERVER_KINDS.join('|')}> <temp folder>`);
  process.exit(2);
}
const running = await start(kind as ServerKind, dir);
// Started by hand (to profile it, say): the address goes to stdout.
if (process.send === undefined) console.log(running.url);
/** The CPU profile peers.profile.ts asks for: only the load, not the start (module loading, seeding). */
let profiler: Session | null = null;
serveParent(running, { url: running.url } satisfies ReadyMessage, (message) => {
  if (message === 'profile-start') {
    profiler = new Session();
    profiler.connect();
    void profiler
      .post('Profiler.enable')
      .then(() => profiler?.post('Profiler.start'))
      .then(() => process.send?.('profiling'));
  } else if (typeof message === 'object' && message !== null && 'profileTo' in message) {
    const file = String(message.profileTo);
    void profiler?.post('Profiler.stop').then(({ profile }) => {
      writeFileSync(file, JSON.stringify(profile));
      profiler?.disconnect();
      process.send?.('profiled');
    });
  } else if (message === 'stats' || message === 'gc') {
    // 'gc' (soak.bench.ts, with --expose-gc): the memory still held, not garbage awaiting collection.
    if (message === 'gc') (globalThis as { gc?: () => void }).gc?.();
    const { rss, heapTotal, heapUsed } = process.memoryUsage();
    const stats: StatsMessage = { cpu: process.cpuUsage(), rss, maxRss: process.resourceUsage().maxRSS * 1024, heapTotal, heapUsed };
    process.send?.(stats);
  }
});
