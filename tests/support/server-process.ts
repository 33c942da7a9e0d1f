import { spawn } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { TEST_APP_KEY } from './databases.js';

/** `npx fwx`: the default app's command line, run through tsx from the sources. */
export const FWX = join(FRAMEWORK_ROOT, 'bin', 'fwx.js');

export interface ServerProcess {
  url: string;
  /** Sends SIGTERM and resolves with the exit code (null when it had to be killed). */
  stop(): Promise<number | null>;
}

/**
 * `fwx serve` of the default app in a process of its own, in `root` (its own `storage/`), on a
 * free port of 127.0.0.1. Resolves once it says where it listens.
 */
export function serveDefaultApp(root: string, env: Record<string, string>): Promise<ServerProcess> {
  return spawnServer(root, [FWX, 'serve'], env);
}

/**
 * A server process (`node <args>`) in `root`, with the test environment plus `env`, on a free
 * port of 127.0.0.1. Resolves once it prints `listening on <url>)`; rejects when it exits first.
 */
export async function spawnServer(root: string, args: readonly string[], env: Record<string, string>, timeoutMs = 60_000): Promise<ServerProcess> {
  mkdirSync(root, { recursive: true });
  const child = spawn(process.execPath, [...args], {
    cwd: root,
    env: { PATH: process.env['PATH'] ?? '', HOST: '127.0.0.1', PORT: '0', APP_KEY: TEST_APP_KEY, APP_ENV: 'testing', LOG_LEVEL: 'error', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`${root}: no "listening on" line in time; stdout: ${stdout} stderr: ${stderr}`)), timeoutMs);
    child.stdout.on('data', () => {
      const match = /listening on (http:\/\/[^)\s]+)\)/u.exec(stdout);
      if (match?.[1] === undefined) return;
      clearTimeout(timer);
      resolve(match[1]);
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`${root} exited with ${code}: ${stderr}`));
    });
  });
  return {
    url,
    async stop() {
      child.kill('SIGTERM');
      // A server that keeps a connection open (Redis) would not exit by itself.
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}

/**
 * Runs `check` against two server processes of one app (`start` makes one by name), started
 * one after the other or `together` (racing migrations), and stops both afterwards, expecting
 * each to exit cleanly.
 */
export async function runTwoServers(start: (name: string) => Promise<ServerProcess>, together: boolean, check: (servers: ServerProcess[]) => Promise<void>): Promise<void> {
  const servers: ServerProcess[] = [];
  const started = (name: string) => start(name).then((server) => servers.push(server));
  try {
    if (together) {
      const results = await Promise.allSettled([started('one'), started('two')]);
      for (const result of results) if (result.status === 'rejected') throw result.reason;
    } else {
      await started('one');
      await started('two');
    }
    await check(servers);
  } finally {
    const codes = await Promise.all(servers.map((server) => server.stop()));
    expect(codes).toEqual(servers.map(() => 0));
  }
}

/**
 * The environment of a child process serving the default app as in production: only the
 * system's variables (the app's settings are the test's), a fixed APP_KEY, JSON logs at error,
 * a SQLite file, then `settings`.
 */
export function productionLikeEnvironment(databaseFile: string, settings: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const key of ['PATH', 'HOME', 'TMPDIR', 'LANG', 'SystemRoot']) if (process.env[key] !== undefined) env[key] = process.env[key];
  return { ...env, APP_KEY: `base64:${Buffer.alloc(32, 7).toString('base64')}`, APP_ENV: 'production', APP_DEBUG: 'false', LOG_LEVEL: 'error', DATABASE_URL: `sqlite:${databaseFile}`, ...settings };
}
