import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { migrationsFor, parseMigrationFileName } from '../../../../domain/migrations/migration-files.js';
import type { Engine, FileNameCheck, Migration, MigrationFile, MigrationSet } from '../../../../domain/migrations/migration-files.js';

/** A file whose SQL text is its own name, so a test can see which file was chosen. */
function file(fileName: string, source = 'app'): MigrationFile {
  return { source, fileName, sql: `-- ${source}/${fileName}` };
}

function sqlOf(fileName: string, source = 'app'): string {
  return `-- ${source}/${fileName}`;
}

function okMigrations(set: MigrationSet): Migration[] {
  if (set.kind !== 'ok') throw new Error(`expected a valid set, got problems: ${set.problems.join(' | ')}`);
  return set.migrations;
}

function problemsOf(set: MigrationSet): string[] {
  if (set.kind !== 'invalid') throw new Error(`expected problems, got migrations ${set.migrations.map((m) => m.id).join(', ')}`);
  return set.problems;
}

describe('parseMigrationFileName', () => {
  it.each<[string, FileNameCheck]>([
    ['20240101120000_create_users.up.sql', { kind: 'migration', id: '20240101120000_create_users', variant: 'any', direction: 'up' }],
    ['20240101120000_create_users.down.sql', { kind: 'migration', id: '20240101120000_create_users', variant: 'any', direction: 'down' }],
    ['20240101120000_create_users.postgres.up.sql', { kind: 'migration', id: '20240101120000_create_users', variant: 'postgres', direction: 'up' }],
    ['20240101120000_create_users.postgres.down.sql', { kind: 'migration', id: '20240101120000_create_users', variant: 'postgres', direction: 'down' }],
    ['20991231235959_add_2fa_codes_v2.up.sql', { kind: 'migration', id: '20991231235959_add_2fa_codes_v2', variant: 'any', direction: 'up' }],
    ['00000000000000_x.up.sql', { kind: 'migration', id: '00000000000000_x', variant: 'any', direction: 'up' }],
  ])('%s is a migration file', (fileName, expected) => {
    expect(parseMigrationFileName(fileName)).toEqual(expected);
  });

  it.each([
    'README.md',
    '.gitkeep',
    'notes.txt',
    '20240101120000_create_users.up.sql.bak',
    '20240101120000_create_users.up.sql~',
  ])('%s is not an SQL file and is ignored', (fileName) => {
    expect(parseMigrationFileName(fileName)).toEqual({ kind: 'not-sql' });
  });

  it.each([
    ['a 12-digit timestamp', '202401011200_create_users.up.sql'],
    ['a 15-digit timestamp', '202401011200001_create_users.up.sql'],
    ['no timestamp', 'create_users.up.sql'],
    ['upper-case letters in the name', '20240101120000_CreateUsers.up.sql'],
    ['a dash in the name', '20240101120000_create-users.up.sql'],
    ['an empty name', '20240101120000_.up.sql'],
    ['no direction', '20240101120000_create_users.sql'],
    ['an unknown direction', '20240101120000_create_users.sideways.sql'],
    ['an unknown engine variant', '20240101120000_create_users.sqlite.up.sql'],
    ['a space in the name', '20240101120000_create users.up.sql'],
  ])('a .sql file with %s is malformed, and the reason names the file', (_what, fileName) => {
    const check = parseMigrationFileName(fileName);
    expect(check.kind).toBe('malformed');
    if (check.kind === 'malformed') expect(check.reason).toContain(`"${fileName}"`);
  });
});

describe('migrationsFor: which SQL each engine runs', () => {
  const id = '20240101120000_create_users';
  const all = [
    file(`${id}.up.sql`),
    file(`${id}.down.sql`),
    file(`${id}.postgres.up.sql`),
    file(`${id}.postgres.down.sql`),
  ];

  it.each<[string, Engine, MigrationFile[], { up: string; down: string | null }]>([
    ['sqlite runs the plain files even when a postgres variant exists', 'sqlite', all, { up: sqlOf(`${id}.up.sql`), down: sqlOf(`${id}.down.sql`) }],
    ['postgres prefers the .postgres. files', 'postgres', all, { up: sqlOf(`${id}.postgres.up.sql`), down: sqlOf(`${id}.postgres.down.sql`) }],
    [
      'postgres falls back to the plain files without a variant',
      'postgres',
      [file(`${id}.up.sql`), file(`${id}.down.sql`)],
      { up: sqlOf(`${id}.up.sql`), down: sqlOf(`${id}.down.sql`) },
    ],
    [
      'postgres takes its own up file and the plain down file',
      'postgres',
      [file(`${id}.up.sql`), file(`${id}.postgres.up.sql`), file(`${id}.down.sql`)],
      { up: sqlOf(`${id}.postgres.up.sql`), down: sqlOf(`${id}.down.sql`) },
    ],
    ['sqlite: no down file means down is null', 'sqlite', [file(`${id}.up.sql`)], { up: sqlOf(`${id}.up.sql`), down: null }],
    [
      'sqlite ignores a postgres-only down file',
      'sqlite',
      [file(`${id}.up.sql`), file(`${id}.postgres.down.sql`)],
      { up: sqlOf(`${id}.up.sql`), down: null },
    ],
  ])('%s', (_what, engine, files, expected) => {
    expect(okMigrations(migrationsFor(engine, files))).toEqual([{ id, source: 'app', ...expected }]);
  });

  it('a migration with only a postgres up file runs on postgres but is a problem for sqlite', () => {
    const files = [file(`${id}.postgres.up.sql`), file(`${id}.postgres.down.sql`)];
    expect(okMigrations(migrationsFor('postgres', files)).map((m) => m.id)).toEqual([id]);
    const problems = problemsOf(migrationsFor('sqlite', files));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain(id);
    expect(problems[0]).toContain('sqlite');
  });

  it('a down file without any up file is a problem for both engines', () => {
    for (const engine of ['sqlite', 'postgres'] as const) {
      const problems = problemsOf(migrationsFor(engine, [file(`${id}.down.sql`)]));
      expect(problems).toEqual([expect.stringContaining(id)]);
    }
  });

  it('keeps the module folder each migration came from', () => {
    const migrations = okMigrations(
      migrationsFor('sqlite', [file('20240101000000_a.up.sql', 'users'), file('20240102000000_b.up.sql', 'billing')]),
    );
    expect(migrations.map((m) => [m.id, m.source])).toEqual([
      ['20240101000000_a', 'users'],
      ['20240102000000_b', 'billing'],
    ]);
  });

  it('ignores files that are not SQL', () => {
    const migrations = okMigrations(
      migrationsFor('sqlite', [file('README.md'), file('20240101000000_a.up.sql'), file('.gitkeep')]),
    );
    expect(migrations.map((m) => m.id)).toEqual(['20240101000000_a']);
  });

  it('an empty folder gives no migrations', () => {
    expect(migrationsFor('postgres', [])).toEqual({ kind: 'ok', migrations: [] });
  });
});

describe('migrationsFor: problems', () => {
  it('reports a badly named .sql file with its folder and file name', () => {
    const problems = problemsOf(migrationsFor('sqlite', [file('20240101000000_a.up.sql'), file('2024_oops.up.sql', 'billing')]));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('billing');
    expect(problems[0]).toContain('"2024_oops.up.sql"');
  });

  it('reports the same id in two folders, naming both folders', () => {
    const problems = problemsOf(
      migrationsFor('sqlite', [file('20240101000000_a.up.sql', 'users'), file('20240101000000_a.up.sql', 'billing')]),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toContain('20240101000000_a');
    expect(problems[0]).toContain('users');
    expect(problems[0]).toContain('billing');
  });

  it('reports every problem at once, not only the first one', () => {
    const problems = problemsOf(
      migrationsFor('sqlite', [
        file('20240101000000_fine.up.sql'),
        file('BadName.up.sql'),
        file('20240102000000_twice.up.sql', 'users'),
        file('20240102000000_twice.up.sql', 'billing'),
        file('20240103000000_pg_only.postgres.up.sql'),
        file('20240104000000_also-bad.up.sql'),
      ]),
    );
    expect(problems).toHaveLength(4);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringContaining('"BadName.up.sql"'),
        expect.stringContaining('"20240104000000_also-bad.up.sql"'),
        expect.stringContaining('20240102000000_twice'),
        expect.stringContaining('20240103000000_pg_only'),
      ]),
    );
  });
});

describe('migrationsFor: order', () => {
  it('returns migrations sorted by id whatever the order of the listing', () => {
    const files = [
      file('20240301000000_c.up.sql'),
      file('20240101000000_a.down.sql'),
      file('20240201000000_b.up.sql'),
      file('20240101000000_a.up.sql'),
    ];
    expect(okMigrations(migrationsFor('sqlite', files)).map((m) => m.id)).toEqual([
      '20240101000000_a',
      '20240201000000_b',
      '20240301000000_c',
    ]);
  });

  const stamp = fc.integer({ min: 10_000_000_000_000, max: 99_999_999_999_999 }).map(String);
  const name = fc.stringMatching(/^[a-z][a-z0-9_]{0,11}$/u);
  const listing = fc
    .uniqueArray(fc.tuple(stamp, name), { maxLength: 12, selector: ([s, n]) => `${s}_${n}` })
    .chain((ids) => {
      const files = ids.flatMap(([s, n]) => [
        file(`${s}_${n}.up.sql`),
        file(`${s}_${n}.down.sql`),
        file(`${s}_${n}.postgres.up.sql`),
      ]);
      return fc.tuple(fc.constant(ids.map(([s, n]) => `${s}_${n}`)), fc.shuffledSubarray(files, { minLength: files.length }));
    });

  it('property: any listing order gives every migration once, in ascending id order', () => {
    fc.assert(
      fc.property(listing, fc.constantFrom<Engine>('sqlite', 'postgres'), ([ids, files], engine) => {
        const got = okMigrations(migrationsFor(engine, files)).map((m) => m.id);
        expect(got).toEqual([...ids].sort());
      }),
    );
  });
});

describe('an upper-case .SQL ending', () => {
  it('is reported as a badly named migration, not skipped', () => {
    expect(parseMigrationFileName('20260101000000_create_things.up.SQL').kind).toBe('malformed');
  });
});
