import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { SystemClock } from '../../adapters/clock/system-clock.js';
import { MemoryCacheStore } from '../../adapters/cache/memory-cache-store.js';
import { RedisCacheStore } from '../../adapters/cache/redis-cache-store.js';
import { SqlCacheStore } from '../../adapters/cache/sql-cache-store.js';
import type { SqlStatements } from '../../adapters/cache/sql-cache-store.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase, useSecondPool } from '../support/migrated-database.js';
import { deleteRedisKeys, redisAvailable, redisTestPrefix, redisUrl } from '../support/redis-server.js';
import { cacheStoreContract } from './cache-store.contract.js';
import type { StoreTime } from './cache-store.contract.js';

/** Time for the stores that read the Clock port: it moves only when told, at once. */
function fixedTime(clock: FixedClock): StoreTime {
  return {
    now: () => clock.now(),
    pass: (milliseconds) => {
      clock.advance(milliseconds);
      return Promise.resolve();
    },
  };
}

cacheStoreContract('memory', () => {
  const clock = new FixedClock('2026-08-01T12:00:00Z');
  return Promise.resolve({ store: new MemoryCacheStore(clock), time: fixedTime(clock) });
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    // A second pool on the same database: what a second server process would have.
    const second = useSecondPool(engine);
    const clear = () => db().raw.session((sql) => sql.exec('DELETE FROM cache'));
    const rows = () =>
      db().raw.session((sql) => sql.query<{ key: string; value: string; expires_at: unknown }>('SELECT key, value, expires_at FROM cache ORDER BY key'));

    cacheStoreContract(`SQL on ${engine.name}`, async () => {
      await clear();
      const clock = new FixedClock('2026-08-01T12:00:00Z');
      return { store: new SqlCacheStore(db().raw, clock), sibling: new SqlCacheStore(second().raw, clock), time: fixedTime(clock) };
    });

    describe(`SqlCacheStore on ${engine.name}`, () => {
      const at = new Date('2026-08-01T12:00:00.000Z');
      const later = new Date('2026-08-01T13:00:00.000Z');

      it('stores the count as decimal text and the expiry as the engine stores every time', async () => {
        await clear();
        const store = new SqlCacheStore(db().raw, new FixedClock(at));
        for (let n = 0; n < 12; n++) await store.increment('k', later);
        const [row] = await rows();
        expect(row?.value).toBe('12');
        // SQLite: epoch milliseconds, as the ORM and the migrator write datetime columns;
        // PostgreSQL: timestamptz (which the ORM's driver hands back as text), the same instant.
        if (engine.name === 'sqlite') expect(row?.expires_at).toBe(later.getTime());
        else expect(new Date(String(row?.expires_at))).toEqual(later);
      });

      it('deletes expired rows on every pruneEvery-th increment, live and never-expiring rows stay', async () => {
        await clear();
        const clock = new FixedClock(at);
        const store = new SqlCacheStore(db().raw, clock, { pruneEvery: 5 });
        await store.increment('old-1', new Date(at.getTime() + 1000));
        await store.increment('old-2', new Date(at.getTime() + 1000));
        await store.increment('live', later);
        await db().raw.session((sql) => sql.query("INSERT INTO cache (key, value, expires_at) VALUES ('forever', 'x', NULL)"));
        clock.advance(2000);
        await store.increment('live', later);
        expect((await rows()).map((row) => row.key)).toEqual(['forever', 'live', 'old-1', 'old-2']);
        await store.increment('live', later); // the fifth: cleans up
        expect((await rows()).map((row) => row.key)).toEqual(['forever', 'live']);
        expect(await store.count('live')).toBe(3);
      });

      it('deletes at most pruneBatch expired rows per clean-up', async () => {
        await clear();
        const clock = new FixedClock(at);
        const store = new SqlCacheStore(db().raw, clock, { pruneEvery: 1_000_000, pruneBatch: 3 });
        for (let n = 0; n < 7; n++) await store.increment(`old-${n}`, new Date(at.getTime() + 1000));
        clock.advance(2000);
        await store.prune();
        expect(await rows()).toHaveLength(4);
        await store.prune();
        await store.prune();
        expect(await rows()).toHaveLength(0);
      });

      it('still counts when a clean-up fails, and says so', async () => {
        await clear();
        const failures: unknown[] = [];
        const failingDeletes: SqlStatements = {
          engine: db().raw.engine,
          session: (work) =>
            db().raw.session((sql) =>
              work({
                query: (text, params) => (text.startsWith('DELETE') ? Promise.reject(new Error('disk full')) : sql.query(text, params)),
              }),
            ),
        };
        const store = new SqlCacheStore(failingDeletes, new FixedClock(at), { pruneEvery: 2, onPruneError: (error) => failures.push(error) });
        expect(await store.increment('k', later)).toBe(1);
        expect(await store.increment('k', later)).toBe(2);
        expect(failures).toEqual([new Error('disk full')]);
      });
    });
  });
}

const redisUp = await redisAvailable();

describe.skipIf(!redisUp)('Redis', () => {
  const stores: RedisCacheStore[] = [];
  const open = (prefix = redisTestPrefix): RedisCacheStore => {
    const store = new RedisCacheStore({ url: redisUrl, prefix });
    stores.push(store);
    return store;
  };
  let inspect: Redis;
  beforeAll(() => {
    inspect = new Redis(redisUrl);
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await deleteRedisKeys(redisTestPrefix);
    inspect.disconnect();
  });

  let run = 0;
  cacheStoreContract('Redis', () => {
    // Each test's keys under a prefix of its own: the contract's keys repeat between tests.
    const prefix = `${redisTestPrefix}${++run}:`;
    const clock = new SystemClock();
    return Promise.resolve({
      store: open(prefix),
      sibling: open(prefix),
      time: { now: () => clock.now(), pass: (milliseconds: number) => sleep(milliseconds) },
    });
  });

  describe('RedisCacheStore', () => {
    it('keeps counters under its prefix, expiring at exactly the given time', async () => {
      const store = open(`${redisTestPrefix}own:`);
      const expiresAt = new Date(Date.now() + 60_000);
      await store.increment('k', expiresAt);
      await store.increment('k', new Date(Date.now() + 120_000));
      expect(await inspect.get(`${redisTestPrefix}own:k`)).toBe('2');
      expect(await inspect.pexpiretime(`${redisTestPrefix}own:k`)).toBe(expiresAt.getTime());
    });

    it('uses fw: as the prefix when none is given', async () => {
      const store = new RedisCacheStore({ url: redisUrl });
      const key = `${redisTestPrefix}default`;
      try {
        await store.increment(key, new Date(Date.now() + 60_000));
        expect(await inspect.get(`fw:${key}`)).toBe('1');
      } finally {
        await inspect.del(`fw:${key}`);
        await store.close();
      }
    });

    it('closes, and closes at once when Redis cannot be reached', async () => {
      const store = new RedisCacheStore({ url: redisUrl, prefix: redisTestPrefix });
      await store.count('x');
      await store.close();
      await expect(store.count('x')).rejects.toThrow(/Connection is closed/u);

      const errors: Error[] = [];
      const nowhere = new RedisCacheStore({ url: 'redis://127.0.0.1:1', onError: (error) => errors.push(error) });
      await expect(nowhere.increment('x', new Date(Date.now() + 1000))).rejects.toThrow();
      const started = Date.now();
      await nowhere.close();
      expect(Date.now() - started).toBeLessThan(500);
      expect(errors).toHaveLength(1);
    });
  });
});
