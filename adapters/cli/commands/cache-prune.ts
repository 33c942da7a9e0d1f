import type { CliCommand } from '../command.js';

export interface CachePruneDeps {
  cache(): Promise<{ pruneExpired: () => Promise<number>; store: 'memory' | 'database' | 'redis' }>;
}

/** `fwx cache:prune`: deletes the expired rows of the database cache store (one increment in 100 also deletes some). */
export function cachePruneCommand(deps: CachePruneDeps): CliCommand {
  return {
    name: 'cache:prune',
    description: 'Delete expired entries of the database cache store (table cache)',
    options: [],
    async run(_input, io) {
      const { pruneExpired, store } = await deps.cache();
      const deleted = await pruneExpired();
      io.out(`Deleted ${deleted} expired cache entr${deleted === 1 ? 'y' : 'ies'}.`);
      if (store !== 'database') io.out(`CACHE_STORE is ${store}: its entries expire by themselves; only the table of CACHE_STORE=database was pruned.`);
    },
  };
}
