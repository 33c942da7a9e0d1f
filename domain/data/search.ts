import { parseMigrationFileName } from '../migrations/migration-files.js';
import type { EngineName } from './columns.js';
import type { ModelDefinition } from './model.js';
import { MisuseError } from '../shared/errors.js';

/** Words a search uses at most, and the longest word kept: a 10 kB paste stays a small query. */
const MAX_WORDS = 16;
const MAX_WORD = 64;
/** Weights by position: the first search column weighs most (PostgreSQL has four classes). */
const CLASSES = ['A', 'B', 'C', 'D'] as const;

/**
 * The words of a visitor's search text: letters and digits only (Unicode-aware), lower-cased,
 * at most 16 of up to 64 characters. Quotes, operators, `-`, `*`, NUL and emoji are separators,
 * so nothing a visitor types can reach the engines' query syntax.
 */
export function searchWords(text: string): string[] {
  const words = text.normalize('NFKC').toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
  return [...new Set(words.map((word) => word.slice(0, MAX_WORD)))].slice(0, MAX_WORDS);
}

/** SQLite FTS5: every word, each as a prefix (`"mug"* "blue"*` is an AND). */
export function fts5Query(words: readonly string[]): string {
  return words.map((word) => `"${word}"*`).join(' ');
}

/** PostgreSQL `to_tsquery`: every word, each as a prefix (`mug:* & blue:*`). */
export function tsQuery(words: readonly string[]): string {
  return words.map((word) => `${word}:*`).join(' & ');
}

/** One class of search columns and what holding every word in it adds to a row's relevance. */
export interface RelevanceClass {
  /** PostgreSQL's weight label of these columns in the search vector. */
  readonly label: 'A' | 'B' | 'C' | 'D';
  readonly columns: readonly string[];
  readonly weight: number;
}

/**
 * How relevance is counted, the same on both engines: each word of the search that a class of
 * search columns holds (as a prefix, in word forms) adds the class's weight, and matching at all
 * adds 1. The first three search columns are a class each, the rest one class together
 * (PostgreSQL has four weight labels); earlier classes weigh more (2^(classes - position): with
 * `title, body`, 4 and 2). Scores are small integers, so rows tie and the newest come first:
 * the two engines' top results then agree, where bm25 and ts_rank each ranked their own way
 * (top-10 overlap 0.36).
 */
export function relevanceClasses(model: ModelDefinition): RelevanceClass[] {
  const classes: Array<{ label: 'A' | 'B' | 'C' | 'D'; columns: string[] }> = [];
  model.search.forEach((column, position) => {
    const label = CLASSES[Math.min(position, 3)] ?? 'D';
    const last = classes[classes.length - 1];
    if (last !== undefined && last.label === label) last.columns.push(column);
    else classes.push({ label, columns: [column] });
  });
  return classes.map((each, position) => ({ ...each, weight: 2 ** (classes.length - position) }));
}

/**
 * Whether, in a search filtered by its ranked words (so each of them is in some class), every
 * row holding one of `ranked` words in the first class scores above every row holding none
 * there: at least the first class's weight plus the lightest weight for each other word,
 * against at most the other classes' weights for every word. True for one or two classes
 * whatever the words; with more classes, only for few words.
 */
export function firstClassDecides(classes: readonly RelevanceClass[], ranked: number): boolean {
  const [first, ...others] = classes;
  if (first === undefined || others.length === 0 || ranked === 0) return false;
  const lightest = Math.min(...classes.map((each) => each.weight));
  const rest = others.reduce((sum, each) => sum + each.weight, 0);
  return first.weight + (ranked - 1) * lightest > ranked * rest;
}

/**
 * Whether, with two classes, in a search filtered by its ranked words, the rows holding every
 * ranked word in the first class and at least one in the second outrank every other row, and
 * among them those holding every ranked word in the second class come first, all of one score
 * (so that order, then the query's next one, ranks them exactly). Each word adds the first
 * class's weight or not and the second's or not, and is in at least one: the tier scores at
 * least `ranked` first weights plus one second weight, every other row at most `ranked - 1` first
 * weights plus `ranked` second ones (or exactly `ranked` first weights). True for one or two
 * ranked words: a two-word search then reads about a hundredth of the rows it would rank.
 */
export function everyWordInFirstClassDecides(classes: readonly RelevanceClass[], ranked: number): boolean {
  const [first, second] = classes;
  if (first === undefined || second === undefined || classes.length !== 2 || ranked < 1 || ranked > 2) return false;
  return ranked * first.weight + second.weight > (ranked - 1) * first.weight + ranked * second.weight;
}

/** SQLite FTS5: every word, each as a prefix, inside the given columns only (`{title} : ("mug"* "blue"*)`). */
export function fts5ColumnQuery(columns: readonly string[], words: readonly string[]): string {
  return `{${columns.join(' ')}} : (${fts5Query(words)})`;
}

/** SQLite FTS5: any of the words, each as a prefix, inside the given columns only (`{title} : ("mug"* OR "blue"*)`). */
export function fts5AnyColumnQuery(columns: readonly string[], words: readonly string[]): string {
  return `{${columns.join(' ')}} : (${words.map((word) => `"${word}"*`).join(' OR ')})`;
}

/** SQLite FTS5: rows matching every one of these queries (`(q1) AND (q2)`), so FTS5 intersects them itself. */
export function fts5AllOf(queries: readonly string[]): string {
  return queries.map((query) => `(${query})`).join(' AND ');
}

/** PostgreSQL `to_tsquery`: every word, each as a prefix, with this weight label (`mug:*A & blue:*A`). */
export function tsClassQuery(words: readonly string[], label: RelevanceClass['label']): string {
  return words.map((word) => `${word}:*${label}`).join(' & ');
}

/** PostgreSQL `to_tsquery`: any of the words, each as a prefix, with this weight label (`mug:*B | blue:*B`). */
export function tsAnyClassQuery(words: readonly string[], label: RelevanceClass['label']): string {
  return words.map((word) => `${word}:*${label}`).join(' | ');
}

/** The FTS5 table of a SQLite model, and the tsvector column of a PostgreSQL one. */
export function searchIndexName(model: ModelDefinition): string {
  return `${model.table}_search`;
}

/**
 * PostgreSQL: the first search column's own text-search vector. Its GIN index (made by
 * `searchMigrationSql` for a model with two search columns) finds the rows holding words in that
 * column, which the search column's GIN index cannot: it ignores weight labels. Written the
 * same in the index and in queries, so the planner matches them.
 */
export function firstColumnVector(model: ModelDefinition): string {
  return `to_tsvector('${model.searchLanguage}', coalesce("${model.search[0] ?? ''}", ''))`;
}

/** PostgreSQL: the name of `firstColumnVector`'s GIN index. */
export function firstColumnIndexName(model: ModelDefinition): string {
  return `${searchIndexName(model)}_first_gin`;
}

/**
 * The migration that makes a model searchable, for each engine: SQLite an external-content
 * FTS5 table kept current by triggers (so bulk updates and raw SQL are indexed too), PostgreSQL
 * a generated `tsvector` column with a GIN index (and, with two search columns, a GIN index on the
 * first column's own vector: `firstColumnVector`); on both, for a model with timestamps, an index
 * on `(created_at, id)`, the `latest()` order of search results and their ties (a search
 * migration that ran before it was added lacks it: add it in a migration of the app's own). Run
 * it after the table's own migration.
 */
/** PostgreSQL's longest identifier, in bytes (NAMEDATALEN - 1). */
const POSTGRES_NAME_BYTES = 63;

export function searchMigrationSql(model: ModelDefinition, engine: EngineName): { up: string; down: string } {
  const columns = model.search;
  if (columns.length === 0) throw new MisuseError('data.no-search-columns', `model '${model.table}' has no search columns`);
  const index = searchIndexName(model);
  // PostgreSQL cuts names at 63 bytes: past that, two of the indexes below would get one name and the
  // migration would fail half-way (or skip one). Table names are ASCII identifiers, so length is bytes.
  const longest = `${index}${columns.length === 2 ? '_first_gin' : model.timestamps ? '_latest' : '_gin'}`;
  if (engine === 'postgres' && longest.length > POSTGRES_NAME_BYTES) throw new MisuseError('data.search-name-too-long', `model '${model.table}': the search index name ${longest} is longer than PostgreSQL's ${POSTGRES_NAME_BYTES} bytes; use a shorter table name`);
  const t = model.table;
  // search(q) puts ties newest first, and whereSearch(q).latest() pages newest first: with this index
  // both walk the order and stop after the page instead of sorting every match.
  const latest = model.timestamps ? { up: `CREATE INDEX IF NOT EXISTS "${index}_latest" ON "${t}" ("created_at", "id");\n`, down: `DROP INDEX IF EXISTS "${index}_latest";\n` } : { up: '', down: '' };
  if (engine === 'sqlite') {
    const list = columns.map((column) => `"${column}"`).join(', ');
    const newValues = columns.map((column) => `new."${column}"`).join(', ');
    const oldValues = columns.map((column) => `old."${column}"`).join(', ');
    const tokenizer = model.searchLanguage === 'simple' ? 'unicode61 remove_diacritics 2' : 'porter unicode61 remove_diacritics 2';
    return {
      up: `CREATE VIRTUAL TABLE "${index}" USING fts5(${list}, content='${t}', content_rowid='id', tokenize='${tokenizer}');
CREATE TRIGGER "${index}_ai" AFTER INSERT ON "${t}" BEGIN
  INSERT INTO "${index}"(rowid, ${list}) VALUES (new."id", ${newValues});
END;
CREATE TRIGGER "${index}_ad" AFTER DELETE ON "${t}" BEGIN
  INSERT INTO "${index}"("${index}", rowid, ${list}) VALUES ('delete', old."id", ${oldValues});
END;
CREATE TRIGGER "${index}_au" AFTER UPDATE ON "${t}" BEGIN
  INSERT INTO "${index}"("${index}", rowid, ${list}) VALUES ('delete', old."id", ${oldValues});
  INSERT INTO "${index}"(rowid, ${list}) VALUES (new."id", ${newValues});
END;
INSERT INTO "${index}"("${index}") VALUES ('rebuild');
${latest.up}`,
      down: `${latest.down}DROP TRIGGER IF EXISTS "${index}_au";
DROP TRIGGER IF EXISTS "${index}_ad";
DROP TRIGGER IF EXISTS "${index}_ai";
DROP TABLE IF EXISTS "${index}";
`,
    };
  }
  const vector = columns
    .map((column, position) => `setweight(to_tsvector('${model.searchLanguage}', coalesce("${column}", '')), '${CLASSES[Math.min(position, 3)] ?? 'D'}')`)
    .join(' || ');
  // Two search columns: ranked two-word searches first read the rows holding both words in the first (model-query's tiers).
  const first = columns.length === 2 ? { up: `CREATE INDEX IF NOT EXISTS "${firstColumnIndexName(model)}" ON "${t}" USING GIN (${firstColumnVector(model)});\n`, down: `DROP INDEX IF EXISTS "${firstColumnIndexName(model)}";\n` } : { up: '', down: '' };
  return {
    up: `ALTER TABLE "${t}" ADD COLUMN "${index}" tsvector GENERATED ALWAYS AS (${vector}) STORED;
CREATE INDEX "${index}_gin" ON "${t}" USING GIN ("${index}");
${first.up}${latest.up}`,
    down: `${latest.down}${first.down}DROP INDEX IF EXISTS "${index}_gin";
ALTER TABLE IF EXISTS "${t}" DROP COLUMN IF EXISTS "${index}";
`,
  };
}

/** A migration made in code: its files as a folder would hold them, checked by the same rules. */
export interface GeneratedMigration {
  readonly id: string;
  readonly files: readonly { readonly fileName: string; readonly sql: string }[];
}

/**
 * The spec's search migration helper: `searchMigration(Post, '20261125100001_posts_search')`,
 * registered with `app.migrations(...)` (or a module's `generatedMigrations`) after the table's
 * own migration, gives both engines' SQL of `searchMigrationSql` without copying it into files.
 */
export function searchMigration(model: ModelDefinition, name: string): GeneratedMigration {
  const parsed = parseMigrationFileName(`${name}.up.sql`);
  if (parsed.kind !== 'migration' || parsed.variant !== 'any') {
    throw new MisuseError('data.bad-migration-name', `The search migration name ${JSON.stringify(name)} is not <14-digit timestamp>_<snake_case_name>`);
  }
  const sqlite = searchMigrationSql(model, 'sqlite');
  const postgres = searchMigrationSql(model, 'postgres');
  return Object.freeze({
    id: parsed.id,
    files: Object.freeze([
      { fileName: `${name}.up.sql`, sql: sqlite.up },
      { fileName: `${name}.down.sql`, sql: sqlite.down },
      { fileName: `${name}.postgres.up.sql`, sql: postgres.up },
      { fileName: `${name}.postgres.down.sql`, sql: postgres.down },
    ]),
  });
}
