import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The server a bench uses when DATABASE_URL names no PostgreSQL one (this machine's). */
const DEFAULT_POSTGRES = 'postgres://postgres@127.0.0.1:5432/test';

/**
 * A PostgreSQL database of the bench's own, created for one run and dropped at its end, so
 * runs never see each other's rows nor leave any behind.
 */
export class BenchDatabase {
  private made: { admin: string; name: string } | null = null;

  /** Creates it on the server of DATABASE_URL (or the default); says why when it cannot. */
  async create(): Promise<{ url: string } | { problem: string }> {
    const fromEnv = process.env['DATABASE_URL'] ?? '';
    const admin = /^postgres(ql)?:\/\//u.test(fromEnv) ? fromEnv : DEFAULT_POSTGRES;
    const name = `fw_bench_${randomBytes(6).toString('hex')}`;
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query(`CREATE DATABASE ${name}`);
      this.made = { admin, name };
    } catch (error) {
      // The password, if the URL has one, stays out of the message.
      return { problem: `${(error as Error).message || String(error)} (at ${admin.replace(/\/\/([^:@/]+):[^@/]+@/u, '//$1:***@')})` };
    } finally {
      await client.end().catch(() => undefined);
    }
    const url = new URL(admin);
    url.pathname = `/${name}`;
    return { url: url.toString() };
  }

  /** Drops it (once), even while the bench's servers still hold connections. */
  async drop(): Promise<void> {
    if (this.made === null) return;
    const { admin, name } = this.made;
    this.made = null;
    const client = new pg.Client({ connectionString: admin, connectionTimeoutMillis: 5000 });
    try {
      await client.connect();
      await client.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
    } catch (error) {
      console.error(`The bench's PostgreSQL database ${name} was not dropped: ${(error as Error).message}`);
    } finally {
      await client.end().catch(() => undefined);
    }
  }
}
