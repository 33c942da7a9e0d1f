import type { Clock } from '../../../ports/clock.js';
import type { SessionStore } from '../../../ports/session-store.js';
import type { CliCommand } from '../command.js';

export interface SessionPruneDeps {
  sessions(): Promise<{ store: SessionStore; clock: Clock; driver: 'cookie' | 'database' }>;
}

/** `fwx session:prune`: what about one request in 50 does by itself, on demand (a cron job). */
export function sessionPruneCommand(deps: SessionPruneDeps): CliCommand {
  return {
    name: 'session:prune',
    description: 'Delete expired sessions of the database session driver',
    options: [],
    async run(_input, io) {
      const { store, clock, driver } = await deps.sessions();
      const deleted = await store.prune(clock.now());
      io.out(`Deleted ${deleted} expired session${deleted === 1 ? '' : 's'}.`);
      if (driver === 'cookie') io.out('SESSION_DRIVER is the cookie: sessions live in browsers and expire there and on the server by themselves.');
    },
  };
}
