import type { CliCommand } from '../adapters/cli/command.js';
import type { Handler } from '../adapters/http/request-context.js';
import type { Routes } from '../domain/routing/routes.js';
import type { AppServices } from './services.js';

/** A seeder fills the database with data for development or a demo (`db:seed`). */
export interface Seeder {
  name: string;
  run(services: AppServices): Promise<void>;
}

/**
 * A piece of an app: its name, routes, migrations folder, commands and seeders. Modules are
 * ordered: their routes, migrations and commands come in the order the app registers them.
 * Listeners join this shape with the modules that publish events.
 */
export interface Module {
  readonly name: string;
  /** The module's routes; `route:list` shows the module's name next to each. */
  readonly routes?: Routes<Handler>;
  /** Absolute path of a folder of `<timestamp>_<name>.up.sql` files. */
  readonly migrations?: string;
  commands?(services: () => Promise<AppServices>): CliCommand[];
  readonly seeders?: readonly Seeder[];
}
