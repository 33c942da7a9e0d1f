/**
 * The social-login core in a bare `node:http` server: no hapi, nothing from `adapters/http` or
 * `composition`. Domain + application + driven adapters, wired by hand; see docs/embedding.md.
 * Run: `PROVIDER_B_CLIENT_ID=… PROVIDER_B_CLIENT_SECRET=… npx tsx examples/node-http-host/server.ts`.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { createServer } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { pathToFileURL } from 'node:url';
import { MemoryCacheStore } from '../../adapters/cache/memory-cache-store.js';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { InProcessEventBus } from '../../adapters/events/in-process-event-bus.js';
import { OpenIdClientProtocol } from '../../adapters/oauth/openid-client-protocol.js';
import { ProviderB } from '../../adapters/oauth/providers/provider-b.js';
import { FetchHttpClient } from '../../adapters/outbound-http/fetch-http-client.js';
import { InMemoryLinkedAccounts } from '../../adapters/persistence/memory/in-memory-linked-accounts.js';
import { InMemoryUserRepository } from '../../adapters/persistence/memory/in-memory-user-repository.js';
import { CryptoRandomSource } from '../../adapters/random/crypto-random-source.js';
import { CompleteSignIn } from '../../application/oauth/complete-sign-in.js';
import type { CompleteSignInInput } from '../../application/oauth/complete-sign-in.js';
import { OAuthProviders } from '../../application/oauth/oauth-providers.js';
import { ShowLinkedAccounts } from '../../application/oauth/show-linked-accounts.js';
import { StartSignIn } from '../../application/oauth/start-sign-in.js';
import { UnlinkProvider } from '../../application/oauth/unlink-provider.js';
import { LoggedIn } from '../../domain/auth/events.js';
import type { ProviderSettings } from '../../domain/oauth/credentials.js';
import type { Landing, Notice } from '../../domain/oauth/errors.js';
import { LoggedInWith } from '../../domain/oauth/events.js';
import { PENDING_SIGN_INS_KEY } from '../../domain/oauth/pending-sign-ins.js';
import { providerButtons } from '../../domain/oauth/template-data.js';
import type { User } from '../../domain/users/user.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { HttpClient } from '../../ports/http-client.js';
import type { ProviderDefinition } from '../../ports/identity-provider.js';
import type { LinkedAccounts } from '../../ports/linked-accounts.js';
import type { LogFields, Logger } from '../../ports/logger.js';
import type { UserRepository } from '../../ports/user-repository.js';

export interface HostOptions {
  providers: ProviderDefinition[];
  /** Where `Credentials.fromConfig` and the providers' optional settings are read. */
  settings: ProviderSettings;
  /** Every call to a provider goes through it (`FetchHttpClient`; a `FakeHttpClient` in tests). */
  http: HttpClient;
  users: UserRepository;
  linkedAccounts: LinkedAccounts;
  /** Callback URLs are `{appUrl}/auth/<provider>/callback`. */
  appUrl: string;
  /** False: a sign-in never makes a user (`Auth.withoutRegistration()`). Default true. */
  registrationOpen?: boolean;
  /** Runs for a user a sign-in made, before `Registered` is published. */
  onRegistered?: CompleteSignInInput['onRegistered'];
  events?: EventBus;
  logger?: Logger;
  /** Where each outcome's landing sends the browser. */
  landings?: Partial<Record<Landing, string>>;
}

/**
 * A stand-in session: a random 256-bit id in a cookie, mapped to an object in this process's
 * memory (kept once it holds something; never expired, never shared between processes). A real host uses its own session
 * (express-session, @fastify/secure-session, iron-session, …): all the core needs is a place
 * that holds a JSON list for one browser and knows who is logged in.
 */
interface Session {
  id: string;
  userId: number | null;
  remember: boolean;
  csrfToken: string;
  notice: Notice | null;
  values: Map<string, unknown>;
}

interface Reply {
  status: number;
  location?: string;
  json?: unknown;
  html?: string;
}

const token = (): string => randomBytes(32).toString('base64url');

export function createHost(options: HostOptions) {
  const logger = options.logger ?? stderrLogger;
  const events = options.events ?? new InProcessEventBus(logger);
  const landings: Record<Landing, string> = { intended: '/me', login: '/', account: '/me', 'confirm-password': '/', ...options.landings };
  const clock = new SystemClock();
  const providers = new OAuthProviders(options.providers, options.settings);
  const protocol = new OpenIdClientProtocol(options.http, clock);
  const startSignIn = new StartSignIn(providers, protocol, new CryptoRandomSource(), clock);
  // Spent states are counted here; several processes would share a `SqlCacheStore` or Redis.
  const completeSignIn = new CompleteSignIn(providers, protocol, options.http, options.linkedAccounts, options.users, events, clock, new MemoryCacheStore(clock));
  const unlinkProvider = new UnlinkProvider(providers, options.linkedAccounts, events);
  const showLinkedAccounts = new ShowLinkedAccounts(providers, options.linkedAccounts);
  const sessions = new Map<string, Session>();
  const redirectUrl = (name: string) => `/auth/${encodeURIComponent(name)}/redirect`;
  const callbackUri = (name: string) => new URL(`/auth/${encodeURIComponent(name)}/callback`, options.appUrl).href;
  const land = (session: Session, landing: Landing, notice: Notice | null): Reply => {
    session.notice = notice;
    return { status: 303, location: landings[landing] };
  };

  const visitorOf = async (session: Session): Promise<User | null> => {
    const user = session.userId === null ? null : await options.users.findById(session.userId);
    if (user === null) session.userId = null;
    return user;
  };

  // A login gets a new session id (no fixation) and CSRF token; the pending sign-ins move along.
  const logIn = (old: Session, user: User, remember: boolean): Session => {
    sessions.delete(old.id);
    const fresh = { ...old, id: token(), csrfToken: token(), userId: user.id, remember };
    sessions.set(fresh.id, fresh);
    return fresh;
  };

  async function route(req: IncomingMessage, url: URL, ctx: { session: Session }): Promise<Reply> {
    const s = ctx.session;
    const [, provider = '', action = 'delete'] = /^\/auth\/([A-Za-z0-9_.-]+)(?:\/(redirect|callback|unlink))?$/u.exec(url.pathname) ?? [];
    const key = `${req.method ?? ''} ${provider === '' ? url.pathname : action}`;
    const notFound: Reply = { status: 404, json: { message: 'Not found' } };
    const query = Object.fromEntries([...new Set(url.searchParams.keys())].map((name) => [name, unlist(url.searchParams.getAll(name))]));

    if (key === 'GET redirect') {
      const visitor = await visitorOf(s);
      const result = await startSignIn.execute({ provider, query, visitorUserId: visitor?.id ?? null, storedPending: s.values.get(PENDING_SIGN_INS_KEY), redirectUri: callbackUri(provider) });
      if (result.kind === 'not-found') return notFound;
      if (result.kind === 'failed') {
        logger.warn('social sign-in could not start', { provider, reason: result.reason });
        return land(s, result.landing, result.notice);
      }
      s.values.set(PENDING_SIGN_INS_KEY, result.pending);
      return { status: 303, location: result.url.href };
    }
    if (key === 'GET callback') {
      const result = await completeSignIn.execute({
        provider,
        query,
        callbackUrl: new URL(callbackUri(provider) + url.search),
        storedPending: s.values.get(PENDING_SIGN_INS_KEY),
        visitor: await visitorOf(s),
        registrationOpen: options.registrationOpen ?? true,
        redirectUri: callbackUri(provider),
        ...(options.onRegistered ? { onRegistered: options.onRegistered } : {}),
      });
      if (result.kind === 'not-found') return notFound;
      // The state is spent by this first callback, whatever the outcome.
      if (result.remainingPending.length === 0) s.values.delete(PENDING_SIGN_INS_KEY);
      else s.values.set(PENDING_SIGN_INS_KEY, result.remainingPending);
      const { outcome, user } = result;
      switch (outcome.kind) {
        case 'refused':
          logger[outcome.log]('social sign-in refused', { provider, reason: outcome.reason, detail: result.logReason });
          return land(s, outcome.landing, outcome.notice);
        case 'log-in':
        case 'link-and-log-in':
        case 'register':
          if (user === null) throw new Error(`A '${outcome.kind}' outcome came without its user`);
          // No second step in this host: a host with two-factor would stop here and ask for it.
          ctx.session = logIn(s, user, outcome.remember);
          await events.publish(new LoggedInWith(user.id, provider, false));
          await events.publish(new LoggedIn(user.id, outcome.remember, provider));
          return land(ctx.session, outcome.landing, outcome.notice);
        case 'confirm':
          s.values.set('password_confirmed_at', clock.now().toISOString());
          return land(s, outcome.landing, outcome.notice);
        case 'link':
        case 'already-linked':
          return land(s, outcome.landing, outcome.notice);
      }
    }
    if (key === 'POST unlink' || key === 'DELETE delete') {
      const user = await visitorOf(s);
      if (user === null) return { status: 401, json: { message: 'Log in first.' } };
      if (!sameToken(req.headers['x-csrf-token'], s.csrfToken)) return { status: 403, json: { message: 'CSRF token mismatch.' } };
      const result = await unlinkProvider.execute({ userId: user.id, provider });
      if (result.kind === 'not-found') return notFound;
      if (result.kind === 'unlinked') return { status: 200, json: { provider, linked: false } };
      return { status: 409, json: { provider, linked: true, reason: result.reason, message: result.notice.message } };
    }
    if (key === 'GET /me') {
      const user = await visitorOf(s);
      if (user === null) return { status: 401, json: { message: 'Log in first.' } };
      const accounts = await showLinkedAccounts.execute({ user, redirectUrl, setPasswordUrl: '/me' });
      const notice = s.notice;
      s.notice = null;
      return { status: 200, json: { id: user.id, name: user.name, email: user.email, csrfToken: s.csrfToken, notice, accounts } };
    }
    if (key === 'GET /') {
      const user = await visitorOf(s);
      const items = providerButtons(providers.enabledLabels(), redirectUrl).map((b) => `<li><a href="${esc(b.url)}">${user ? 'Link' : 'Continue with'} ${esc(b.label)}</a></li>`);
      return { status: 200, html: `<!doctype html><title>node:http host</title><p>${user ? `${esc(user.name)} · <a href="/me">/me</a>` : 'Guest'}</p><ul>${items.join('')}</ul>` };
    }
    return notFound;
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', options.appUrl);
    const id = cookieOf(req, 'sid');
    const existing = id === null ? undefined : sessions.get(id);
    const ctx = { session: existing ?? { id: token(), userId: null, remember: false, csrfToken: token(), notice: null, values: new Map() } };
    let reply: Reply;
    try {
      reply = await route(req, url, ctx);
    } catch (error) {
      logger.error('request failed', { error });
      reply = { status: 500, json: { message: 'Server error' } };
    }
    const { session } = ctx;
    // A visit that wrote nothing gets no session, so a crawler cannot fill the map. SameSite=Lax:
    // the provider's redirect back is a top-level GET from another site and must carry the
    // cookie (with Strict the browser drops it, and every state would be refused).
    if (existing !== undefined || session.userId !== null || session.values.size > 0 || session.notice !== null) {
      sessions.set(session.id, session);
      const secure = options.appUrl.startsWith('https:') ? '; Secure' : '';
      const maxAge = session.remember ? '; Max-Age=2592000' : '';
      res.setHeader('set-cookie', `sid=${session.id}; Path=/; HttpOnly; SameSite=Lax${secure}${maxAge}`);
    }
    if (reply.location !== undefined) res.setHeader('location', reply.location);
    if (reply.html !== undefined) res.setHeader('content-type', 'text/html; charset=utf-8');
    if (reply.json !== undefined) res.setHeader('content-type', 'application/json');
    res.writeHead(reply.status).end(reply.html ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
  }

  const server = createServer((req, res) => void handle(req, res));
  return { server, events, providers };
}

function unlist(values: string[]): string | string[] {
  return values.length === 1 ? (values[0] ?? '') : values;
}

function cookieOf(req: IncomingMessage, name: string): string | null {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return value.join('=');
  }
  return null;
}

function sameToken(given: string | string[] | undefined, expected: string): boolean {
  if (typeof given !== 'string') return false;
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

function esc(text: string): string {
  return text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
}

/** The host's own logger: JSON lines on standard error (an error as its name and message). */
const line =
  (level: string) =>
  (message: string, fields: LogFields = {}): void =>
    void process.stderr.write(`${JSON.stringify({ level, message, ...fields }, (_key, value: unknown) => (value instanceof Error ? `${value.name}: ${value.message}` : value))}\n`);
const stderrLogger: Logger = { trace: () => {}, debug: () => {}, info: line('info'), warn: line('warn'), error: line('error'), fatal: line('fatal'), child: () => stderrLogger };

// `npx tsx examples/node-http-host/server.ts`: in-memory stores, provider_b from the environment.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const appUrl = process.env['APP_URL'] ?? 'http://localhost:3000';
  const users = new InMemoryUserRepository();
  const host = createHost({
    providers: [(settings) => ProviderB.fromConfig(settings)],
    settings: { get: (name) => process.env[name] },
    http: new FetchHttpClient(),
    users,
    linkedAccounts: new InMemoryLinkedAccounts(users),
    appUrl,
  });
  const { hostname, port } = new URL(appUrl);
  const on = host.providers.enabledOne('provider_b') !== null;
  host.server.listen(Number(port || 3000), hostname, () => {
    process.stdout.write(`Listening on ${appUrl}; provider_b is ${on ? 'on' : 'off (set PROVIDER_B_CLIENT_ID and PROVIDER_B_CLIENT_SECRET)'}\n`);
  });
}
