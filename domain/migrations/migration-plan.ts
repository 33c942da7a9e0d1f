import type { Migration } from './migration-files.js';
import { MisuseError } from '../shared/errors.js';

/** One row of the migrations table: a migration that ran, and the batch it ran in. */
export interface AppliedMigration {
  id: string;
  batch: number;
  ranAt: Date;
}

export interface MigrationPlan {
  batch: number;
  migrations: Migration[];
}

/** Every migration not yet applied, in id order, to run together as the next batch. */
export function planMigrate(available: readonly Migration[], applied: readonly AppliedMigration[]): MigrationPlan {
  const done = new Set(applied.map((row) => row.id));
  const batch = applied.reduce((max, row) => Math.max(max, row.batch), 0) + 1;
  const pending = available.filter((migration) => !done.has(migration.id));
  return { batch, migrations: pending.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) };
}

export type RollbackPlan =
  | { kind: 'ok'; migrations: Migration[] }
  | { kind: 'refused'; reason: 'no-down-file' | 'missing-file'; ids: string[] };

/**
 * The migrations of the last `steps` batches, newest first. Refused as a whole when one of
 * them cannot be undone (no down file, or the file is gone), so a rollback never stops
 * half-way through a batch.
 */
export function planRollback(
  available: readonly Migration[],
  applied: readonly AppliedMigration[],
  steps: number,
): RollbackPlan {
  if (!Number.isInteger(steps) || steps < 1) throw new MisuseError('migration.bad-steps', `steps must be a positive integer, got ${steps}`);
  const batches = [...new Set(applied.map((row) => row.batch))].sort((a, b) => b - a).slice(0, steps);
  const chosen = applied
    .filter((row) => batches.includes(row.batch))
    .sort((a, b) => b.batch - a.batch || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  const byId = new Map(available.map((migration) => [migration.id, migration]));
  const missing = chosen.filter((row) => !byId.has(row.id)).map((row) => row.id);
  if (missing.length > 0) return { kind: 'refused', reason: 'missing-file', ids: missing };
  const migrations = chosen.map((row) => byId.get(row.id) as Migration);
  const irreversible = migrations.filter((migration) => migration.down === null).map((migration) => migration.id);
  if (irreversible.length > 0) return { kind: 'refused', reason: 'no-down-file', ids: irreversible };
  return { kind: 'ok', migrations };
}

export interface MigrationStatus {
  id: string;
  state: 'ran' | 'pending' | 'missing-file';
  batch: number | null;
  ranAt: Date | null;
}

/** What `migrate:status` shows: every known migration in id order, with where it stands. */
export function migrationStatus(available: readonly Migration[], applied: readonly AppliedMigration[]): MigrationStatus[] {
  const appliedById = new Map(applied.map((row) => [row.id, row]));
  const rows: MigrationStatus[] = available.map((migration) => {
    const row = appliedById.get(migration.id);
    return row === undefined
      ? { id: migration.id, state: 'pending', batch: null, ranAt: null }
      : { id: migration.id, state: 'ran', batch: row.batch, ranAt: row.ranAt };
  });
  const known = new Set(available.map((migration) => migration.id));
  for (const row of applied) {
    if (!known.has(row.id)) rows.push({ id: row.id, state: 'missing-file', batch: row.batch, ranAt: row.ranAt });
  }
  return rows.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}
