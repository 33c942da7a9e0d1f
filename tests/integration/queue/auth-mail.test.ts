import { existsSync, mkdirSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOKENS } from '../../../composition/index.js';
import { TestApp } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { LogMailbox } from '../../support/mailbox.js';

/** The Auth module's mails through the queue (QUEUE_CONNECTION=database) and inline (sync). */
const dir = useTempDir('fw-queued-mail-');

function appIn(name: string, connection: 'database' | 'sync'): () => TestApp {
  let app: TestApp | null = null;
  beforeAll(async () => {
    const root = join(dir(), name);
    mkdirSync(root, { recursive: true });
    app = TestApp.create({ root, environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, MAIL_URL: 'log:', QUEUE_CONNECTION: connection } });
    await app.call('migrate');
    await app.call('user:create', ['--email', 'ada@example.com', '--name', 'Ada', '--password', 'correct horse battery']);
  });
  afterAll(async () => {
    await app?.app.close();
  });
  return () => app!;
}

const mails = (root: string) => (existsSync(join(root, 'storage', 'mail')) ? readdirSync(join(root, 'storage', 'mail')) : []);

describe('QUEUE_CONNECTION=database', () => {
  const app = appIn('database', 'database');

  it('queues the reset mail with its token sealed, and the worker sends it', async () => {
    const services = await app().app.services();
    const root = join(dir(), 'database');
    await services.get(TOKENS.requestPasswordReset).execute('ada@example.com');
    expect(mails(root)).toEqual([]);
    const [row] = await services.get(TOKENS.database).raw.session((sql) => sql.query<{ name: string; payload: string }>('SELECT name, payload FROM jobs'));
    expect(row?.name).toBe('fw.auth-mail');
    const payload = JSON.parse(row!.payload) as Record<string, unknown>;
    expect(Object.keys(payload).sort()).toEqual(['kind', 'sealedToken', 'userId']);

    const worked = await app().call('queue:work', ['--once']);
    expect(worked.stdout).toContain('1 completed');
    const token = await new LogMailbox(root).resetToken('ada@example.com');
    expect(token).toMatch(/^[\w-]{20,}$/u);
    // The sealed payload did not carry the token as it is.
    expect(row!.payload).not.toContain(token);
  });

  it('queues the verification mail too', async () => {
    const services = await app().app.services();
    const user = await services.get(TOKENS.userRepository).findByEmail('ada@example.com');
    await services.get(TOKENS.authMail).sendEmailVerification(user!);
    await app().call('queue:work', ['--once']);
    expect(await new LogMailbox(join(dir(), 'database')).newLinks('Verify your email address', 'ada@example.com')).toHaveLength(1);
  });
});

describe('QUEUE_CONNECTION=sync', () => {
  const app = appIn('sync', 'sync');

  it('sends the mail inline, queueing nothing', async () => {
    const services = await app().app.services();
    await services.get(TOKENS.requestPasswordReset).execute('ada@example.com');
    expect(await new LogMailbox(join(dir(), 'sync')).resetToken('ada@example.com')).not.toBe('');
    expect(await services.get(TOKENS.jobQueue).counts(new Date())).toEqual([]);
  });
});
