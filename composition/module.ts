import type { CliCommand } from '../adapters/cli/command.js';
import type { AppServices } from './services.js';

/** A seeder fills the database with data for development or a demo (`db:seed`). */
export interface Seeder {
  name: string;
  run(services: AppServices): Promise<void>;
}

/**
 * A piece of an app: its name, its migrations folder, its commands and seeders. Modules are
 * ordered: their migrations and commands come in the order the app registers them. Routes,
 * listeners and templates join this shape as the HTTP kernel and the modules land.
 */
export interface Module {
  readonly name: string;
  /** Absolute path of a folder of `<timestamp>_<name>.up.sql` files. */
  readonly migrations?: string;
  commands?(services: () => Promise<AppServices>): CliCommand[];
  readonly seeders?: readonly Seeder[];
}
