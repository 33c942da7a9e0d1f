/**
 * A model's columns, as values: `key.integer()`, `column.string().nullable()`, … Each builder
 * carries the TypeScript type of the value it holds (for `RowOf<typeof Model>`) and, at run
 * time, the column kind the spec's type table maps to an SQL type on each engine.
 */

/** Every kind of column; `timestamp` is what `created_at`, `updated_at` and `deleted_at` are. */
export type ColumnKind =
  | 'string'
  | 'integer'
  | 'float'
  | 'boolean'
  | 'enum'
  | 'json'
  | 'time'
  | 'datetime'
  | 'date'
  | 'encrypted'
  | 'ulid'
  | 'uuid'
  | 'timestamp';

export type KeyType = 'integer' | 'ulid' | 'uuid' | 'string';

export type EngineName = 'sqlite' | 'postgres';

/** One row of the spec's type → form input → column table. */
export interface ColumnType {
  /** The form input a field of this kind is edited with (`n/a` when none is). */
  readonly input: string;
  readonly sqlite: string;
  readonly postgres: string;
}

/**
 * The spec's table ('Models and migrations'). Naive times, dates and date-times (`time`,
 * `date`, `datetime`) are text on SQLite in their ISO 8601 spelling, which sorts as time does;
 * the row timestamps are instants (`TIMESTAMPTZ`, the spec's 'timestamp with zone').
 */
export const COLUMN_TYPES: Readonly<Record<ColumnKind, ColumnType>> = Object.freeze({
  string: { input: 'text', sqlite: 'TEXT', postgres: 'TEXT' },
  integer: { input: 'number', sqlite: 'INTEGER', postgres: 'BIGINT' },
  float: { input: 'number step=0.01', sqlite: 'REAL', postgres: 'DOUBLE PRECISION' },
  boolean: { input: 'checkbox', sqlite: 'INTEGER', postgres: 'BOOLEAN' },
  enum: { input: 'select', sqlite: 'TEXT', postgres: 'TEXT' },
  json: { input: 'select multiple', sqlite: 'TEXT', postgres: 'JSONB' },
  time: { input: 'time', sqlite: 'TEXT', postgres: 'TIME' },
  datetime: { input: 'datetime-local', sqlite: 'TEXT', postgres: 'TIMESTAMP' },
  date: { input: 'date', sqlite: 'TEXT', postgres: 'DATE' },
  encrypted: { input: 'n/a', sqlite: 'TEXT', postgres: 'TEXT' },
  ulid: { input: 'n/a', sqlite: 'TEXT', postgres: 'TEXT' },
  uuid: { input: 'n/a', sqlite: 'BLOB', postgres: 'UUID' },
  timestamp: { input: 'n/a', sqlite: 'TEXT', postgres: 'TIMESTAMPTZ' },
});

/** What a column is at run time; `T` (never set) carries its value's type. */
export interface ColumnSpec<T = unknown> {
  readonly kind: ColumnKind;
  readonly allowsNull: boolean;
  /** A value `create` writes when the app gives none (so the field is optional there). */
  readonly defaultValue: { readonly value: unknown } | null;
  /** The allowed values of an `enum` column. */
  readonly values: readonly string[] | null;
  /** What an `encrypted` column holds once opened. */
  readonly inner: ColumnSpec | null;
  readonly __type?: T;
}

/** A column builder. `Optional` says whether `create` may leave the field out. */
export class Column<T, Optional extends boolean = false> implements ColumnSpec<T> {
  declare readonly __type?: T;
  declare readonly __optional?: Optional;

  constructor(
    readonly kind: ColumnKind,
    readonly allowsNull = false,
    readonly defaultValue: { readonly value: unknown } | null = null,
    readonly values: readonly string[] | null = null,
    readonly inner: ColumnSpec | null = null,
  ) {}

  /** The column may hold NULL (the spec's `Option<T>`); `create` may leave it out. */
  nullable(): Column<T | null, true> {
    return new Column<T | null, true>(this.kind, true, this.defaultValue, this.values, this.inner);
  }

  /** `create` writes `value` when the field is left out. */
  default(value: T): Column<T, true> {
    return new Column<T, true>(this.kind, this.allowsNull, { value }, this.values, this.inner);
  }
}

/** A field that is not a column: never written, `fallback()` after a load (the spec's `skip`). */
export class Skipped<T> {
  declare readonly __skipped: T;
  constructor(readonly fallback: () => T) {}
}

/** The model's key column (`id`). */
export class Key<T, Type extends KeyType = KeyType> {
  declare readonly __type?: T;
  constructor(readonly type: Type) {}
}

export const key = {
  /** An auto-incremented integer (the default). */
  integer: (): Key<number, 'integer'> => new Key('integer'),
  /** A ULID made on insert (TEXT). */
  ulid: (): Key<string, 'ulid'> => new Key('ulid'),
  /** A UUID made on insert (BLOB on SQLite, UUID on PostgreSQL). */
  uuid: (): Key<string, 'uuid'> => new Key('uuid'),
  /** A text key the app sets: new rows go in with `create`/`insert`; `save` updates a set key. */
  string: (): Key<string, 'string'> => new Key('string'),
};

export const column = {
  string: (): Column<string> => new Column('string'),
  /** A whole number (BIGINT on PostgreSQL, read back as a number within ±2^53). */
  integer: (): Column<number> => new Column('integer'),
  /** Money in cents: an integer, so sums are exact. */
  money: (): Column<number> => new Column('integer'),
  float: (): Column<number> => new Column('float'),
  boolean: (): Column<boolean> => new Column('boolean'),
  /** One of `values`, stored as that text (the spec's `DbEnum`). */
  enum: <const V extends string>(values: readonly V[]): Column<V> => new Column<V>('enum', false, null, Object.freeze([...values])),
  /** Any JSON value (TEXT on SQLite, JSONB on PostgreSQL). */
  json: <T = unknown>(): Column<T> => new Column<T>('json'),
  /** A wall-clock time `HH:MM` or `HH:MM:SS`. */
  time: (): Column<string> => new Column('time'),
  /** A wall-clock date and time `YYYY-MM-DDTHH:MM[:SS]`, no zone (what `datetime-local` sends). */
  datetime: (): Column<string> => new Column('datetime'),
  /** A calendar date `YYYY-MM-DD`. */
  date: (): Column<string> => new Column('date'),
  /** An instant, as `created_at` is (TIMESTAMPTZ on PostgreSQL). */
  timestamp: (): Column<Date> => new Column('timestamp'),
  ulid: (): Column<string> => new Column('ulid'),
  uuid: (): Column<string> => new Column('uuid'),
  /**
   * A value sealed with AES-256-GCM under a key derived from APP_KEY: plain when read, never
   * usable in a condition or a search. `column.encrypted()` holds text; pass another column
   * (`column.encrypted(column.json<Secrets>())`) to hold its type.
   */
  encrypted: <T = string>(inner?: Column<T>): Column<T> => new Column<T>('encrypted', false, null, null, inner ?? new Column('string')),
  /** Not a column: never written, `fallback()` after a load. */
  skip: <T>(fallback: () => T): Skipped<T> => new Skipped(fallback),
};
