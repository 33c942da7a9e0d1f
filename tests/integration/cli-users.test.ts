import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../../composition/testing.js';
import { TOKENS } from '../../composition/tokens.js';
import { useEngines } from '../support/databases.js';

const [sqlite] = useEngines();

describe('user commands (SQLite file)', () => {
  let app: TestApp;

  beforeAll(async () => {
    app = TestApp.create({ environment: { DATABASE_URL: sqlite!.url() } });
    expect((await app.call('migrate')).code).toBe(0);
  });
  afterAll(() => app.close());

  it('creates a user with a password that the hasher accepts, exactly as typed', async () => {
    const created = await app.call('user:create', ['--email', ' Ada@Example.com ', '--name', 'Ada Lovelace', '--password', '00012345', '--verified']);
    expect(created).toMatchObject({ code: 0, stderr: '' });
    expect(created.stdout).toMatch(/^Created user #\d+ ada@example\.com \(with a password, verified\)\.$/u);

    const services = await app.app.services();
    const user = await services.get(TOKENS.userRepository).findByEmail('ada@example.com');
    expect(user?.passwordHash).toMatch(/^\$argon2id\$/u);
    expect(await services.get(TOKENS.passwordHasher).verify(user!.passwordHash!, '00012345')).toBe(true);
    expect(await services.get(TOKENS.passwordHasher).verify(user!.passwordHash!, '12345')).toBe(false);
  });

  it('creates a password-less, unverified user without --password', async () => {
    const created = await app.call('user:create', ['--email', 'grace@example.com', '--name', 'Grace Hopper']);
    expect(created.stdout).toContain('grace@example.com (without a password, unverified)');
    const shown = JSON.parse((await app.call('user:show', ['grace@example.com', '--json'])).stdout) as Record<string, unknown>;
    expect(shown).toMatchObject({ email: 'grace@example.com', name: 'Grace Hopper', hasPassword: false, verified: false, emailVerifiedAt: null });
    expect(JSON.stringify(shown)).not.toMatch(/argon|"password"|passwordHash/u);
  });

  it('refuses a taken address, a short password and a bad address, changing nothing', async () => {
    const before = (await app.call('user:list', ['--json'])).stdout;

    const taken = await app.call('user:create', ['--email', 'ADA@example.com', '--name', 'Again']);
    expect(taken).toMatchObject({ code: 1, stdout: '' });
    expect(taken.stderr).toBe('Error: A user with the email address ada@example.com already exists');

    const short = await app.call('user:create', ['--email', 'new@example.com', '--name', 'New', '--password', 'short']);
    expect(short.code).toBe(2);
    expect(short.stderr).toMatch(/^Error: --password must be at least 8 characters\n\nUsage: fwx user:create/u);

    const bad = await app.call('user:create', ['--email', 'not-an-address', '--name', 'New']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/^Error: --email is not a valid email address/u);

    const missing = await app.call('user:create', ['--name', 'New']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/^Error: Missing required option --email/u);

    expect((await app.call('user:list', ['--json'])).stdout).toBe(before);
  });

  it('lists users as a table, shows one, verifies and deletes by email', async () => {
    const list = await app.call('user:list');
    expect(list.stdout.split('\n')[0]).toMatch(/^ID\s+Name\s+Email\s+Verified\s+Password\s+Created$/u);
    expect(list.stdout).toMatch(/Grace Hopper\s+grace@example\.com\s+no\s+no/u);
    expect(list.stdout).toContain('2 of 2 users.');

    expect((await app.call('user:show', ['GRACE@example.com'])).stdout).toMatch(/^email\s+grace@example\.com$/mu);
    expect((await app.call('user:verify', ['grace@example.com'])).stdout).toBe('Verified grace@example.com.');
    expect((await app.call('user:verify', ['grace@example.com'])).stdout).toBe('grace@example.com was already verified.');
    expect(JSON.parse((await app.call('user:show', ['grace@example.com', '--json'])).stdout)).toMatchObject({ verified: true });

    expect((await app.call('user:delete', ['grace@example.com'])).stdout).toMatch(/^Deleted user #\d+ grace@example\.com\.$/u);
    const gone = await app.call('user:show', ['grace@example.com']);
    expect(gone).toMatchObject({ code: 1, stderr: 'Error: No user has the email address grace@example.com' });
    expect((await app.call('user:delete', ['grace@example.com'])).code).toBe(1);
    expect((await app.call('user:verify', ['nobody@example.com'])).code).toBe(1);
  });

  it('pages the list and refuses a silly page size', async () => {
    const page = JSON.parse((await app.call('user:list', ['--json', '--limit', '1', '--offset', '0'])).stdout) as { total: number; users: unknown[] };
    expect(page.users).toHaveLength(1);
    expect((await app.call('user:list', ['--limit', '0'])).code).toBe(2);
    expect((await app.call('user:list', ['--limit', 'ten'])).stderr).toMatch(/^Error: --limit must be a whole number, got "ten"/u);
  });
});
