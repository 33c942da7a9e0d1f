/**
 * Short-lived shared values: rate-limit counters now, the login lock with the Auth module.
 * `CACHE_STORE` picks the adapter: in memory per process, or shared between servers.
 */
export interface CacheStore {
  /**
   * Adds one to the counter at `key` and returns the new count, atomically. A counter that does
   * not exist, or expired, starts again at one and expires at `expiresAt`.
   */
  increment(key: string, expiresAt: Date): Promise<number>;
}
