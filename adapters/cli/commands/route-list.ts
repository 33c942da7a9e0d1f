import type { RouteListRow } from '../../../domain/http/routing/route-list.js';
import type { CliCommand } from '../command.js';
import { formatTable } from '../table.js';

export interface RouteListDeps {
  /** The app's routes, validated as at start-up. */
  routes(): { rows: RouteListRow[]; hasDomains: boolean };
}

export function routeListCommand(deps: RouteListDeps): CliCommand {
  return {
    name: 'route:list',
    description: "List every route: method, path, name, module, guards (and domain when domains are used)",
    options: [{ flags: '--json', description: 'Print JSON instead of text', type: 'boolean' }],
    run({ options }, io) {
      const { rows, hasDomains } = deps.routes();
      if (options['json'] === true) {
        io.out(JSON.stringify(rows, null, 2));
        return Promise.resolve();
      }
      if (rows.length === 0) {
        io.out('The app has no routes.');
        return Promise.resolve();
      }
      const headers = ['Method', 'Path', 'Name', 'Module', 'Guards', ...(hasDomains ? ['Domain'] : [])];
      io.out(formatTable(headers, rows.map((row) => [row.method, row.path, row.name, row.module, row.guards, ...(hasDomains ? [row.domain] : [])])));
      return Promise.resolve();
    },
  };
}
