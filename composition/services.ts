import type { Container } from 'inversify';
import type { Closer } from './chosen-adapters.js';
import type { Config } from './config.js';
import { resolve } from './bindings/provide.js';
import type { Token } from './tokens.js';

/** A booted app: its configuration and container, and how to release what it holds. */
export interface AppServices {
  readonly config: Config;
  readonly container: Container;
  get<T>(token: Token<T>): T;
  close(): Promise<void>;
}

/**
 * `closers` are what boot and the services opened registered to release them (the database,
 * a Redis connection, an SMTP pool, the queue's listener, the log's buffer), run newest first
 * when the app closes: a service closes before the database it uses. Each runs even if one
 * before failed; the first failure is thrown once everything had its turn.
 */
export function appServices(config: Config, container: Container, closers: readonly Closer[]): AppServices {
  return {
    config,
    container,
    get: (token) => resolve(container, token),
    close: async () => {
      const failures: unknown[] = [];
      for (const closer of [...closers].reverse()) {
        try {
          await closer();
        } catch (error) {
          failures.push(error);
        }
      }
      if (failures.length > 0) throw failures[0];
    },
  };
}
