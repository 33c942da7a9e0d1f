import { key } from '../../../domain/data/columns.js';
import type { KeyType } from '../../../domain/data/columns.js';
import { defineModel } from '../../../domain/data/model.js';
import { createTableSql } from '../../../domain/data/table-sql.js';
import type { GeneratedFile } from './generated-files.js';
import type { ClassNames } from './names.js';

/** The source texts `make:model`, `make:migration`, `make:factory` and `make:seeder` write. */

export function modelSource(names: ClassNames, keyType: KeyType): string {
  return `import { column, defineModel, key } from 'fw';
import type { RowOf } from 'fw';

/**
 * A row of \`${names.table}\`. Add its columns here and in its migration (\`createTableSql(${names.pascal}, engine)\`
 * prints the CREATE TABLE); created_at and updated_at are managed by fw.
 */
export const ${names.pascal} = defineModel('${names.table}', {
  id: key.${keyType}(),
  // name: column.string(),
  // price: column.money(),
});
export type ${names.pascal} = RowOf<typeof ${names.pascal}>;
`;
}

/** `<stamp>_create_<table>_table` (.up.sql, .postgres.up.sql, .down.sql): the table with its key and timestamps. */
export function createTableMigration(folder: string, stamp: string, table: string, keyType: KeyType): GeneratedFile[] {
  const model = defineModel(table, { id: key[keyType]() });
  const base = `${folder}/${stamp}_create_${table}_table`;
  return [
    { path: `${base}.up.sql`, text: createTableSql(model, 'sqlite') },
    { path: `${base}.postgres.up.sql`, text: createTableSql(model, 'postgres') },
    { path: `${base}.down.sql`, text: `DROP TABLE "${table}";\n` },
  ];
}

/** A migration to fill in: the plain files run on both engines; `postgres` adds PostgreSQL's own. */
export function blankMigration(folder: string, stamp: string, name: string, postgres: boolean): GeneratedFile[] {
  const base = `${folder}/${stamp}_${name}`;
  const files: GeneratedFile[] = [
    { path: `${base}.up.sql`, text: `-- ${name}: the change, in SQL both SQLite and PostgreSQL run${postgres ? ' (SQLite only: the .postgres.up.sql file is for PostgreSQL)' : ''}.\n` },
    { path: `${base}.down.sql`, text: `-- ${name}: what undoes it (migrate:rollback runs this).\n` },
  ];
  if (postgres) {
    files.push(
      { path: `${base}.postgres.up.sql`, text: `-- ${name}: the change, in PostgreSQL's SQL.\n` },
      { path: `${base}.postgres.down.sql`, text: `-- ${name}: what undoes it on PostgreSQL.\n` },
    );
  }
  return files;
}

export function factorySource(names: ClassNames, modelImport: string): string {
  return `import { factory } from 'fw';
import { ${names.pascal} } from '${modelImport}';

/**
 * \`${names.pascal}Factory.count(10).create(db)\` in a test or a seeder; \`.make()\` for values only.
 * The definition gives every column without a default; \`seq\` is 1, 2, 3… (unique values).
 */
export const ${names.pascal}Factory = factory(
  ${names.pascal},
  (seq) => ({
    // name: \`${names.pascal} \${seq}\`,
  }),
  { states: {} },
);
`;
}

export function seederSource(seeder: string, factory: { name: string; from: string } | null): string {
  const body =
    factory === null
      ? `    const db = services.get(TOKENS.db);
    // e.g. await ProductFactory.count(10).create(db);
    void db;`
      : `    await ${factory.name}.count(10).create(services.get(TOKENS.db));`;
  return `import { TOKENS } from 'fw';
import type { Seeder } from 'fw';
${factory === null ? '' : `import { ${factory.name} } from '${factory.from}';\n`}
/** Register it with \`app.module({ name: 'app', seeders: [${seeder}] })\`; \`npx fwx db:seed\` runs it. */
export const ${seeder}: Seeder = {
  name: '${seeder}',
  async run(services) {
${body}
  },
};
`;
}

/**
 * The model's test (written with `make:model -m`): the app's migrations run on a SQLite file,
 * the model matches its table, and a row saved reads back the same. A module's test registers
 * the module's migrations folder, as the app would.
 */
export function modelTestSource(names: ClassNames, keyType: KeyType, module: string | null): string {
  const up = module === null ? '../../' : '../../../';
  const build = module === null ? 'App.create(options)' : `App.create(options).module({ name: '${module}', migrations: fileURLToPath(new URL('${up}src/${module}/migrations', import.meta.url)) })`;
  const model = module === null ? `${up}src/models/${names.kebab}.js` : `${up}src/${module}/models/${names.kebab}.js`;
  const values = keyType === 'string' ? `{ id: 'first' }` : '{}';
  return `import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { App, TOKENS, TestApp } from 'fw';
import { ${names.pascal} } from '${model}';

const folder = mkdtempSync(join(tmpdir(), '${names.kebab}-model-'));
const app = TestApp.create({
  root: fileURLToPath(new URL('${up}', import.meta.url)),
  environment: { DATABASE_URL: \`sqlite:\${join(folder, 'db.sqlite')}\` },
  build: (options) => ${build},
});

beforeAll(async () => {
  expect((await app.call('migrate')).code).toBe(0);
});

afterAll(async () => {
  await app.close();
  rmSync(folder, { recursive: true, force: true });
});

it('matches the ${names.table} table and reads back a saved row', async () => {
  const db = (await app.app.services()).get(TOKENS.db);
  await db.verify([${names.pascal}]);
  const saved = await db.create(${names.pascal}, ${values}); // give the values of its columns here
  expect(await db.query(${names.pascal}).find(saved.id)).toEqual(saved);
});
`;
}
