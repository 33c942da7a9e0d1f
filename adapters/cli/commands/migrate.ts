import type { SchemaMigrator } from '../../../ports/schema-migrator.js';
import type { CliCommand, CommandIO } from '../command.js';
import { UsageError } from '../command.js';
import { formatTable } from '../table.js';

export interface MigrateDeps {
  migrator(): Promise<SchemaMigrator>;
  /** Runs the app's seeders; returns their names in the order they ran. */
  seed(): Promise<string[]>;
  /** APP_ENV: destructive commands want `--force` in production. */
  environment(): Promise<string>;
}

const FORCE = { flags: '--force', description: 'Allow it when APP_ENV is production', type: 'boolean' } as const;

async function guardProduction(deps: MigrateDeps, force: unknown, what: string): Promise<void> {
  if (force !== true && (await deps.environment()) === 'production') {
    throw new UsageError(`APP_ENV is production: add --force to ${what}`);
  }
}

function reportRan(io: CommandIO, ran: string[], batch: number | null): void {
  if (ran.length === 0) {
    io.out('Nothing to migrate.');
    return;
  }
  for (const id of ran) io.out(`Migrated: ${id}`);
  io.out(`${ran.length} migration${ran.length === 1 ? '' : 's'} ran in batch ${batch ?? '?'}.`);
}

export function migrateCommands(deps: MigrateDeps): CliCommand[] {
  return [
    {
      name: 'migrate',
      description: 'Run the migrations that have not run yet, as one batch',
      async run(_input, io) {
        const result = await (await deps.migrator()).migrate();
        reportRan(io, result.ran, result.batch);
      },
    },
    {
      name: 'migrate:status',
      description: 'List every migration, whether it ran and in which batch',
      async run(_input, io) {
        const rows = await (await deps.migrator()).status();
        if (rows.length === 0) {
          io.out('No migrations found.');
          return;
        }
        const state = { ran: 'Ran', pending: 'Pending', 'missing-file': 'Ran (file missing)' } as const;
        io.out(formatTable(['Migration', 'Status', 'Batch'], rows.map((row) => [row.id, state[row.state], row.batch === null ? '' : String(row.batch)])));
      },
    },
    {
      name: 'migrate:rollback',
      description: 'Undo the last batches of migrations',
      options: [{ flags: '--step <n>', description: 'How many batches to undo', type: 'integer', default: 1 }, FORCE],
      async run({ options }, io) {
        const steps = Number(options['step'] ?? 1);
        if (steps < 1) throw new UsageError('--step must be at least 1');
        await guardProduction(deps, options['force'], 'roll back migrations');
        const undone = await (await deps.migrator()).rollback(steps);
        if (undone.length === 0) io.out('Nothing to roll back.');
        for (const id of undone) io.out(`Rolled back: ${id}`);
      },
    },
    {
      name: 'migrate:fresh',
      description: 'Drop every table, then run all migrations',
      options: [{ flags: '--seed', description: 'Run the seeders afterwards', type: 'boolean' }, FORCE],
      async run({ options }, io) {
        await guardProduction(deps, options['force'], 'drop every table');
        const result = await (await deps.migrator()).fresh();
        io.out('Dropped all tables.');
        reportRan(io, result.ran, result.batch);
        if (options['seed'] === true) for (const name of await deps.seed()) io.out(`Seeded: ${name}`);
      },
    },
    {
      name: 'db:seed',
      description: 'Fill the database with the seeders of the app',
      options: [FORCE],
      async run({ options }, io) {
        await guardProduction(deps, options['force'], 'seed the database');
        const names = await deps.seed();
        if (names.length === 0) io.out('The app has no seeders.');
        for (const name of names) io.out(`Seeded: ${name}`);
      },
    },
  ];
}
