import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { useTempDir } from '../support/databases.js';

const FWX = join(FRAMEWORK_ROOT, 'bin', 'fwx.js');
const tempDir = useTempDir('fw-serve-');

/** The environment of a newcomer's shell: none of the app's settings. */
function cleanEnvironment(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) {
    if (!/^(APP_|DATABASE_URL|HOST$|PORT$|SESSION_|CACHE_|MAIL_|REDIS_|LOG_LEVEL|TRUSTED_)/u.test(name)) env[name] = value;
  }
  return { ...env, ...extra };
}

describe('fwx serve, as a newcomer starts it', () => {
  it('creates .env with a fresh APP_KEY, migrates the SQLite default, answers /health, and stops on SIGTERM', async () => {
    const root = tempDir();
    const child = spawn(process.execPath, [FWX, 'serve'], {
      cwd: root,
      env: cleanEnvironment({ HOST: '127.0.0.1', PORT: '0' }),
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));

    try {
      const listening = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no "listening on" line in time; stdout: ${stdout} stderr: ${stderr}`)), 30_000);
        child.stdout.on('data', () => {
          const match = /listening on (http:\/\/[^)\s]+)\)/u.exec(stdout);
          if (match?.[1] !== undefined) {
            clearTimeout(timer);
            resolve(match[1]);
          }
        });
        child.on('exit', (code) => reject(new Error(`exited with ${code}: ${stderr}`)));
      });

      const health = await fetch(`${listening}/health`, { headers: { host: 'anything.example' } });
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ status: 'ok' });

      const env = readFileSync(join(root, '.env'), 'utf8');
      const key = /^APP_KEY=base64:(\S+)$/mu.exec(env)?.[1];
      expect(Buffer.from(key ?? '', 'base64')).toHaveLength(32);
      expect(existsSync(join(root, 'storage', 'database.sqlite'))).toBe(true);

      const status = spawnSync(process.execPath, [FWX, 'migrate:status'], { cwd: root, env: cleanEnvironment(), encoding: 'utf8' });
      expect(status.status).toBe(0);
      expect(status.stdout).toMatch(/20261121000001_create_users_table\s+Ran\s+1/u);
      expect(status.stdout).not.toMatch(/Pending/u);
    } finally {
      child.kill('SIGTERM');
    }
    expect(await exited).toBe(0);
    expect(stdout).toContain('Stopping');
    expect(stderr).toBe('');
  });

  it('keeps an existing APP_KEY on the next start', () => {
    const root = tempDir();
    const before = readFileSync(join(root, '.env'), 'utf8');
    const result = spawnSync(process.execPath, [FWX, 'migrate'], { cwd: root, env: cleanEnvironment(), encoding: 'utf8' });
    expect(result.stdout).toBe('Nothing to migrate.\n');
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe(before);
  });

  it('stops at start-up with one line naming a bad setting, and no stack trace', () => {
    const result = spawnSync(process.execPath, [FWX, 'serve'], {
      cwd: tempDir(),
      env: cleanEnvironment({ APP_KEY: 'base64:dG9vLXNob3J0', PORT: '0' }),
      encoding: 'utf8',
    });
    expect(result.status).toBe(1);
    expect(result.stdout).toBe('');
    expect(result.stderr).toBe(
      'Error: Invalid configuration: APP_KEY must hold exactly 32 bytes in base64 (it holds 9): run "npx fwx key:generate"\n',
    );
  });

  it('key:generate --show prints a key and changes no file; key:generate writes one', () => {
    const root = tempDir();
    const before = readFileSync(join(root, '.env'), 'utf8');
    const shown = spawnSync(process.execPath, [FWX, 'key:generate', '--show'], { cwd: root, env: cleanEnvironment(), encoding: 'utf8' });
    expect(shown.stdout).toMatch(/^base64:[A-Za-z0-9+/]{43}=\n$/u);
    expect(readFileSync(join(root, '.env'), 'utf8')).toBe(before);

    const written = spawnSync(process.execPath, [FWX, 'key:generate'], { cwd: root, env: cleanEnvironment(), encoding: 'utf8' });
    expect(written.status).toBe(0);
    const after = readFileSync(join(root, '.env'), 'utf8');
    expect(after).not.toBe(before);
    expect(after.match(/^APP_KEY=/gmu)).toHaveLength(1);
  });
});
