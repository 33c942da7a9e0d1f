import { spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import type { AppOptions } from '../../composition/app.js';
import { createDefaultApp } from '../../composition/default-app.js';
import { Routes, TOKENS, json } from '../../composition/index.js';
import { TestApp } from '../../composition/testing.js';
import type { TestClient, TestServer } from '../../composition/testing.js';
import type { User } from '../../domain/users/user.js';
import { TEST_APP_KEY, useTempDir } from '../support/databases.js';

/**
 * `user:password`, `user:sessions` and `user:logout` against the default app served over a
 * socket: clients sign in through a test-only route, the commands run in-process (and once
 * as `fwx` in a process of its own), and the clients find out whether they are still signed in.
 */

const FWX = join(FRAMEWORK_ROOT, 'bin', 'fwx.js');
const dir = useTempDir('fw-cli-sessions-');
const PASSWORD = 'correct horse battery';

/** The default app plus a route that signs a user in by id, and one that says who is asking. */
function buildApp(options: AppOptions) {
  return createDefaultApp(options).module({
    name: 'test-login',
    routes: new Routes()
      .post('/test-login/{id}', async (ctx) => {
        const user = await ctx.service(TOKENS.userRepository).findById(ctx.params.int('id'));
        if (user === null) return json({ error: 'no user' }, 404);
        ctx.auth.login(user, { remember: (ctx.body() as Record<string, unknown> | null)?.['remember'] === '1' });
        return json({ user: user.email });
      })
      .get('/whoami', (ctx) => json({ user: ctx.user?.email ?? null, token: ctx.session.token() })),
  });
}

function serveApp(name: string, driver: 'cookie' | 'database'): { app: () => TestApp; server: () => TestServer; root: string } {
  let app: TestApp | null = null;
  let server: TestServer | null = null;
  const root = () => join(dir(), name);
  beforeAll(async () => {
    mkdirSync(root(), { recursive: true });
    app = TestApp.create({
      root: root(),
      environment: { DATABASE_URL: `sqlite:${join(root(), 'db.sqlite')}`, SESSION_DRIVER: driver, MAIL_URL: 'log:', APP_KEY: TEST_APP_KEY },
      build: buildApp,
    });
    server = await app.serve();
  });
  afterAll(async () => {
    await server?.stop();
  });
  return {
    app: () => app ?? fail('not served yet'),
    server: () => server ?? fail('not served yet'),
    get root() {
      return root();
    },
  };
}

function fail(message: string): never {
  throw new Error(message);
}

/** Who the server sees; the client learns the session's CSRF token from it, as from a page. */
async function whoami(client: TestClient, agent: string): Promise<string | null> {
  const seen = (await client.get('/whoami', { headers: { 'user-agent': agent } })).json<{ user: string | null; token: string }>();
  client.csrfToken = seen.token;
  return seen.user;
}

async function signIn(server: TestServer, user: User, agent: string, remember = false): Promise<TestClient> {
  const client = server.client();
  await whoami(client, agent);
  const answer = await client.post(`/test-login/${user.id}`, { headers: { 'user-agent': agent }, form: remember ? { remember: '1' } : {} });
  expect(answer.status).toBe(200);
  expect(await whoami(client, agent)).toBe(user.email);
  return client;
}

describe('user commands with SESSION_DRIVER=database', () => {
  const served = serveApp('database', 'database');
  let ada: User;

  beforeAll(async () => {
    ada = await served.app().createUser({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    await served.app().createUser({ name: 'Bob', email: 'bob@example.com', password: PASSWORD });
  });

  it("lists a user's sessions with activity, address and agent, never an id or its hash", async () => {
    const phone = await signIn(served.server(), ada, 'Phone/1.0');
    const laptop = await signIn(served.server(), ada, 'Laptop/2.0', true);
    const bob = await signIn(served.server(), await findUser(served.app(), 'bob@example.com'), 'Bob/1.0');

    const listed = await served.app().call('user:sessions', ['ADA@example.com']);
    expect(listed).toMatchObject({ code: 0, stderr: '' });
    const lines = listed.stdout.split('\n');
    expect(lines[0]).toMatch(/^Last activity\s+IP address\s+User agent\s+Signed in\s+Expires\s+Remembered$/u);
    expect(lines[1]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z\s+127\.0\.0\.1\s+Laptop\/2\.0\s+\S+Z\s+\S+Z\s+yes$/u);
    expect(lines[2]).toMatch(/^\d{4}-\d\d-\d\dT\S+Z\s+127\.0\.0\.1\s+Phone\/1\.0\s+\S+Z\s+\S+Z\s+no$/u);
    expect(lines.slice(3)).toEqual(['2 sessions of ada@example.com.', 'Session epoch: 0.']);
    expect(listed.stdout).not.toContain('Bob/1.0');

    const rows = await sessionIds(served.app());
    for (const secret of [...rows, ...[phone, laptop, bob].map((client) => client.cookies.get('fw_session') ?? 'missing')]) {
      expect(listed.stdout).not.toContain(secret);
    }
    for (const client of [phone, laptop]) {
      expect(listed.stdout).not.toContain(createHash('sha256').update(client.cookies.get('fw_session') ?? '').digest('hex'));
    }

    const asJson = JSON.parse((await served.app().call('user:sessions', ['ada@example.com', '--json'])).stdout) as {
      driver: string;
      sessionEpoch: number;
      sessions: Record<string, unknown>[];
    };
    expect(asJson).toMatchObject({ driver: 'database', sessionEpoch: 0, ended: 0 });
    expect(asJson.sessions.map((session) => [session['userAgent'], session['ipAddress'], session['remembered']])).toEqual([
      ['Laptop/2.0', '127.0.0.1', true],
      ['Phone/1.0', '127.0.0.1', false],
    ]);
    expect(Object.keys(asJson.sessions[0] ?? {}).sort()).toEqual(['expiresAt', 'ipAddress', 'lastActivity', 'remembered', 'signedInAt', 'userAgent']);
  });

  it("user:logout ends every session of the user on their next request and deletes the user's rows, nobody else's", async () => {
    const phone = await signIn(served.server(), ada, 'Phone/1.0');
    const bob = await signIn(served.server(), await findUser(served.app(), 'bob@example.com'), 'Bob/1.0');
    const before = (await served.app().call('user:sessions', ['ada@example.com', '--json'])).stdout;
    const count = (JSON.parse(before) as { sessions: unknown[] }).sessions.length;
    const epoch = (await findUser(served.app(), 'ada@example.com')).sessionEpoch;

    const ended = await served.app().call('user:logout', ['ada@example.com']);
    expect(ended).toEqual({
      code: 0,
      stdout: `Ended every session of ada@example.com (session epoch now ${epoch + 1}).\nDeleted ${count} database session${count === 1 ? '' : 's'}.`,
      stderr: '',
    });
    expect(await whoami(phone, 'Phone/1.0')).toBeNull();
    expect(await whoami(bob, 'Bob/1.0')).toBe('bob@example.com');
    expect((await served.app().call('user:sessions', ['ada@example.com'])).stdout).toBe(`ada@example.com has no sessions.\nSession epoch: ${epoch + 1}.`);
  });

  it('user:password sets the password read from the input, ends every session, and the new password signs in', async () => {
    const phone = await signIn(served.server(), ada, 'Phone/1.0');
    const epoch = (await findUser(served.app(), 'ada@example.com')).sessionEpoch;
    const set = await served.app().call('user:password', ['ada@example.com'], { input: ['a new password 2'] });
    expect(set).toEqual({
      code: 0,
      stdout: `Set the password of ada@example.com.\nEvery session of ada@example.com has ended (session epoch now ${epoch + 1}, 1 database session deleted).`,
      stderr: '',
    });
    expect(await whoami(phone, 'Phone/1.0')).toBeNull();

    const browser = served.server().client();
    await browser.get('/login');
    const old = await browser.post('/login', { form: { email: 'ada@example.com', password: PASSWORD } });
    expect(old.location).toBe('/login');
    const fresh = await browser.post('/login', { form: { email: 'ada@example.com', password: 'a new password 2' } });
    expect([fresh.status, fresh.location]).toEqual([303, '/']);
  });

  it('does not list rows an epoch already ended, and says how many wait for pruning', async () => {
    await signIn(served.server(), ada, 'Phone/1.0');
    const live = (JSON.parse((await served.app().call('user:sessions', ['ada@example.com', '--json'])).stdout) as { sessions: unknown[] }).sessions.length;
    expect(live).toBeGreaterThan(0);
    // What a reset by mail does: only the epoch goes up, the rows stay until they expire.
    const services = await served.app().app.services();
    await services.get(TOKENS.endOtherSessions).execute(ada.id);
    const epoch = (await findUser(served.app(), 'ada@example.com')).sessionEpoch;
    expect((await served.app().call('user:sessions', ['ada@example.com'])).stdout).toBe(
      `ada@example.com has no sessions.\n${live} ended session${live === 1 ? '' : 's'} not shown (kept until they expire or session:prune).\nSession epoch: ${epoch}.`,
    );
  });

  it('refuses an unknown address before asking anything', async () => {
    for (const command of ['user:sessions', 'user:logout', 'user:password']) {
      expect(await served.app().call(command, ['nobody@example.com'], { input: ['a password nobody gets'] })).toEqual({
        code: 1,
        stdout: '',
        stderr: 'Error: No user has the email address nobody@example.com',
      });
    }
    expect((await served.app().call('user:logout', [])).code).toBe(2);
  });
});

describe('user commands with SESSION_DRIVER=cookie', () => {
  const served = serveApp('cookie', 'cookie');
  let ada: User;

  beforeAll(async () => {
    ada = await served.app().createUser({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  });

  it('user:sessions says cookie sessions cannot be listed, and shows the epoch', async () => {
    expect(await served.app().call('user:sessions', ['ada@example.com'])).toEqual({
      code: 0,
      stdout: 'SESSION_DRIVER is the cookie: sessions live in browsers and cannot be listed.\nSession epoch of ada@example.com: 0 (user:logout raises it, which ends every one of them).',
      stderr: '',
    });
    expect(JSON.parse((await served.app().call('user:sessions', ['ada@example.com', '--json'])).stdout)).toEqual({ driver: 'cookie', sessionEpoch: 0, sessions: null });
  });

  it('user:logout ends a signed-in browser and copies of its cookie', async () => {
    const phone = await signIn(served.server(), ada, 'Phone/1.0');
    const copy = phone.cookies.get('fw_session') ?? '';
    expect(await served.app().call('user:logout', ['ada@example.com'])).toEqual({
      code: 0,
      stdout: 'Ended every session of ada@example.com (session epoch now 1).\nDeleted 0 database sessions.',
      stderr: '',
    });
    expect(await whoami(phone, 'Phone/1.0')).toBeNull();
    const replay = served.server().client();
    replay.cookies.set('fw_session', copy);
    expect(await whoami(replay, 'Phone/1.0')).toBeNull();
    // Signing in again works: the epoch ends old sessions, not the user.
    expect(await whoami(await signIn(served.server(), ada, 'Phone/1.0'), 'Phone/1.0')).toBe('ada@example.com');
  });

  it('user:password ends cookie sessions too', async () => {
    const phone = await signIn(served.server(), ada, 'Phone/1.0');
    const set = await served.app().call('user:password', ['ada@example.com'], { input: ['cookie password 1'] });
    expect(set.stdout).toBe('Set the password of ada@example.com.\nEvery session of ada@example.com has ended (session epoch now 2).');
    expect(await whoami(phone, 'Phone/1.0')).toBeNull();
  });
});

describe('user:password input', () => {
  const served = serveApp('password', 'cookie');

  beforeAll(async () => {
    await served.app().createUser({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
  });

  async function hashOf(email: string): Promise<string> {
    return (await findUser(served.app(), email)).passwordHash ?? '';
  }

  async function verifies(password: string): Promise<boolean> {
    const services = await served.app().app.services();
    return services.get(TOKENS.passwordHasher).verify(await hashOf('ada@example.com'), password);
  }

  it('keeps a piped password exactly as typed, spaces included, and never prints it', async () => {
    const set = await served.app().call('user:password', ['ada@example.com'], { input: ['  spaced out 0012  '] });
    expect(set.code).toBe(0);
    expect(`${set.stdout}${set.stderr}`).not.toContain('spaced out');
    expect(await verifies('  spaced out 0012  ')).toBe(true);
    expect(await verifies('spaced out 0012')).toBe(false);
  });

  it('at a terminal asks twice, and changes nothing when the two differ', async () => {
    const before = await hashOf('ada@example.com');
    const differ = await served.app().call('user:password', ['ada@example.com'], { input: ['first password', 'second password'], interactive: true });
    expect(differ).toEqual({ code: 1, stdout: '', stderr: 'Error: The two passwords differ; nothing was changed' });
    expect(await hashOf('ada@example.com')).toBe(before);

    const same = await served.app().call('user:password', ['ada@example.com'], { input: ['typed twice 123', 'typed twice 123'], interactive: true });
    expect(same.code).toBe(0);
    expect(await verifies('typed twice 123')).toBe(true);
  });

  it('refuses a password against the policy, an ended input and a missing input, changing nothing', async () => {
    const before = await hashOf('ada@example.com');
    expect(await served.app().call('user:password', ['ada@example.com'], { input: ['short'] })).toEqual({
      code: 1,
      stdout: '',
      stderr: 'Error: The password must be at least 8 characters; nothing was changed',
    });
    expect((await served.app().call('user:password', ['ada@example.com'], { input: ['x'.repeat(4097)] })).stderr).toBe(
      'Error: The password must be at most 4096 characters; nothing was changed',
    );
    expect((await served.app().call('user:password', ['ada@example.com'], { input: [] })).stderr).toBe('Error: No password was given (the input ended); nothing was changed');
    expect((await served.app().call('user:password', ['ada@example.com'])).stderr).toBe(
      'Error: user:password reads the password from standard input, and there is none here',
    );
    expect((await served.app().call('user:password', ['ada@example.com', '--password', 'on the command line'])).code).toBe(2);
    expect(await hashOf('ada@example.com')).toBe(before);
  });

  it('works as `fwx user:password` with the password piped in', { timeout: 30_000 }, async () => {
    const run = spawnSync(process.execPath, [FWX, 'user:password', 'ada@example.com'], {
      cwd: served.root,
      env: childEnvironment(served.root),
      input: 'piped in 12345\n',
      encoding: 'utf8',
    });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(run.stdout).toMatch(/^Set the password of ada@example\.com\.\nEvery session of ada@example\.com has ended \(session epoch now \d+\)\.\n$/u);
    expect(await verifies('piped in 12345')).toBe(true);
  });

  const hasScript = spawnSync('script', ['--version'], { encoding: 'utf8' }).status === 0;
  it.skipIf(!hasScript)('at a real terminal (a pty from `script`) asks twice and echoes nothing', { timeout: 30_000 }, async () => {
    const output = await typeAtTerminal(served.root, ['tty typed 1234', 'tty typed 1234']);
    expect(output).toMatch(/^New password for ada@example\.com: \r?\nThe same password again: \r?\nSet the password of ada@example\.com\.\r?\n/u);
    expect(output).not.toContain('tty typed');
    expect(await verifies('tty typed 1234')).toBe(true);
  });
});

async function findUser(app: TestApp, email: string): Promise<User> {
  const user = await (await app.app.services()).get(TOKENS.userRepository).findByEmail(email);
  return user ?? fail(`no user ${email}`);
}

async function sessionIds(app: TestApp): Promise<string[]> {
  const raw = (await app.app.services()).get(TOKENS.database).raw;
  const rows = await raw.session((sql) => sql.query<{ id: string }>('SELECT id FROM sessions'));
  return rows.map((row) => row.id);
}

function childEnvironment(root: string): Record<string, string> {
  return { PATH: process.env['PATH'] ?? '', APP_KEY: TEST_APP_KEY, APP_ENV: 'testing', LOG_LEVEL: 'silent', DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}` };
}

/**
 * Runs `fwx user:password` on a pseudo-terminal and types each answer once its question is on
 * the screen: typed earlier, the terminal itself would echo it before raw mode began.
 */
function typeAtTerminal(root: string, answers: string[]): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn('script', ['-qec', `${JSON.stringify(process.execPath)} ${JSON.stringify(FWX)} user:password ada@example.com`, '/dev/null'], {
      cwd: root,
      env: childEnvironment(root),
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let screen = '';
    let asked = 0;
    const questions = ['New password for', 'The same password again'];
    child.stdout.on('data', (chunk: Buffer) => {
      screen += chunk.toString();
      while (asked < answers.length && screen.includes(questions[asked] ?? '\u0000')) {
        child.stdin.write(`${answers[asked] ?? ''}\r`);
        asked += 1;
      }
    });
    child.on('error', reject);
    child.on('exit', (code) => (code === 0 ? resolve(screen) : reject(new Error(`fwx exited with ${code}: ${screen}`))));
  });
}
