import { beforeEach, describe, expect, it } from 'vitest';
import type { CacheStore } from '../../ports/cache-store.js';

/**
 * Time as a store under test sees it. Memory and SQL stores read a `FixedClock`, which
 * `pass` moves; Redis expires keys by its own clock, so there `pass` really waits.
 */
export interface StoreTime {
  now(): Date;
  pass(milliseconds: number): Promise<void>;
}

/** A store over an empty backend, and optionally a second store on the same backend. */
export interface StoreUnderTest {
  store: CacheStore;
  time: StoreTime;
  /** Another connection (or process's view) on the same backend; absent for the memory store. */
  sibling?: CacheStore;
}

export type FreshStore = () => Promise<StoreUnderTest>;

/** How far ahead expiries are set: short, because Redis tests wait for them for real. */
const SPAN = 300;

/**
 * What every `CacheStore` must do, run against memory, SQLite, PostgreSQL and Redis, so a
 * rate limit tested on the memory store counts the same on a shared one.
 */
export function cacheStoreContract(name: string, fresh: FreshStore): void {
  describe(`CacheStore contract: ${name}`, () => {
    let store: CacheStore;
    let time: StoreTime;
    let sibling: CacheStore | undefined;
    let run = 0;
    /** A key of this test alone, so tests never see each other's counters. */
    let key: (name: string) => string;

    beforeEach(async () => {
      ({ store, time, sibling } = await fresh());
      const prefix = `t${++run}|`;
      key = (name) => `${prefix}${name}`;
    });

    const ahead = (milliseconds: number) => new Date(time.now().getTime() + milliseconds);

    it('counts from 1, one more per increment', async () => {
      const expiresAt = ahead(60_000);
      expect(await store.increment(key('a'), expiresAt)).toBe(1);
      expect(await store.increment(key('a'), expiresAt)).toBe(2);
      expect(await store.increment(key('a'), expiresAt)).toBe(3);
    });

    it('restarts an expired counter at 1, with the new expiry', async () => {
      await store.increment(key('a'), ahead(SPAN));
      await store.increment(key('a'), ahead(SPAN));
      await time.pass(SPAN + 100);
      expect(await store.count(key('a'))).toBe(0);
      expect(await store.increment(key('a'), ahead(SPAN))).toBe(1);
      expect(await store.increment(key('a'), ahead(SPAN))).toBe(2);
      await time.pass(SPAN + 100);
      // Had the old expiry been kept, or the new one ignored, this would not be 1 again.
      expect(await store.increment(key('a'), ahead(60_000))).toBe(1);
    });

    it('keeps the first expiry: later increments with later expiries do not extend it', async () => {
      await store.increment(key('a'), ahead(SPAN));
      await store.increment(key('a'), ahead(60_000));
      await store.increment(key('a'), ahead(60_000));
      expect(await store.count(key('a'))).toBe(3);
      await time.pass(SPAN + 100);
      expect(await store.count(key('a'))).toBe(0);
      expect(await store.increment(key('a'), ahead(60_000))).toBe(1);
    });

    it('counts without incrementing: 0 when absent, the live count otherwise', async () => {
      expect(await store.count(key('a'))).toBe(0);
      await store.increment(key('a'), ahead(60_000));
      await store.increment(key('a'), ahead(60_000));
      expect(await store.count(key('a'))).toBe(2);
      expect(await store.count(key('a'))).toBe(2);
      expect(await store.increment(key('a'), ahead(60_000))).toBe(3);
    });

    it('forgets a counter, so the next increment starts at 1; forgetting nothing is fine', async () => {
      await store.increment(key('a'), ahead(60_000));
      await store.increment(key('a'), ahead(60_000));
      await store.forget(key('a'));
      expect(await store.count(key('a'))).toBe(0);
      expect(await store.increment(key('a'), ahead(60_000))).toBe(1);
      await expect(store.forget(key('never-counted'))).resolves.toBeUndefined();
    });

    it('keeps distinct keys apart, however alike they look', async () => {
      const expiresAt = ahead(60_000);
      await store.increment(key('a'), expiresAt);
      await store.increment(key('a'), expiresAt);
      expect(await store.increment(key('b'), expiresAt)).toBe(1);
      expect(await store.increment(key('A'), expiresAt)).toBe(1);
      expect(await store.increment(key('a '), expiresAt)).toBe(1);
      expect(await store.increment(key('rate-limit|api|60s|1|ip:2001:db8::/64'), expiresAt)).toBe(1);
      await store.forget(key('b'));
      expect(await store.count(key('a'))).toBe(2);
    });

    it('returns exactly 1..N to N increments made at once: none lost, none twice', async () => {
      const n = 50;
      const expiresAt = ahead(60_000);
      const counts = await Promise.all(Array.from({ length: n }, () => store.increment(key('race'), expiresAt)));
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(await store.count(key('race'))).toBe(n);
    });

    it('shares one counter between two connections, also when they increment at once', async (context) => {
      if (sibling === undefined) return context.skip('one process: nothing to share with');
      const other = sibling;
      const n = 40;
      const expiresAt = ahead(60_000);
      const counts = await Promise.all(
        Array.from({ length: n }, (_, i) => (i % 2 === 0 ? store : other).increment(key('shared'), expiresAt)),
      );
      expect([...counts].sort((x, y) => x - y)).toEqual(Array.from({ length: n }, (_, i) => i + 1));
      expect(await other.count(key('shared'))).toBe(n);
      await other.forget(key('shared'));
      expect(await store.count(key('shared'))).toBe(0);
    });
  });
}
