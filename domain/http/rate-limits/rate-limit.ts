import { MisuseError } from '../../shared/errors.js';
export * from './rate-limit-window.js';
export * from './rate-limit-key.js';

/**
 * Rate limits as values: what `.throttle` builds and what an `App.rateLimiter` rule returns.
 * The decision over a counter is in `rate-limit-window.ts` (a fixed window, and why), the
 * counter keys in `rate-limit-key.ts`; both are re-exported here.
 */
export class Limit {
  /** Requests allowed per window; null for `Limit.none()`. */
  readonly max: number | null;
  /** The window's length in seconds; null for `Limit.none()`. */
  readonly perSeconds: number | null;
  /** The caller's own counting key from `.by(key)`; null counts per user or client IP. */
  readonly key: string | null;

  private constructor(max: number | null, perSeconds: number | null, key: string | null) {
    this.max = max;
    this.perSeconds = perSeconds;
    this.key = key;
    Object.freeze(this);
  }

  static perMinute(n: number): Limit {
    return Limit.per(n, 60);
  }

  static perHour(n: number): Limit {
    return Limit.per(n, 3600);
  }

  /** At most `n` requests per `seconds`; both whole numbers of at least 1. */
  static per(n: number, seconds: number): Limit {
    if (!Number.isSafeInteger(n) || n < 1) throw new MisuseError('rate-limit.bad-limit', `a limit needs a whole number of requests of at least 1, got ${n}`);
    // Windows are counted in milliseconds, which must stay exact integers.
    if (!Number.isSafeInteger(seconds * 1000) || !Number.isInteger(seconds) || seconds < 1) {
      throw new MisuseError('rate-limit.bad-limit', `a limit's span must be a whole number of seconds of at least 1, got ${seconds}`);
    }
    return new Limit(n, seconds, null);
  }

  static none(): Limit {
    return Limit.#none;
  }

  static readonly #none = new Limit(null, null, null);

  /** The same limit counted under `key` (for example an IP or an API client) instead of per user or IP. */
  by(key: string): Limit {
    if (typeof key !== 'string' || key === '') throw new MisuseError('rate-limit.bad-key', 'Limit.by needs a non-empty key');
    return new Limit(this.max, this.perSeconds, key);
  }

  get unlimited(): boolean {
    return this.max === null;
  }
}

/** The label `route:list` shows: `60/60s`, or `none`. The `.by` key is per request, so it is left out. */
export function describeLimit(limit: Limit): string {
  return limit.max === null || limit.perSeconds === null ? 'none' : `${limit.max}/${limit.perSeconds}s`;
}
