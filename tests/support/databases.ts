import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { createTestDatabase } from './postgres-server.js';
import type { TestDatabase } from './postgres-server.js';

/** An engine a suite runs against, and the DATABASE_URL of a fresh, empty database on it. */
export interface EngineUnderTest {
  name: 'sqlite' | 'postgres';
  /** False when no PostgreSQL server is available outside CI (the suite is skipped, visibly). */
  available: boolean;
  /** Valid inside tests and hooks (after the suite's `beforeAll`). */
  url(): string;
}

/** A temporary folder, removed after the file's tests. */
export function useTempDir(prefix = 'fw-test-'): () => string {
  let dir = '';
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });
  return () => dir;
}

/**
 * Both engines, each with a database of its own for this test file: a SQLite file in a
 * temporary folder, and a fresh PostgreSQL database that is dropped afterwards.
 */
export function useEngines(): EngineUnderTest[] {
  const tempDir = useTempDir('fw-sqlite-');
  const serverUrl = inject('postgresUrl');
  let postgres: TestDatabase | null = null;
  beforeAll(async () => {
    if (serverUrl !== null) postgres = await createTestDatabase(serverUrl);
  });
  afterAll(async () => {
    await postgres?.drop();
  });
  return [
    { name: 'sqlite', available: true, url: () => `sqlite:${join(tempDir(), 'database.sqlite')}` },
    {
      name: 'postgres',
      available: serverUrl !== null,
      url: () => {
        if (postgres === null) throw new Error('The PostgreSQL test database is not created yet');
        return postgres.url;
      },
    },
  ];
}

/**
 * An empty database of its own on `engine` for the enclosing `describe` (call inside it), for
 * the describes of one file that must not see each other's rows (the same addresses registered
 * in each): a SQLite file in a temporary folder, or a PostgreSQL database created before the
 * describe's tests and dropped after them. Valid inside tests and hooks, like `engine.url()`.
 */
export function useOwnDatabase(engine: EngineUnderTest): () => string {
  const serverUrl = inject('postgresUrl');
  let url: string | null = null;
  let sqliteDir: string | null = null;
  let postgres: TestDatabase | null = null;
  beforeAll(async () => {
    if (engine.name === 'sqlite') {
      sqliteDir = mkdtempSync(join(tmpdir(), 'fw-sqlite-'));
      url = `sqlite:${join(sqliteDir, 'database.sqlite')}`;
    } else {
      if (serverUrl === null) throw new Error('No PostgreSQL server: skip the describe when the engine is not available');
      postgres = await createTestDatabase(serverUrl);
      url = postgres.url;
    }
  });
  afterAll(async () => {
    await postgres?.drop();
    if (sqliteDir !== null) rmSync(sqliteDir, { recursive: true, force: true });
  });
  return () => {
    if (url === null) throw new Error(`The ${engine.name} database of this describe is not created yet`);
    return url;
  };
}

/** An APP_KEY for tests: valid, and obviously not a real one. */
export const TEST_APP_KEY = `base64:${Buffer.alloc(32, 7).toString('base64')}`;
