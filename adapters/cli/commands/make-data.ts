import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { KeyType } from '../../../domain/data/columns.js';
import type { CliCommand, CommandIO, OptionValue } from '../command.js';
import { UsageError } from '../command.js';
import { blankMigration, createTableMigration, factorySource, modelSource, modelTestSource, seederSource } from '../generators/data-sources.js';
import { writeNewFiles } from '../generators/generated-files.js';
import type { GeneratedFile } from '../generators/generated-files.js';
import { classNames, migrationName, migrationStamp, moduleFolder } from '../generators/names.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface MakeDataDeps {
  /** The app's folder: files go to `src/models/`, `src/factories/`, `src/seeders/` and `migrations/` under it (or `src/<m>/…`). */
  root(): string;
  /** When a migration is made: its file name starts with this time (UTC). */
  now(): Date;
}

const KEY_TYPES: readonly KeyType[] = ['integer', 'ulid', 'uuid', 'string'];
const MODULE_OPTION = { flags: '--module <module>', description: "Put it in the module's folder: src/<module>/…", type: 'string' } as const;

/**
 * `src/models`, or `src/shop/models` with `--module shop` (as `make:job` does). Migrations of the
 * app go to `migrations/`, the folder the app reads them from; a module's to `src/<m>/migrations`.
 */
function folder(options: Record<string, OptionValue>, kind: string): string {
  const module = options['module'];
  if (typeof module === 'string') return `src/${moduleFolder(module)}/${kind}`;
  return kind === 'migrations' ? kind : `src/${kind}`;
}

/** The model tests' folder: `tests/models`, or `tests/shop/models`. */
function testFolder(options: Record<string, OptionValue>): string {
  const module = options['module'];
  return typeof module === 'string' ? `tests/${moduleFolder(module)}/models` : 'tests/models';
}

async function write(deps: MakeDataDeps, io: CommandIO, files: GeneratedFile[]): Promise<void> {
  for (const path of await writeNewFiles(deps.root(), files)) io.out(`Created ${path}`);
}

/** `make:model`, `make:migration`, `make:factory` and `make:seeder`: files for the app to edit, never over one it has. */
export function makeDataCommands(deps: MakeDataDeps): CliCommand[] {
  return [
    {
      name: 'make:model',
      args: '<name>',
      description: 'Create a model in src/models/<name>.ts (with -m, its create-table migration and a test)',
      options: [
        MODULE_OPTION,
        { flags: '-m, --migration', description: 'Also write the migration that creates its table', type: 'boolean' },
        { flags: '--key <type>', description: 'The key: integer, ulid, uuid or string', type: 'string', default: 'integer' },
      ],
      async run({ args, options }, io) {
        const names = classNames(args[0] ?? '', 'model');
        const keyType = String(options['key']) as KeyType;
        if (!KEY_TYPES.includes(keyType)) throw new UsageError(`--key must be one of ${KEY_TYPES.join(', ')}, not ${JSON.stringify(options['key'])}`);
        const files: GeneratedFile[] = [{ path: `${folder(options, 'models')}/${names.kebab}.ts`, text: modelSource(names, keyType) }];
        if (options['migration'] === true) {
          files.push(...createTableMigration(folder(options, 'migrations'), migrationStamp(deps.now()), names.table, keyType));
          const module = typeof options['module'] === 'string' ? options['module'] : null;
          files.push({ path: `${testFolder(options)}/${names.kebab}.test.ts`, text: modelTestSource(names, keyType, module) });
        }
        await write(deps, io, files);
      },
    },
    {
      name: 'make:migration',
      args: '<name>',
      description: 'Create migrations/<timestamp>_<name>.up.sql and .down.sql (create_<table>_table: the table, both engines)',
      options: [MODULE_OPTION, { flags: '--postgres', description: 'Also write the .postgres.up.sql and .postgres.down.sql variants', type: 'boolean' }],
      async run({ args, options }, io) {
        const name = migrationName(args[0] ?? '');
        const stamp = migrationStamp(deps.now());
        const into = folder(options, 'migrations');
        const table = /^create_([a-z][a-z0-9_]*)_table$/u.exec(name)?.[1];
        await write(deps, io, table === undefined ? blankMigration(into, stamp, name, options['postgres'] === true) : createTableMigration(into, stamp, table, 'integer'));
      },
    },
    {
      name: 'make:factory',
      args: '<model>',
      description: 'Create src/factories/<model>-factory.ts for the model in src/models/<model>.ts',
      options: [MODULE_OPTION],
      async run({ args, options }, io) {
        const names = classNames((args[0] ?? '').replace(/Factory$/u, ''), 'model');
        const model = `${folder(options, 'models')}/${names.kebab}.ts`;
        if (!existsSync(join(deps.root(), model))) throw new FrameworkError('cli.model-missing', `${model} does not exist: run make:model ${names.pascal} first; nothing was written`);
        await write(deps, io, [{ path: `${folder(options, 'factories')}/${names.kebab}-factory.ts`, text: factorySource(names, `../models/${names.kebab}.js`) }]);
      },
    },
    {
      name: 'make:seeder',
      args: '<name>',
      description: 'Create src/seeders/<name>-seeder.ts (using src/factories/<name>-factory.ts when it exists)',
      options: [MODULE_OPTION],
      async run({ args, options }, io) {
        const names = classNames((args[0] ?? '').replace(/Seeder$/u, ''), 'seeder');
        const factory = `${folder(options, 'factories')}/${names.kebab}-factory.ts`;
        const uses = existsSync(join(deps.root(), factory)) ? { name: `${names.pascal}Factory`, from: `../factories/${names.kebab}-factory.js` } : null;
        await write(deps, io, [{ path: `${folder(options, 'seeders')}/${names.kebab}-seeder.ts`, text: seederSource(`${names.pascal}Seeder`, uses) }]);
      },
    },
  ];
}
