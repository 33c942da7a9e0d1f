import { Redis } from 'ioredis';
import type { CacheStore } from '../../ports/cache-store.js';
import { MisuseError } from '../../domain/shared/errors.js';

export interface RedisCacheStoreOptions {
  /** `redis://` or `rediss://` address (REDIS_URL). */
  url: string;
  /** Put before every key, so one Redis can serve several apps; `fw:` by default. */
  prefix?: string;
  /**
   * Told once when the connection is lost or refused (not on every retry), and again only
   * after it has been back. Commands meanwhile fail after one reconnection attempt.
   */
  onError?: (error: Error) => void;
}

// INCR and the expiry in one script, which Redis runs atomically: no other command lands
// between them, so the first increment of a window always gets its expiry and a crash cannot
// leave a counter that never expires. Later increments leave the expiry alone (it is the
// window's end, not a sliding timeout). PEXPIREAT takes the caller's absolute time, so every
// server counting one window agrees on its end; an end already past deletes the key at once.
const INCREMENT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIREAT', KEYS[1], ARGV[1]) end
return count`;

interface WithIncrement {
  fwIncrement(key: string, expiresAtMs: number): Promise<number>;
}

/**
 * Counters in Redis (CACHE_STORE=redis), for deployments with many servers or more requests
 * than one table should absorb. Redis expires the keys itself, by its own clock: the Clock
 * port plays no part here, and servers should keep their clocks in sync (NTP), as windows
 * are computed from the servers' time.
 */
export class RedisCacheStore implements CacheStore {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(options: RedisCacheStoreOptions) {
    this.prefix = options.prefix ?? 'fw:';
    // One retry per command: a throttled request fails within a second or so when Redis is
    // down, instead of hanging through twenty reconnection attempts.
    this.redis = new Redis(options.url, { maxRetriesPerRequest: 1, connectionName: 'fw-cache' });
    this.redis.defineCommand('fwIncrement', { numberOfKeys: 1, lua: INCREMENT_SCRIPT });
    let reported = false;
    // Without a listener ioredis prints every failed attempt to the console itself.
    this.redis.on('error', (error: Error) => {
      if (reported) return;
      reported = true;
      options.onError?.(error);
    });
    this.redis.on('ready', () => (reported = false));
  }

  async increment(key: string, expiresAt: Date): Promise<number> {
    const at = expiresAt.getTime();
    if (!Number.isFinite(at)) throw new MisuseError('cache.bad-time', `expiresAt must be a valid time, got ${String(expiresAt)}`);
    return Number(await (this.redis as unknown as WithIncrement).fwIncrement(this.prefix + key, at));
  }

  async count(key: string): Promise<number> {
    const value = await this.redis.get(this.prefix + key);
    return value === null ? 0 : Number(value);
  }

  async forget(key: string): Promise<void> {
    await this.redis.del(this.prefix + key);
  }

  /** Waits for the replies still due, then closes the connection (at shutdown). */
  async close(): Promise<void> {
    if (this.redis.status === 'ready') {
      await this.redis.quit();
      return;
    }
    // Not connected (Redis down, or never reached): a QUIT would wait in the offline queue,
    // and nothing can be pending, so stop the reconnection attempts at once.
    this.redis.disconnect();
  }
}
