import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';
import { MisuseError } from '../../domain/shared/errors.js';

export const DEFAULT_MAX_KEYS = 100_000;

/**
 * Counters in one process's memory (the default CACHE_STORE). Bounded: at `maxKeys` the
 * expired entries are swept, and if the store is still nearly full the oldest counters go
 * first, so a flood of distinct clients costs at most `maxKeys` entries and never exhausts
 * memory: about 350 bytes a counter with rate-limit keys, 35 MB at the default cap (measured
 * by bench/cache-store.bench.ts). Dropping a live counter can only let a client through
 * early, never refuse one wrongly.
 */
export class MemoryCacheStore implements CacheStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();
  /** Where eviction stops: a tenth of the cap below it (at least one entry). */
  private readonly lowWater: number;

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new MisuseError('cache.bad-max-keys', `maxKeys must be a positive whole number, got ${maxKeys}`);
    this.lowWater = maxKeys - Math.max(1, Math.floor(maxKeys / 10));
  }

  increment(key: string, expiresAt: Date): Promise<number> {
    const now = this.clock.now().getTime();
    const entry = this.counters.get(key);
    if (entry !== undefined && entry.expiresAt > now) {
      entry.count += 1;
      return Promise.resolve(entry.count);
    }
    if (entry !== undefined) this.counters.delete(key);
    if (this.counters.size >= this.maxKeys) this.makeRoom(now);
    this.counters.set(key, { count: 1, expiresAt: expiresAt.getTime() });
    return Promise.resolve(1);
  }

  count(key: string): Promise<number> {
    const entry = this.counters.get(key);
    return Promise.resolve(entry !== undefined && entry.expiresAt > this.clock.now().getTime() ? entry.count : 0);
  }

  forget(key: string): Promise<void> {
    this.counters.delete(key);
    return Promise.resolve();
  }

  /** How many counters are kept (for tests and the memory benchmark). */
  get size(): number {
    return this.counters.size;
  }

  private makeRoom(now: number): void {
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
    // Down to the low-water mark, not just one below the cap: otherwise, in a flood of new
    // clients with nothing expired, every new counter would pay a sweep of the whole map
    // (quadratic). Freeing a tenth makes the next sweep wait for maxKeys / 10 new counters.
    // Maps iterate in insertion order: the first keys are the oldest counters.
    for (const key of this.counters.keys()) {
      if (this.counters.size <= this.lowWater) break;
      this.counters.delete(key);
    }
  }
}
