import type { MigrationStatus } from '../domain/migrations/migration-plan.js';

export interface MigrateResult {
  batch: number | null;
  ran: string[];
}

/**
 * Brings the database schema up to date from the migration files of the app's modules, and
 * back. Refusals that leave the database untouched (a file that cannot be undone) throw a
 * `FrameworkError` whose message says which migrations and why.
 */
export interface SchemaMigrator {
  migrate(): Promise<MigrateResult>;
  status(): Promise<MigrationStatus[]>;
  rollback(steps: number): Promise<string[]>;
  /** Drops every table of the database, then migrates from nothing. */
  fresh(): Promise<MigrateResult>;
}
