import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Null when the server answers, else why not. */
export async function probePostgres(url: string): Promise<string | null> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5000 });
  try {
    await client.connect();
    await client.query('SELECT 1');
    return null;
  } catch (error) {
    return (error as Error).message || String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/**
 * A database of its own for one test file, so files running in parallel (and two CI runs on
 * one server) never see each other's tables. Dropped again by `drop()`.
 */
export async function createTestDatabase(serverUrl: string): Promise<TestDatabase> {
  const name = `fw_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const client = new pg.Client({ connectionString: serverUrl });
      await client.connect();
      try {
        await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await client.end();
      }
    },
  };
}
