import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';

const DEFAULT_URL = 'redis://127.0.0.1:6379';

/** The Redis the suites use: REDIS_URL, or the local default. */
export const redisUrl = process.env['REDIS_URL'] !== undefined && process.env['REDIS_URL'] !== '' ? process.env['REDIS_URL'] : DEFAULT_URL;

/** A key prefix of this test file's run alone, so files running in parallel (and two runs) never collide. */
export const redisTestPrefix = `fw-test:${process.pid}-${randomBytes(4).toString('hex')}:`;

function inCi(): boolean {
  const ci = process.env['CI'];
  return ci !== undefined && ci !== '' && ci !== 'false' && ci !== '0';
}

/**
 * Whether the Redis suites run. Outside CI an unreachable Redis skips them and says so; in
 * CI it throws, which fails the test file: there the Redis suites must run.
 */
export async function redisAvailable(): Promise<boolean> {
  const client = new Redis(redisUrl, { lazyConnect: true, maxRetriesPerRequest: 0, retryStrategy: () => null, connectTimeout: 2000 });
  // The socket's error (ECONNREFUSED …) says more than the "Connection is closed" that follows.
  let socketError: Error | null = null;
  client.on('error', (error: Error) => (socketError ??= error));
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch (error) {
    const reason = (socketError ?? (error as Error)).message.replace(/\.$/u, '');
    const message = `Redis is not reachable at ${redisUrl.replace(/\/\/[^@/]*@/u, '//***@')}: ${reason}`;
    if (inCi()) throw new Error(`${message}. In CI the Redis suites must run.`, { cause: error });
    console.warn(`[tests] ${message}. The Redis suites are SKIPPED; start Redis or set REDIS_URL to run them.`);
    return false;
  } finally {
    client.disconnect();
  }
}

/**
 * Deletes every key that starts with `prefix` and holds `containing` after it (test counters
 * expire anyway; this keeps Redis tidy at once).
 */
export async function deleteRedisKeys(prefix: string, containing = ''): Promise<void> {
  const glob = (text: string) => text.replace(/[*?[\]\\]/gu, '\\$&');
  const client = new Redis(redisUrl, { maxRetriesPerRequest: 1 });
  try {
    let cursor = '0';
    do {
      const [next, keys] = await client.scan(cursor, 'MATCH', `${glob(prefix)}*${containing === '' ? '' : `${glob(containing)}*`}`, 'COUNT', 1000);
      if (keys.length > 0) await client.del(...keys);
      cursor = next;
    } while (cursor !== '0');
  } finally {
    client.disconnect();
  }
}
