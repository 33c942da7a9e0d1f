/**
 * Short-lived shared values: rate-limit counters now, the login lock with the Auth module.
 * `CACHE_STORE` picks the adapter: in memory per process, or shared between servers (the
 * `cache` table, or Redis). A counter is alive until its expiry and absent from then on.
 */
export interface CacheStore {
  /**
   * Adds one to the counter at `key` and returns the new count, atomically: N calls at once,
   * from any number of processes sharing the store, return exactly 1..N. A counter that does
   * not exist, or has expired, starts again at one and expires at `expiresAt`; a live counter
   * keeps the expiry it started with (later calls never extend it).
   */
  increment(key: string, expiresAt: Date): Promise<number>;

  /** The live counter at `key` without changing it; 0 when there is none or it has expired. */
  count(key: string): Promise<number>;

  /** Removes the counter at `key` (for example a login lock after a successful login); absent is fine. */
  forget(key: string): Promise<void>;
}
