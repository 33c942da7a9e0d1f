import { describe, expect, it } from 'vitest';
import { MemoryCacheStore } from '../../../adapters/cache/memory-cache-store.js';
import { RedisCacheStore } from '../../../adapters/cache/redis-cache-store.js';
import { SqlCacheStore } from '../../../adapters/cache/sql-cache-store.js';
import { TOKENS } from '../../../composition/tokens.js';
import { TestApp } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { redisAvailable, redisTestPrefix, redisUrl } from '../../support/redis-server.js';

const dir = useTempDir('fw-cache-binding-');
const redisUp = await redisAvailable();

/** The app's services under `CACHE_STORE`, on a migrated SQLite file of their own. */
async function bootWith(name: string, environment: Record<string, string>) {
  const app = TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/${name}.sqlite`, ...environment } });
  const services = await app.app.services();
  await services.get(TOKENS.migrator).migrate();
  return { app, services };
}

describe('CACHE_STORE picks the store', () => {
  it('memory by default', async () => {
    const { app, services } = await bootWith('memory', {});
    expect(services.get(TOKENS.cacheStore)).toBeInstanceOf(MemoryCacheStore);
    await app.close();
  });

  it('database: the cache table of the app database', async () => {
    const { app, services } = await bootWith('database', { CACHE_STORE: 'database' });
    const store = services.get(TOKENS.cacheStore);
    expect(store).toBeInstanceOf(SqlCacheStore);
    const key = `${redisTestPrefix}binding`;
    expect(await store.increment(key, new Date(Date.now() + 60_000))).toBe(1);
    const rows = await services.get(TOKENS.database).raw.session((sql) => sql.query('SELECT value FROM cache WHERE key = ?', [key]));
    expect(rows).toEqual([{ value: '1' }]);
    await app.close();
  });

  it.skipIf(!redisUp)('redis: REDIS_URL, and the connection closes with the app', async () => {
    const { app, services } = await bootWith('redis', { CACHE_STORE: 'redis', REDIS_URL: redisUrl });
    const store = services.get(TOKENS.cacheStore);
    expect(store).toBeInstanceOf(RedisCacheStore);
    const key = `${redisTestPrefix}binding`;
    expect(await store.count(key)).toBe(0);
    await app.close();
    await expect(store.count(key)).rejects.toThrow(/Connection is closed/u);
  });

  it('closes an app whose store was never built without connecting to anything', async () => {
    // REDIS_URL points nowhere: resolving the store would start connection attempts.
    const { app } = await bootWith('unused', { CACHE_STORE: 'redis', REDIS_URL: 'redis://127.0.0.1:1' });
    await expect(app.close()).resolves.toBeUndefined();
  });
});
