/**
 * Where a server of the peers bench spends its CPU time: one CPU profile (the inspector's, as `node --cpu-prof` takes) per
 * row, each in a fresh server process loaded by autocannon, summarised as the functions with the
 * most self time and the files (packages) they live in. The profile covers the load only
 * (started and stopped over IPC after a warm-up), not the server's start.
 *
 *     npm run build && node dist/bench/peers.profile.js [kind] [rows…]
 *
 * kind: a peers.server.ts kind (default fw); rows: health, missing (a 404), login-page, account
 * (default all four), login-post (Argon2 is most of it). PROFILE_SECONDS (5) per row; PROFILE_TOP (25) functions listed. The raw
 * .cpuprofile files stay in PROFILE_DIR (a temp folder) for Chrome's DevTools.
 */
import { fork } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { PASSWORD, SERVER_KINDS, benchEmail } from './support/peers.js';
import type { ReadyMessage, ServerKind } from './support/peers.js';
import { frameName, place } from './support/cpu-profile.js';
import type { CpuProfile } from './support/cpu-profile.js';

const SERVER_SCRIPT = fileURLToPath(new URL(`./peers.server${extname(fileURLToPath(import.meta.url))}`, import.meta.url));
const SECONDS = Number(process.env['PROFILE_SECONDS'] ?? 5);
const TOP = Number(process.env['PROFILE_TOP'] ?? 25);
const PROFILES = process.env['PROFILE_DIR'] ?? mkdtempSync(join(tmpdir(), 'fw-profiles-'));
mkdirSync(PROFILES, { recursive: true });

type Row = 'health' | 'missing' | 'login-page' | 'account' | 'login-post';
const ROWS: readonly Row[] = ['health', 'missing', 'login-page', 'account'];
const PATHS: Record<Row, string> = { health: '/health', missing: '/nope', 'login-page': '/login', account: '/account', 'login-post': '/login' };

function cookieHeader(response: Response): string {
  return response.headers
    .getSetCookie()
    .map((setCookie) => setCookie.split(';')[0] ?? '')
    .join('; ');
}

async function loginForm(url: string): Promise<{ cookie: string; body: string }> {
  const form = await fetch(`${url}/login`);
  const token = /name="_token" value="([^"]+)"/u.exec(await form.text())?.[1] ?? '';
  return { cookie: cookieHeader(form), body: new URLSearchParams({ _token: token, email: benchEmail(0), password: PASSWORD }).toString() };
}

async function signIn(url: string): Promise<string> {
  const form = await fetch(`${url}/login`);
  const body = await form.text();
  const token = /name="_token" value="([^"]+)"/u.exec(body)?.[1] ?? '';
  const cookie = cookieHeader(form);
  const response = await fetch(`${url}/login`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ _token: token, email: benchEmail(0), password: PASSWORD }).toString(),
  });
  await response.text();
  if (response.status !== 303) throw new Error(`sign-in answered ${response.status}`);
  const jar = new Map<string, string>();
  for (const pair of [...cookie.split('; '), ...cookieHeader(response).split('; ')]) if (pair !== '') jar.set(pair.split('=')[0] ?? '', pair);
  return [...jar.values()].join('; ');
}

function summarise(file: string): void {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as CpuProfile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  // Stopping the profiler (its `post` serialising the profile) is sampled too: left out.
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  const profiler = new Set<number>();
  for (const node of profile.nodes) {
    for (let at: number | undefined = node.id; at !== undefined; at = parents.get(at)) {
      if (byId.get(at)?.callFrame.url === 'node:inspector') {
        profiler.add(node.id);
        break;
      }
    }
  }
  const selfByFunction = new Map<string, number>();
  const selfByPackage = new Map<string, number>();
  let total = 0;
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    const delta = profile.timeDeltas[index] ?? 0;
    if (node === undefined || profiler.has(id)) return;
    total += delta;
    const where = place(node.callFrame.url);
    const name = frameName(node.callFrame);
    selfByFunction.set(name, (selfByFunction.get(name) ?? 0) + delta);
    const pkg = where.startsWith('@') ? where.split('/').slice(0, 2).join('/') : (where.split('/')[0] ?? where);
    const group = node.callFrame.url.includes('/node_modules/') ? pkg : where.startsWith('(') || where.startsWith('node:') ? where : where.split('/').slice(0, 3).join('/');
    selfByPackage.set(group, (selfByPackage.get(group) ?? 0) + delta);
  });
  const idle = [...selfByFunction].filter(([name]) => name.startsWith('(idle)')).reduce((sum, [, time]) => sum + time, 0);
  const busy = total - idle;
  const percent = (time: number): string => `${((100 * time) / busy).toFixed(1).padStart(5)} %`;
  console.log(`  busy ${(busy / 1000).toFixed(0)} ms of ${(total / 1000).toFixed(0)} ms sampled; self time, share of busy:`);
  for (const [name, time] of [...selfByFunction].filter(([name]) => !name.startsWith('(idle)')).sort((a, b) => b[1] - a[1]).slice(0, TOP)) console.log(`    ${percent(time)}  ${name}`);
  console.log('  by package / folder:');
  for (const [name, time] of [...selfByPackage].sort((a, b) => b[1] - a[1]).slice(0, 12)) {
    if (name === '(native)' && idle > 0) {
      const rest = time - idle;
      if (rest > 0) console.log(`    ${percent(rest)}  (native: GC, program, V8)`);
      continue;
    }
    console.log(`    ${percent(time)}  ${name}`);
  }
}

async function profileRow(kind: ServerKind, row: Row): Promise<void> {
  const folder = mkdtempSync(join(tmpdir(), 'fw-profile-app-'));
  const child = fork(SERVER_SCRIPT, [kind, folder], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
  const file = join(PROFILES, `${kind}-${row}.cpuprofile`);
  const reply = (expected: string): Promise<void> =>
    new Promise((resolve) => {
      const listener = (message: unknown): void => {
        if (message !== expected) return;
        child.off('message', listener);
        resolve();
      };
      child.on('message', listener);
    });
  try {
    const { url } = await new Promise<ReadyMessage>((resolve, reject) => {
      child.once('message', (message) => resolve(message as ReadyMessage));
      child.once('exit', (code) => reject(new Error(`the ${kind} server exited (${code})`)));
    });
    const cookie = row === 'account' ? await signIn(url) : null;
    // Logins: each posts a login form (a new session and its token) opened beforehand.
    const forms = row === 'login-post' ? await Promise.all(Array.from({ length: 400 }, () => loginForm(url))) : [];
    let next = 0;
    const options =
      row === 'login-post'
        ? {
            url,
            connections: 4,
            requests: [
              {
                method: 'POST' as const,
                path: '/login',
                setupRequest: (request: autocannon.Request) => {
                  const form = forms[next++ % forms.length] as { cookie: string; body: string };
                  return { ...request, headers: { ...request.headers, cookie: form.cookie, 'content-type': 'application/x-www-form-urlencoded' }, body: form.body };
                },
              },
            ],
          }
        : { url: `${url}${PATHS[row]}`, connections: 10, headers: cookie === null ? {} : { cookie } };
    // Warmed up (the JIT settled), then profiled under load only.
    await autocannon({ ...options, duration: 2 });
    const started = reply('profiling');
    child.send('profile-start');
    await started;
    const result = await autocannon({ ...options, duration: SECONDS });
    const profiled = reply('profiled');
    child.send({ profileTo: file });
    await profiled;
    const expected = row === 'missing' ? result['4xx'] : row === 'login-post' ? result['3xx'] : result['2xx'];
    console.log(`\n${kind} ${row} (GET ${PATHS[row]}): ${result.requests.average.toFixed(0)} req/s under the profiler, ${result.requests.total - expected} unexpected answers`);
    const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
    child.send('stop');
    await exited;
    summarise(file);
  } finally {
    if (child.exitCode === null) child.kill('SIGKILL');
    rmSync(folder, { recursive: true, force: true });
  }
}

const [kindArgument, ...rowArguments] = process.argv.slice(2);
const kind = (kindArgument ?? 'fw') as ServerKind;
if (!(SERVER_KINDS as readonly string[]).includes(kind)) throw new Error(`unknown server kind ${kind}`);
const rows = rowArguments.length === 0 ? ROWS : (rowArguments as Row[]);
for (const row of rows) await profileRow(kind, row);
console.log(`\nProfiles: ${readdirSync(PROFILES).map((file) => join(PROFILES, file)).join(', ')}`);
