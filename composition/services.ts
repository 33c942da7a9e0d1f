import type { Container } from 'inversify';
import type { Config } from './config.js';
import { resolve } from './container.js';
import type { Token } from './tokens.js';

/** A booted app: its configuration and container, and how to release what it holds. */
export interface AppServices {
  readonly config: Config;
  readonly container: Container;
  get<T>(token: Token<T>): T;
  close(): Promise<void>;
}

export function appServices(config: Config, container: Container, close: () => Promise<void>): AppServices {
  return {
    config,
    container,
    get: (token) => resolve(container, token),
    close: async () => {
      // Unbinding runs the deactivation of every service that was built (the Redis connection
      // of CACHE_STORE=redis closes there), before `close` releases the database they may use.
      try {
        await container.unbindAllAsync();
      } finally {
        await close();
      }
    },
  };
}
