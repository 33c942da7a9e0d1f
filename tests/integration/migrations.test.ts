import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TestApp } from '../../composition/testing.js';
import { TOKENS } from '../../composition/tokens.js';
import { createDefaultApp } from '../../composition/default-app.js';
import { useEngines, useTempDir } from '../support/databases.js';

const BUILT_IN = [
  '20261121000001_create_users_table',
  '20261121000002_create_sessions_table',
  '20261121000003_create_cache_table',
  '20261121000004_create_oauth_accounts_table',
  '20261121000005_create_password_reset_tokens_table',
  '20261121000006_create_activity_log_table',
  '20261121000007_create_api_tokens_table',
  '20261121000008_add_two_factor_to_users',
  '20261124100001_create_jobs_table',
  '20261124100002_create_job_batches_table',
  '20261124200001_create_schedule_runs_table',
  '20261124200002_create_webhook_deliveries_table',
  '20261124200003_create_notifications_table',
];

const tempDir = useTempDir();

/** A module folder holding the given migration files. */
function moduleFolder(name: string, files: Record<string, string>): string {
  const dir = join(tempDir(), name);
  mkdirSync(dir, { recursive: true });
  for (const [file, sql] of Object.entries(files)) writeFileSync(join(dir, file), sql);
  return dir;
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`migrations on ${engine.name}`, () => {
    let app: TestApp | null = null;

    function start(extra: { name: string; migrations: string }[] = [], environment: Record<string, string> = {}): TestApp {
      app = TestApp.create({
        environment: { DATABASE_URL: engine.url(), ...environment },
        build: (options) => extra.reduce((built, module) => built.module(module), createDefaultApp(options)),
      });
      return app;
    }

    async function tables(test: TestApp): Promise<string[]> {
      const services = await test.app.services();
      const db = services.get(TOKENS.database);
      const sql =
        db.engine === 'sqlite'
          ? "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name"
          : 'SELECT tablename AS name FROM pg_tables WHERE schemaname = current_schema() ORDER BY tablename';
      return (await db.raw.session((s) => s.query<{ name: string }>(sql))).map((row) => row.name);
    }

    afterEach(async () => {
      await app?.close();
      app = null;
    });

    it('goes up as one batch, reports status, and has nothing more to do', async () => {
      const test = start();
      await test.call('migrate:fresh');
      await test.call('migrate:rollback', ['--step', '10']);

      const before = await test.call('migrate:status');
      expect(before.code).toBe(0);
      for (const id of BUILT_IN) expect(before.stdout).toMatch(new RegExp(`${id}\\s+Pending`));

      const up = await test.call('migrate');
      expect(up.code).toBe(0);
      expect(up.stdout.split('\n').filter((line) => line.startsWith('Migrated: '))).toEqual(BUILT_IN.map((id) => `Migrated: ${id}`));
      expect(up.stdout).toContain(`${BUILT_IN.length} migrations ran in batch 1.`);
      expect(await tables(test)).toEqual(
        ['activity_log', 'api_tokens', 'cache', 'job_batches', 'jobs', 'migrations', 'notifications', 'oauth_accounts', 'password_reset_tokens', 'schedule_runs', 'sessions', 'users', 'webhook_deliveries'],
      );

      const status = await test.call('migrate:status');
      for (const id of BUILT_IN) expect(status.stdout).toMatch(new RegExp(`${id}\\s+Ran\\s+1`));
      expect((await test.call('migrate')).stdout).toBe('Nothing to migrate.');
    });

    it('rolls back whole batches, newest first, one batch by default', async () => {
      const extra = moduleFolder(`shop-${engine.name}`, {
        '20270101000000_create_products_table.up.sql': 'CREATE TABLE products (id INTEGER PRIMARY KEY, title TEXT NOT NULL);',
        '20270101000000_create_products_table.down.sql': 'DROP TABLE products;',
      });
      const plain = start();
      await plain.call('migrate:fresh');
      await plain.close();

      const test = start([{ name: 'shop', migrations: extra }]);
      const second = await test.call('migrate');
      expect(second.stdout).toContain('Migrated: 20270101000000_create_products_table');
      expect(second.stdout).toContain('1 migration ran in batch 2.');
      expect((await test.call('migrate:status')).stdout).toMatch(/20270101000000_create_products_table\s+Ran\s+2/u);

      const back = await test.call('migrate:rollback');
      expect(back.code).toBe(0);
      expect(back.stdout).toBe('Rolled back: 20270101000000_create_products_table');
      expect(await tables(test)).not.toContain('products');
      expect(await tables(test)).toContain('users');

      const all = await test.call('migrate:rollback', ['--step', '3']);
      expect(all.stdout.split('\n')).toEqual([...BUILT_IN].reverse().map((id) => `Rolled back: ${id}`));
      expect(await tables(test)).toEqual(['migrations']);
      expect((await test.call('migrate:rollback')).stdout).toBe('Nothing to roll back.');
    });

    it('runs fresh: drops every table, data included, and migrates again; --seed seeds', async () => {
      const test = start();
      await test.call('migrate:fresh');
      await test.call('user:create', ['--email', 'keep@example.com', '--name', 'Kept?']);
      const leftover = await test.app.services();
      await leftover.get(TOKENS.database).raw.session((s) => s.exec('CREATE TABLE leftover (id INTEGER)'));

      const fresh = await test.call('migrate:fresh', ['--seed']);
      expect(fresh.code).toBe(0);
      expect(fresh.stdout).toContain('Dropped all tables.');
      expect(fresh.stdout).toContain(`${BUILT_IN.length} migrations ran in batch 1.`);
      expect(fresh.stdout).toContain('Seeded: demo-user');
      expect(await tables(test)).not.toContain('leftover');
      const list = await test.call('user:list', ['--json']);
      expect(JSON.parse(list.stdout)).toMatchObject({ total: 1, users: [{ email: 'test@example.com', verified: true, hasPassword: true }] });
    });

    it('refuses a rollback it cannot finish, before undoing anything', async () => {
      const oneWay = moduleFolder(`one-way-${engine.name}`, {
        '20270201000000_add_audit_view.up.sql': 'CREATE TABLE audit_copy (id INTEGER);',
      });
      const test = start([{ name: 'audit-copy', migrations: oneWay }]);
      await test.call('migrate:fresh');
      const refused = await test.call('migrate:rollback');
      expect(refused.code).toBe(1);
      expect(refused.stderr).toBe(
        'Error: Cannot roll back 20270201000000_add_audit_view: they have no .down.sql file. Nothing was rolled back.',
      );
      expect(await tables(test)).toContain('audit_copy');
      expect(await tables(test)).toContain('users');
    });

    it('leaves a failing migration unrecorded and its half-done work undone', async () => {
      const broken = moduleFolder(`broken-${engine.name}`, {
        '20270301000000_half_done.up.sql': 'CREATE TABLE half_done (id INTEGER);\nCREATE TABLE half_done (id INTEGER);',
      });
      const test = start([{ name: 'broken', migrations: broken }]);
      const result = await test.call('migrate:fresh');
      expect(result.code).toBe(1);
      expect(result.stderr).toMatch(/^Error: Migration 20270301000000_half_done \(up\) failed: .*half_done/u);
      expect(result.stderr.split('\n')).toHaveLength(1);
      expect(await tables(test)).not.toContain('half_done');
      const status = await test.call('migrate:status');
      expect(status.stdout).toMatch(/20270301000000_half_done\s+Pending/u);
      expect(status.stdout).toMatch(/20261121000006_create_activity_log_table\s+Ran\s+1/u);
    });

    it('reports badly named files instead of skipping them', async () => {
      const misnamed = moduleFolder(`misnamed-${engine.name}`, { 'create_things.sql': 'CREATE TABLE things (id INTEGER);' });
      const test = start([{ name: 'misnamed', migrations: misnamed }]);
      const result = await test.call('migrate');
      expect(result.code).toBe(1);
      expect(result.stderr).toContain('"create_things.sql" is not named <14-digit timestamp>_<snake_case_name>');
    });

    it('wants --force for destructive commands in production', async () => {
      const test = start([], { APP_ENV: 'production' });
      for (const [command, args] of [['migrate:fresh', []], ['migrate:rollback', []], ['db:seed', []]] as const) {
        const refused = await test.call(command, args);
        expect(refused.code, command).toBe(2);
        expect(refused.stderr, command).toMatch(/^Error: APP_ENV is production: add --force/u);
      }
      expect((await test.call('migrate:fresh', ['--force'])).code).toBe(0);
    });
  });
}
