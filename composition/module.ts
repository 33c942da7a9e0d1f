import type { Container } from 'inversify';
import type { CliCommand } from '../adapters/cli/command.js';
import type { Handler, RequestContext } from '../adapters/http/kernel/request-context.js';
import type { GeneratedMigration } from '../domain/data/search.js';
import type { Routes } from '../domain/http/routing/routes.js';
import type { EventClass } from '../ports/event-bus.js';
import type { RequestOrigin } from '../ports/request-origin.js';
import type { Config } from './config.js';
import type { RegisteredJob } from './jobs.js';
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
  /** Migrations made in code (`searchMigration(Post, '<timestamp>_<name>')`), run in timestamp order with the files. */
  readonly generatedMigrations?: readonly GeneratedMigration[];
  commands?(services: () => Promise<AppServices>): CliCommand[];
  readonly seeders?: readonly Seeder[];
  /** The module's queued jobs (`defineJob`), registered with the app as `app.job` does. */
  readonly jobs?: readonly RegisteredJob[];
  /**
   * Runs once, when the app registers the module: it may find modules registered before it
   * (OAuth adds its card to Auth's account page), share values with every view, and listen to
   * events (the Audit module).
   */
  register?(host: ModuleHost): void;
  /** Binds the module's services when the app boots, after the framework's own. */
  bind?(container: Container, config: Config): void;
}

/** A module's class, private constructor or not (`Auth` is made with `Auth.create()`). */
/**
 * A listener of `App.listen`: the event, the app's services, and the request whose work
 * published it (its client address and request id), or null when no request did (a command,
 * a job, a schedule).
 */
export type AppListener<E> = (event: E, services: AppServices, origin: RequestOrigin | null) => void | Promise<void>;

// eslint-disable-next-line @typescript-eslint/no-unsafe-function-type -- `instanceof` needs the class itself
export type ModuleClass<M extends Module> = Function & { readonly prototype: M };

/** What a module sees of the app registering it. */
export interface ModuleHost {
  /** A module registered before this one, by its class; null when the app has none. */
  find<M extends Module>(type: ModuleClass<M>): M | null;
  /** A value every view receives under `name`, computed once per request (`App.share`). */
  share(name: string, compute: (ctx: RequestContext) => unknown): void;
  /** `App.listen`: runs after each event of that class. */
  listen<E extends object>(type: EventClass<E>, listener: AppListener<E>): void;
}
