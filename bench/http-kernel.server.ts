/**
 * The servers of the HTTP bench (http-kernel.bench.ts), each in a process of its own so that
 * the server under test and autocannon each get one of CI's two cores:
 *
 *     tsx bench/http-kernel.server.ts <bare|fw|yar> <temp folder>
 *
 * Listens on a free port of 127.0.0.1, sends `{ url }` to the parent over IPC, and stops on
 * the message 'stop' or when the parent goes away. The parent owns (and removes) the folder.
 *
 * Routes: bare and fw answer `GET /health` and `GET /json` with the same small JSON, and all
 * three `GET /form`. fw also has the bench's own `POST /bench/sign-in` (signs in its one user,
 * no CSRF token needed), `GET /bench/account` (the form page for the signed-in user, behind
 * `.requireAuth()`) and `GET /json-throttled` (`/json` under a throttle that never refuses).
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Hapi from '@hapi/hapi';
import Yar from '@hapi/yar';
import nunjucks from 'nunjucks';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { Routes, TOKENS, View, createDefaultApp, json } from '../composition/index.js';
import { benchEnvironment, serveParent } from './support/child-servers.js';
import type { User } from '../domain/users/user.js';

export type ServerKind = 'bare' | 'fw' | 'yar';

/** What the parent hears once the server listens. */
export interface ReadyMessage {
  url: string;
}

// bench/views/ beside the sources, also when this file runs compiled from dist/bench/.
const VIEWS = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bench/views/' : './views/', import.meta.url));
const FORM_TEMPLATE = 'bench/form.html';

/** The page's own data, the same for the three servers. */
const FORM_DATA = {
  heading: 'Sign in',
  email: 'someone@example.com',
  links: [
    { href: '/register', label: 'Create an account' },
    { href: '/forgot-password', label: 'Forgot your password?' },
    { href: '/help', label: 'Help' },
  ],
};

/** The signed-in page's user. */
const BENCH_USER = { name: 'Bench User', email: 'bench@example.com', verified: true } as const;

/** The JSON of `/health` and `/json`, the same on bare and fw. */
const STATUS = { status: 'ok' } as const;

/** A throttle that counts every request on the memory store and never refuses one in a bench. */
const NEVER_REFUSING = { max: 1_000_000_000, perSeconds: 60 } as const;

/** A 32+ character string password, as yar's README shows: iron derives keys from it on every seal and unseal. */
const YAR_PASSWORD = 'the-bench-password-of-at-least-32-characters';

/** The same template as the framework's page, through a plain nunjucks environment (no framework globals). */
function plainForm(): (token: string) => string {
  const env = new nunjucks.Environment(new nunjucks.FileSystemLoader([VIEWS, FRAMEWORK_TEMPLATES]), { autoescape: true });
  return (token) =>
    env.render(FORM_TEMPLATE, {
      ...FORM_DATA,
      app: { name: 'bench', locale: 'en' },
      // The token is base64url: nothing in it to escape.
      csrf_field: () => new nunjucks.runtime.SafeString(`<input type="hidden" name="_token" value="${token}">`),
    });
}

async function bare(): Promise<{ url: string; stop(): Promise<void> }> {
  // hapi doing the same job without a framework: the same template rendered on every request,
  // with a made-up token, and no session. The ratio then measures the framework, not nunjucks.
  const render = plainForm();
  const token = randomBytes(32).toString('base64url');
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  server.route({ method: 'GET', path: '/health', handler: () => STATUS });
  server.route({ method: 'GET', path: '/json', handler: () => STATUS });
  server.route({ method: 'GET', path: '/form', handler: (_request, h) => h.response(render(token)).type('text/html; charset=utf-8') });
  await server.start();
  return { url: server.info.uri, stop: () => server.stop() };
}

async function yar(): Promise<{ url: string; stop(): Promise<void> }> {
  const render = plainForm();
  const server = Hapi.server({ host: '127.0.0.1', port: 0 });
  await server.register({
    plugin: Yar,
    options: { storeBlank: false, cookieOptions: { password: YAR_PASSWORD, isSecure: false } },
  });
  server.route({
    method: 'GET',
    path: '/form',
    handler: (request, h) => {
      let token = request.yar.get<string>('_token');
      if (token === null) {
        token = randomBytes(32).toString('base64url');
        request.yar.set('_token', token);
      }
      // Like the framework's session, whose inactivity clock restarts with every visit: the
      // cookie is sealed again on every answer, not only when the token is new.
      request.yar.set('seen', Date.now());
      return h.response(render(token)).type('text/html; charset=utf-8');
    },
  });
  await server.start();
  return { url: server.info.uri, stop: () => server.stop() };
}

async function fw(dir: string): Promise<{ url: string; stop(): Promise<void> }> {
  // The app's root: templates are looked up in <root>/resources/views before the framework's.
  const root = join(dir, 'app');
  mkdirSync(join(root, 'resources', 'views', 'bench'), { recursive: true });
  copyFileSync(join(VIEWS, FORM_TEMPLATE), join(root, 'resources', 'views', FORM_TEMPLATE));
  // Created once the database is migrated (by serve), before the parent hears the server is ready.
  let user: User | null = null;
  // A layer wraps the routes added before it in its set: each layered route is a set of its own.
  const routes = new Routes()
    .get('/form', () => View.make(FORM_TEMPLATE, FORM_DATA))
    .get('/json', () => json(STATUS))
    .merge(new Routes().get('/json-throttled', () => json(STATUS)).throttle(NEVER_REFUSING.max, NEVER_REFUSING.perSeconds))
    .merge(
      // The page of a signed-in user: the same template with the user's data (the user is
      // loaded on every request from the session's user id).
      new Routes()
        .get('/bench/account', (ctx) => {
          const current = ctx.requireUser();
          return View.make(FORM_TEMPLATE, { ...FORM_DATA, heading: `Welcome back, ${current.name}`, email: current.email });
        })
        .requireAuth(),
    )
    .merge(
      // Bench-only: signs the bench's user in on this session. The bench calls it from its own
      // process for the signed-in cookie, so it takes no CSRF token.
      new Routes()
        .post('/bench/sign-in', (ctx) => {
          if (user === null) return json({ error: 'no bench user yet' }, 503);
          ctx.auth.login(user);
          return json({ signedIn: user.email });
        })
        .withoutCsrf(),
    );
  // As it runs in production: pino at warn (the access line per request is not written), cached
  // templates and lookups; sessions in the cookie and throttle counters in memory (the defaults).
  const app = createDefaultApp({
    root,
    envFile: false,
    environment: benchEnvironment(`sqlite:${join(dir, 'bench.sqlite')}`),
  }).module({ name: 'bench', routes });
  const running = await app.serve();
  const created = await running.services.get(TOKENS.createUser).execute({ ...BENCH_USER });
  if (created.kind !== 'created') throw new Error(`the bench user was not created: ${JSON.stringify(created)}`);
  user = created.user;
  return { url: running.url, stop: () => running.stop() };
}

const [kind, dir] = process.argv.slice(2);
if (dir === undefined || (kind !== 'bare' && kind !== 'fw' && kind !== 'yar')) {
  console.error('usage: tsx bench/http-kernel.server.ts <bare|fw|yar> <temp folder>');
  process.exit(2);
}
const running = kind === 'bare' ? await bare() : kind === 'yar' ? await yar() : await fw(dir);
serveParent(running, { url: running.url } satisfies ReadyMessage);
