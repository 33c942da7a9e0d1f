import type { CacheStore } from '../../ports/cache-store.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const CACHE_TOKENS = {
  /** CACHE_STORE: counters of rate limits and login locks, ended logins. */
  cacheStore: token<CacheStore>('CacheStore'),
} as const;

/** The store CACHE_STORE names (chosen-adapters.ts loads only that one; it registers its close). */
export function bindCache({ container, adapters, onClose }: Binding): void {
  provide(container, CACHE_TOKENS.cacheStore, [C.config, C.clock, C.database, C.logger], (config, clock, database, logger) =>
    adapters.cacheStore({ config, clock, database, logger }, onClose),
  );
}
