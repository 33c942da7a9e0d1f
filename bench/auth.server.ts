/**
 * The server of the auth bench (auth.bench.ts), in a process of its own so that the server
 * under test and autocannon each get one of CI's two cores:
 *
 *     tsx bench/auth.server.ts <temp folder> <DATABASE_URL>
 *
 * The default app (`createDefaultApp`: the Auth module's `GET`/`POST /login` and the rest) as
 * it runs in production, on the given database (a SQLite file or a PostgreSQL database the
 * parent created), plus the bench's two pages rendering the same small template
 * (bench/views/bench/me.html):
 *
 * - `GET /bench/me`, behind `.requireAuth()`: the signed-in user (`ctx.user`, loaded from the
 *   database on every request from the session's user id);
 * - `GET /bench/page`: the same page for whoever asks, a guest in the bench.
 *
 * Trusts 127.0.0.1 as its proxy: the bench names each browser's address in X-Forwarded-For.
 * Seeds BENCH_USERS verified users with a password, then sends `{ url, users }` to the parent
 * over IPC; answers the message 'cpu' with its CPU time so far (`CpuMessage`), and stops on the
 * message 'stop' or when the parent goes away.
 */
import { randomBytes } from 'node:crypto';
import { copyFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Routes, TOKENS, View, createDefaultApp } from '../composition/index.js';
import { benchEnvironment, serveParent } from './support/child-servers.js';
import type { RequestContext } from '../adapters/http/kernel/request-context.js';

/** A user the bench signs in as. */
export interface BenchUser {
  email: string;
  password: string;
}

/** What the parent hears once the server listens. */
export interface ReadyMessage {
  url: string;
  users: BenchUser[];
}

/** The answer to the message 'cpu': this process's CPU time so far (all its threads, Argon2's too). */
export interface CpuMessage {
  cpu: NodeJS.CpuUsage;
}

// bench/views/ beside the sources, also when this file runs compiled from dist/bench/.
const VIEWS = fileURLToPath(new URL(import.meta.url.includes('/dist/bench/') ? '../../bench/views/' : './views/', import.meta.url));
const PAGE_TEMPLATE = 'bench/me.html';

/** Users to sign in as, taken in turn by the logins, as many people sign in at once. */
const BENCH_USERS = 8;
const PASSWORD = 'correct horse battery staple';

function page(ctx: RequestContext): View {
  const user = ctx.user;
  return View.make(PAGE_TEMPLATE, {
    heading: user === null ? 'Hello, guest' : `Welcome back, ${user.name}`,
    email: user?.email ?? 'nobody',
    verified: user?.isVerified() === true ? 'yes' : 'no',
  });
}

async function serve(dir: string, databaseUrl: string): Promise<{ url: string; users: BenchUser[]; stop(): Promise<void> }> {
  // The app's root: templates are looked up in <root>/resources/views before the framework's.
  const root = join(dir, `app-${randomBytes(4).toString('hex')}`);
  mkdirSync(join(root, 'resources', 'views', 'bench'), { recursive: true });
  copyFileSync(join(VIEWS, PAGE_TEMPLATE), join(root, 'resources', 'views', PAGE_TEMPLATE));
  const routes = new Routes()
    .get('/bench/page', page)
    .merge(new Routes().get('/bench/me', page).requireAuth());
  // As it runs in production: pino at warn (no access line per request), cached templates;
  // sessions in the cookie and the throttle's and login lock's counters in memory (the
  // defaults), behind a proxy on 127.0.0.1 (the bench) that names each client's address.
  const app = createDefaultApp({
    root,
    envFile: false,
    environment: benchEnvironment(databaseUrl, { TRUSTED_PROXIES: '127.0.0.1' }),
  }).module({ name: 'bench', routes });
  const running = await app.serve();
  const createUser = running.services.get(TOKENS.createUser);
  const users: BenchUser[] = [];
  for (let n = 0; n < BENCH_USERS; n++) {
    const user = { name: `Bench User ${n}`, email: `bench${n}@example.com`, password: PASSWORD };
    const created = await createUser.execute({ ...user, verified: true });
    if (created.kind !== 'created') throw new Error(`the bench user was not created: ${JSON.stringify(created)}`);
    users.push({ email: user.email, password: user.password });
  }
  return { url: running.url, users, stop: () => running.stop() };
}

const [dir, databaseUrl] = process.argv.slice(2);
if (dir === undefined || databaseUrl === undefined) {
  console.error('usage: tsx bench/auth.server.ts <temp folder> <DATABASE_URL>');
  process.exit(2);
}
const running = await serve(dir, databaseUrl);
serveParent(running, { url: running.url, users: running.users } satisfies ReadyMessage, (message) => {
  if (message === 'cpu') process.send?.({ cpu: process.cpuUsage() } satisfies CpuMessage);
});
