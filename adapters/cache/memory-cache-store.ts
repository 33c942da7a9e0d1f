import type { CacheStore } from '../../ports/cache-store.js';
import type { Clock } from '../../ports/clock.js';

export const DEFAULT_MAX_KEYS = 100_000;

/**
 * Counters in one process's memory (the default CACHE_STORE). Bounded: at `maxKeys` the
 * expired entries are swept, and if the store is still full the oldest counters go first, so a
 * flood of distinct clients costs at most `maxKeys` entries (about 15 MB at the default) and
 * never exhausts memory. Dropping a live counter can only let a client through early, never
 * refuse one wrongly.
 */
export class MemoryCacheStore implements CacheStore {
  private readonly counters = new Map<string, { count: number; expiresAt: number }>();

  constructor(
    private readonly clock: Clock,
    private readonly maxKeys = DEFAULT_MAX_KEYS,
  ) {
    if (!Number.isSafeInteger(maxKeys) || maxKeys < 1) throw new TypeError(`maxKeys must be a positive whole number, got ${maxKeys}`);
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

  /** How many counters are kept (for tests and the memory benchmark). */
  get size(): number {
    return this.counters.size;
  }

  private makeRoom(now: number): void {
    for (const [key, entry] of this.counters) if (entry.expiresAt <= now) this.counters.delete(key);
    // Maps iterate in insertion order: the first keys are the oldest counters.
    for (const key of this.counters.keys()) {
      if (this.counters.size < this.maxKeys) break;
      this.counters.delete(key);
    }
  }
}
