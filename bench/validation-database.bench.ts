/**
 * A form's database rules, batched against one query per value: a sign-up-like form with
 * three `unique` fields on `users` and a list of 20 tags checked with `exists`, on SQLite and
 * PostgreSQL (when reachable). The baseline is the engine as it was before batching: the
 * same rules asked value by value (all at once, in parallel), made by a `RecordLookup` whose
 * `existsEach` calls `exists` for each value. Prints forms per second and the ratio.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Bench } from 'tinybench';
import { object } from 'superstruct';
import { list, text } from '../adapters/http/validation/fields.js';
import { formSchema } from '../adapters/http/validation/form-schema.js';
import { validate } from '../adapters/http/validation/validate.js';
import { JsonTranslator } from '../adapters/lang/json-translator.js';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { SqlRecordLookup } from '../adapters/persistence/mikro-orm/sql-record-lookup.js';
import { validatorFormatChecks } from '../adapters/validation/validator-format-checks.js';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import type { FormContext } from '../application/validation/form-context.js';
import { Secret } from '../domain/shared/secret.js';
import type { RecordLookup } from '../ports/record-lookup.js';
import { BenchDatabase } from './support/bench-database.js';

const form = formSchema({
  struct: object({ email: text(), username: text(), phone: text(), tags: list() }),
  rules(v) {
    v.field('email').required().unique('accounts', 'email');
    v.field('username').required().unique('accounts', 'username');
    v.field('phone').required().unique('accounts', 'phone');
    v.each('tags', (tag) => tag.exists('tags', 'slug'));
  },
});
const input = { email: 'new@example.com', username: 'newcomer', phone: '4930999', tags: Array.from({ length: 20 }, (_, n) => `tag-${n * 7}`) };

const lang = new JsonTranslator([`${FRAMEWORK_TEMPLATES}/lang`], 'en').lang('en');
const contextWith = (records: RecordLookup): FormContext => ({ user: null, records, passwords: { verify: () => Promise.resolve(false) }, formats: validatorFormatChecks, lang });

/** The lookups one by one: what the engine asked before batching. */
function oneByOne(lookup: RecordLookup): RecordLookup {
  return {
    exists: (query) => lookup.exists(query),
    existsEach: ({ table, probes }) => Promise.all(probes.map((probe) => lookup.exists({ table, ...probe }))),
  };
}

async function measure(engine: string, database: Database): Promise<void> {
  await database.raw.session(async (sql) => {
    await sql.exec('CREATE TABLE accounts (id INTEGER PRIMARY KEY, email TEXT UNIQUE, username TEXT UNIQUE, phone TEXT UNIQUE); CREATE TABLE tags (id INTEGER PRIMARY KEY, slug TEXT UNIQUE);');
    for (let n = 0; n < 500; n++) await sql.query('INSERT INTO accounts (id, email, username, phone) VALUES (?, ?, ?, ?)', [n + 1, `user${n}@example.com`, `user${n}`, `49${n}`]);
    for (let n = 0; n < 200; n++) await sql.query('INSERT INTO tags (id, slug) VALUES (?, ?)', [n + 1, `tag-${n}`]);
  });
  const batched = contextWith(new SqlRecordLookup(database.raw));
  const single = contextWith(oneByOne(new SqlRecordLookup(database.raw)));
  for (const context of [batched, single]) {
    const result = await validate(form, input, context);
    if (result.kind !== 'valid') throw new Error(`the bench form was refused: ${JSON.stringify(result)}`);
  }
  const bench = new Bench({ time: 1500, warmup: true });
  bench.add('one query per value (before)', () => validate(form, input, single)).add('batched (one per rule and table)', () => validate(form, input, batched));
  await bench.run();
  const [before, after] = bench.tasks.map((task) => (task.result && 'latency' in task.result ? task.result.latency.mean : Number.NaN));
  console.log(`${engine}: 3 unique + 20 exists in a list`);
  for (const task of bench.tasks) {
    const mean = task.result && 'latency' in task.result ? task.result.latency.mean : Number.NaN;
    console.log(`  ${task.name.padEnd(36)} ${(1000 / mean).toFixed(0).padStart(7)} forms/s  ${(mean * 1000).toFixed(0).padStart(6)} µs`);
  }
  console.log(`  batched is ×${((before ?? Number.NaN) / (after ?? Number.NaN)).toFixed(2)} the speed`);
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-'));
const sqlite = await openDatabase({ engine: 'sqlite', path: join(dir, 'bench.sqlite') });
try {
  await measure('SQLite', sqlite);
} finally {
  await sqlite.close();
  rmSync(dir, { recursive: true, force: true });
}

const pgDatabase = new BenchDatabase();
const made = await pgDatabase.create();
if ('problem' in made) console.log(`PostgreSQL: skipped (${made.problem})`);
else {
  const postgres = await openDatabase({ engine: 'postgres', url: new Secret(made.url) });
  try {
    await measure('PostgreSQL', postgres);
  } finally {
    await postgres.close();
    await pgDatabase.drop();
  }
}
