import { execFile } from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { sqliteBindingPackage } from '../../adapters/persistence/mikro-orm/sqlite-binding.js';
import { FRAMEWORK_ROOT } from '../../composition/app.js';
import { useTempDir } from '../support/databases.js';

/**
 * better-sqlite3 11 aborted Node 24 (24.19 and later) whenever the garbage collector finalized
 * a prepared statement: `node::RemoveEnvironmentCleanupHook ... Assertion failed: (env) != nullptr`.
 * A server preparing one statement per query meets that within minutes; this runs the same
 * churn in a child process on the Node running the suite (CI runs it on 20, 22 and 24).
 */

const FIXTURE = join(FRAMEWORK_ROOT, 'tests', 'support', 'fixtures', 'sqlite-statement-churn.ts');
const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
/** 5,000 dropped statements were enough to abort Node 24.21 with better-sqlite3 11.10.0. */
const QUERIES = 20_000;
const dir = useTempDir('fw-sqlite-gc-');

function run(path: string): Promise<{ code: number | null; signal: string | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, ['--import', TSX, FIXTURE, path, String(QUERIES)], { timeout: 60_000 }, (error, stdout, stderr) => {
      const failure = error as (Error & { code?: number | string; signal?: string }) | null;
      resolve({ code: failure === null ? 0 : typeof failure.code === 'number' ? failure.code : null, signal: failure?.signal ?? null, stdout, stderr });
    });
  });
}

describe('SQLite statements collected by the garbage collector', () => {
  it(`a process preparing and dropping ${QUERIES} statements exits cleanly on Node ${process.version}`, async () => {
    const result = await run(join(dir(), 'churn.sqlite'));
    expect(result.stderr).not.toMatch(/Assertion failed|RemoveEnvironmentCleanupHook/u);
    expect({ code: result.code, signal: result.signal }).toEqual({ code: 0, signal: null });
    expect(result.stdout.trim()).toBe(`${sqliteBindingPackage()}: ${QUERIES + QUERIES / 10} queries`);
  }, 90_000);

  it.each([
    [8, 'better-sqlite3'],
    [9, 'better-sqlite3'],
    [10, 'better-sqlite3-node-api'],
    [11, 'better-sqlite3-node-api'],
  ] as const)('Node-API %i loads %s', (nodeApi, expected) => {
    expect(sqliteBindingPackage(nodeApi)).toBe(expected);
  });
});
