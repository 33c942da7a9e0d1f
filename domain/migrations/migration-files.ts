/**
 * Migrations are SQL files named `<timestamp>_<name>.up.sql` (and `.down.sql` to undo them).
 * A file `<timestamp>_<name>.postgres.up.sql` is the PostgreSQL variant (identity columns,
 * `timestamptz`); SQLite always runs the plain file. These are the rules that turn a folder
 * listing into the ordered list of migrations for one engine, without touching the disk.
 */
export type Engine = 'sqlite' | 'postgres';
export type Direction = 'up' | 'down';

export type FileNameCheck =
  | { kind: 'migration'; id: string; variant: Engine | 'any'; direction: Direction }
  | { kind: 'not-sql' }
  | { kind: 'malformed'; reason: string };

const PATTERN = /^(\d{14})_([a-z0-9_]+?)(?:\.(postgres))?\.(up|down)\.sql$/u;

export function parseMigrationFileName(fileName: string): FileNameCheck {
  // `.SQL` counts as SQL too, so a file with an upper-case ending is reported, not skipped.
  if (!fileName.toLowerCase().endsWith('.sql')) return { kind: 'not-sql' };
  const match = PATTERN.exec(fileName);
  if (match === null) {
    return {
      kind: 'malformed',
      reason: `"${fileName}" is not named <14-digit timestamp>_<snake_case_name>[.postgres].(up|down).sql`,
    };
  }
  const [, stamp, name, variant, direction] = match as unknown as [string, string, string, string | undefined, Direction];
  return { kind: 'migration', id: `${stamp}_${name}`, variant: variant === 'postgres' ? 'postgres' : 'any', direction };
}

/** A file as found on disk: where it came from (a module's folder) and its text. */
export interface MigrationFile {
  source: string;
  fileName: string;
  sql: string;
}

export interface Migration {
  id: string;
  source: string;
  up: string;
  down: string | null;
}

export type MigrationSet = { kind: 'ok'; migrations: Migration[] } | { kind: 'invalid'; problems: string[] };

/**
 * Picks, for each migration id, the SQL that `engine` runs. Problems (a badly named `.sql`
 * file, the same id in two folders, a down file without an up file) are all reported at
 * once so a developer fixes them in one go; nothing runs while any exists.
 */
export function migrationsFor(engine: Engine, files: readonly MigrationFile[]): MigrationSet {
  const problems: string[] = [];
  const byId = new Map<string, { source: string; texts: Map<string, string> }>();
  for (const file of files) {
    const parsed = parseMigrationFileName(file.fileName);
    if (parsed.kind === 'not-sql') continue;
    if (parsed.kind === 'malformed') {
      problems.push(`${file.source}: ${parsed.reason}`);
      continue;
    }
    let entry = byId.get(parsed.id);
    if (entry === undefined) {
      entry = { source: file.source, texts: new Map() };
      byId.set(parsed.id, entry);
    } else if (entry.source !== file.source) {
      problems.push(`migration ${parsed.id} exists in both ${entry.source} and ${file.source}`);
      continue;
    }
    entry.texts.set(`${parsed.variant}.${parsed.direction}`, file.sql);
  }

  const migrations: Migration[] = [];
  for (const [id, { source, texts }] of byId) {
    const pick = (direction: Direction): string | undefined =>
      (engine === 'postgres' ? texts.get(`postgres.${direction}`) : undefined) ?? texts.get(`any.${direction}`);
    const up = pick('up');
    if (up === undefined) {
      problems.push(`migration ${id} in ${source} has no up file for ${engine}`);
      continue;
    }
    migrations.push({ id, source, up, down: pick('down') ?? null });
  }
  if (problems.length > 0) return { kind: 'invalid', problems };
  migrations.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  return { kind: 'ok', migrations };
}
