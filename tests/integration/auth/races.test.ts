import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TOKENS } from '../../../composition/tokens.js';
import { TestApp, TestClient } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { TEST_APP_KEY, useEngines, useTempDir } from '../../support/databases.js';
import { createTestDatabase } from '../../support/postgres-server.js';
import type { TestDatabase } from '../../support/postgres-server.js';
import { runTwoServers, serveDefaultApp } from '../../support/server-process.js';
import type { ServerProcess } from '../../support/server-process.js';

/**
 * Races against the Auth module as `npm start` serves it: requests that arrive together must
 * come out as if they had queued, on one server and across two.
 */

const PASSWORD = 'correct horse battery';
const dir = useTempDir('fw-auth-races-');

async function usersWithEmail(app: TestApp, email: string): Promise<string[]> {
  const raw = (await app.app.services()).get(TOKENS.database).raw;
  const rows = await raw.session((sql) => sql.query<{ email: string }>('SELECT email FROM users WHERE lower(email) = ?', [email.toLowerCase()]));
  return rows.map((row) => row.email);
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`simultaneous registrations on ${engine.name}`, () => {
    // Each round moves to a new minute: the guest pages allow 30 requests a minute per client.
    const clock = new FixedClock('2026-03-01T12:00:00Z');
    let app: TestApp;
    let server: TestServer;

    beforeAll(async () => {
      app = TestApp.create({
        root: join(dir(), engine.name),
        clock,
        environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:', APP_KEY: TEST_APP_KEY },
        build: createDefaultApp,
      });
      server = await app.serve();
    });
    afterAll(() => server.stop());

    /** Two browsers with the register page open send the form at the same moment. */
    async function registerTogether(emails: [string, string]) {
      clock.advance(61_000);
      const clients = [server.client(), server.client()];
      await Promise.all(clients.map((client) => client.get('/register')));
      return Promise.all(
        clients.map((client, i) =>
          client.post('/register', { form: { name: `Racer ${i}`, email: emails[i] ?? '', password: PASSWORD, password_confirmation: PASSWORD } }),
        ),
      );
    }

    for (const [label, emails] of [
      ['the same spelling', ['twin@example.com', 'twin@example.com']],
      ['different case', ['Case@Example.com', 'cASE@example.COM']],
      ['spaces around one of them', ['space@example.com', '  SPACE@example.com ']],
    ] as const) {
      it(`make exactly one user: ${label}`, async () => {
        for (let round = 0; round < 3; round++) {
          const roundEmails = emails.map((email) => email.replace('@', `${round}@`)) as [string, string];
          const answers = await registerTogether(roundEmails);
          expect(answers.map((answer) => answer.status)).toEqual([303, 303]);
          expect(answers.map((answer) => answer.location).sort()).toEqual(['/', '/register']);
          expect(await usersWithEmail(app, roundEmails[0].trim())).toEqual([roundEmails[0].trim().toLowerCase()]);
        }
      });
    }

    it('tells the one who lost, with the old input and without signing in', async () => {
      clock.advance(61_000);
      const clients = [server.client(), server.client()];
      await Promise.all(clients.map((client) => client.get('/register')));
      const answers = await Promise.all(
        clients.map((client, i) =>
          client.post('/register', { form: { name: `Loser ${i}`, email: i === 0 ? 'Lost@Example.com' : 'lost@example.com', password: PASSWORD, password_confirmation: PASSWORD } }),
        ),
      );
      const loser = clients[answers.findIndex((answer) => answer.location === '/register')];
      expect(loser).toBeDefined();
      const page = await (loser as TestClient).get('/register');
      expect(page.status).toBe(200);
      expect(page.text).toContain('The email has already been taken.');
      expect(page.text).toMatch(/value="Loser [01]"/u);
      expect(page.text).not.toContain(PASSWORD);
      expect(await usersWithEmail(app, 'lost@example.com')).toEqual(['lost@example.com']);
    });
  });
}

/**
 * A window of the login lock is a calendar minute. Waits, when needed, so that at least
 * `seconds` are left in this one: attempts spread over two minutes would rightly be counted
 * as two windows.
 */
async function withinOneMinute(seconds: number): Promise<void> {
  const left = 60_000 - (Date.now() % 60_000);
  if (left < seconds * 1000) await new Promise((resolve) => setTimeout(resolve, left + 50));
}

describe('the login lock across two server processes on one database', () => {
  const postgresServer = inject('postgresUrl');

  /** Migrates the database and creates the user in-process, then serves it from two processes. */
  async function withTwoServers(name: string, env: Record<string, string>, together: boolean, check: (servers: ServerProcess[]) => Promise<void>) {
    const setup = TestApp.create({ root: join(dir(), name), environment: { ...env, APP_KEY: TEST_APP_KEY } });
    try {
      expect((await setup.call('migrate')).code).toBe(0);
      await setup.createUser({ name: 'Ada', email: 'ada@example.com', password: PASSWORD });
    } finally {
      await setup.close();
    }
    await runTwoServers((which) => serveDefaultApp(join(dir(), name, which), env), together, check);
  }

  async function alternateWrongPasswords(servers: ServerProcess[]): Promise<void> {
    // Each server gets a page first: a session cookie and the CSRF token of that session.
    const clients = servers.map((server) => new TestClient(server.url));
    for (const client of clients) expect((await client.get('/login')).status).toBe(200);
    await withinOneMinute(20);

    const statuses: number[] = [];
    for (let attempt = 0; attempt < 7; attempt++) {
      const client = clients[attempt % 2] as TestClient;
      const answer = await client.post('/login', { form: { email: attempt % 3 === 0 ? 'ADA@example.com' : 'ada@example.com', password: `wrong password ${attempt}` } });
      statuses.push(answer.status);
      if (answer.status === 429) expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    expect(statuses).toEqual([303, 303, 303, 303, 303, 429, 429]);
    // Locked means locked: the right password waits too, on either server.
    for (const client of clients) expect((await client.post('/login', { form: { email: 'ada@example.com', password: PASSWORD } })).status).toBe(429);
  }

  it('CACHE_STORE=database on one SQLite file: the 6th wrong password in a minute is 429 whichever server gets it', { timeout: 90_000 }, async () => {
    const file = join(dir(), 'lock.sqlite');
    await withTwoServers('sqlite-lock', { CACHE_STORE: 'database', DATABASE_URL: `sqlite:${file}`, MAIL_URL: 'log:' }, false, alternateWrongPasswords);
  });

  describe.skipIf(postgresServer === null)('on PostgreSQL', () => {
    let database: TestDatabase | null = null;
    beforeAll(async () => {
      if (postgresServer !== null) database = await createTestDatabase(postgresServer);
    });
    afterAll(async () => {
      await database?.drop();
    });

    it('CACHE_STORE=database: the same', { timeout: 90_000 }, async () => {
      await withTwoServers('postgres-lock', { CACHE_STORE: 'database', DATABASE_URL: database?.url ?? '', MAIL_URL: 'log:' }, true, alternateWrongPasswords);
    });
  });
});
