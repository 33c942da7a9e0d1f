import { Column, Key, Skipped } from './columns.js';
import type { ColumnSpec, KeyType } from './columns.js';
import { MisuseError } from '../shared/errors.js';

/** A plain lower-case SQL identifier: safe in a statement's text and the same on both engines. */
export const IDENTIFIER = /^[a-z_][a-z0-9_]*$/u;

/** What a field of a model definition may be. */
export type Field = Column<unknown, boolean> | Skipped<unknown> | Key<unknown>;
export type Fields = Readonly<Record<string, Field>>;

/** A row as hooks see it: mutable in `saving` (what it sets is written). */
export type HookRow = Record<string, unknown>;

/**
 * The spec's `ModelHooks`. `saving` runs before an INSERT or UPDATE (throwing stops the save,
 * nothing is written), `saved` after it; `deleting` and `deleted` around a delete. They run for
 * `create`, `save`, `saveOnly`, `saveChanges`, `delete` and `forceDelete` of one row; not for
 * `restore`, bulk `update`/`delete`, `insertMany` or `upsert`.
 */
export interface ModelHooks {
  saving?(row: HookRow, creating: boolean): void | Promise<void>;
  saved?(row: HookRow, created: boolean): void | Promise<void>;
  deleting?(row: HookRow): void | Promise<void>;
  deleted?(row: HookRow): void | Promise<void>;
}

/** What a default scope is given: the values of `db.withScope({ … })` (e.g. the signed-in user's team). */
export type ScopeParams = Readonly<Record<string, unknown>>;

/**
 * A default scope: equality conditions every query of the model adds (reads, counts, pages,
 * bulk writes, relations), `null` meaning IS NULL. Returning `null` adds none.
 */
export type DefaultScope = (params: ScopeParams) => Readonly<Record<string, unknown>> | null;

export interface ModelOptions<F extends Fields = Fields> {
  /** A default scope, e.g. `({ teamId }) => ({ team_id: teamId ?? -1 })`; `withoutScope()` lifts it. */
  readonly scope?: DefaultScope;
  /** Runs around single-row writes (see `ModelHooks`). */
  readonly hooks?: ModelHooks;
  /** `created_at` and `updated_at`, set by fw on create and on every save or update (default true). */
  readonly timestamps?: boolean;
  /** `deleted_at` marks deleted rows; reads leave them out unless asked. */
  readonly softDeletes?: boolean;
  /** Full-text columns, earlier ones weigh more. */
  readonly search?: readonly (keyof F & string)[];
  /** `simple` turns stemming off; PostgreSQL also takes its other configurations (default `english`). */
  readonly searchLanguage?: string;
}

/** One model: its table, key, columns and options, checked when it is defined. */
export interface ModelDefinition<F extends Fields = Fields, O = unknown> {
  readonly table: string;
  readonly key: { readonly name: 'id'; readonly type: KeyType };
  /** Every stored column but the key, in definition order, timestamps last. */
  readonly columns: ReadonlyMap<string, ColumnSpec>;
  /** Fields that are not columns, with the value they get after a load. */
  readonly skipped: ReadonlyMap<string, () => unknown>;
  readonly timestamps: boolean;
  readonly softDeletes: boolean;
  readonly search: readonly string[];
  readonly searchLanguage: string;
  readonly hooks: ModelHooks;
  readonly scope: DefaultScope | null;
  /** Carries the static types only; never set. */
  readonly __fields?: F;
  readonly __options?: O;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};
type ValueOf<F> = F extends Column<infer T, boolean> ? T : F extends Skipped<infer T> ? T : F extends Key<infer T> ? T : never;
type KeyValue<F> = F extends { id: Key<infer T> } ? T : number;
type KeyKindOf<F> = F extends { id: Key<unknown, infer K> } ? K : 'integer';
type Stamps<O> = (O extends { timestamps: false } ? unknown : { created_at: Date | null; updated_at: Date | null }) &
  (O extends { softDeletes: true } ? { deleted_at: Date | null } : unknown);
type ColumnNames<F> = { [K in keyof F]: F[K] extends Column<unknown, boolean> ? K : never }[keyof F] & string;
type OptionalNames<F> = { [K in keyof F]: F[K] extends Column<unknown, true> ? K : never }[keyof F] & string;

/** A row of the model as reads return it: `type Product = RowOf<typeof Product>`. */
export type RowOf<M> =
  M extends ModelDefinition<infer F, infer O> ? Simplify<{ id: KeyValue<F> } & { -readonly [K in Exclude<keyof F, 'id'>]: ValueOf<F[K]> } & Stamps<O>> : never;

/**
 * What `create` takes: every column without a default; nullable and defaulted ones may be left
 * out; the key only for a string key (an integer, ULID or UUID key is made on insert).
 */
export type NewRowOf<M> =
  M extends ModelDefinition<infer F, infer _O>
    ? Simplify<
        (KeyKindOf<F> extends 'string' ? { id: string } : { id?: KeyValue<F> }) & {
          [K in Exclude<ColumnNames<F>, OptionalNames<F> | 'id'>]: ValueOf<F[K]>;
        } & { [K in Exclude<OptionalNames<F>, 'id'>]?: ValueOf<F[K]> }
      >
    : never;

/** The column names of a model (the key, its columns and its timestamps), for conditions and orders. */
export type ColumnOf<M> = M extends ModelDefinition<infer F, infer O> ? 'id' | ColumnNames<F> | (keyof Stamps<O> & string) : never;

/** A definition mistake: the message names the model and the field, so start-up stops saying which. */
export class ModelDefinitionError extends MisuseError {
  constructor(message: string) {
    super('data.bad-model-definition', message);
  }
}

const STAMPS = ['created_at', 'updated_at'] as const;

/**
 * A model from one definition: the runtime schema (`columns`) and the static row type
 * (`RowOf<typeof M>`).
 *
 *     const Product = defineModel('products', { id: key.integer(), name: column.string(), price: column.money() }, { softDeletes: true });
 *     type Product = RowOf<typeof Product>;
 *
 * Every name is checked now, so a mistake stops the app before it serves; the database
 * adapter checks the columns against the table when it opens.
 */
export function defineModel<const F extends Fields, const O extends ModelOptions<F> = ModelOptions<F>>(table: string, fields: F, options?: O): ModelDefinition<F, O> {
  const fail = (message: string): never => {
    throw new ModelDefinitionError(`model '${table}': ${message}`);
  };
  if (!IDENTIFIER.test(table)) fail(`the table name ${JSON.stringify(table)} is not a plain identifier (${IDENTIFIER.source})`);
  const timestamps = options?.timestamps ?? true;
  const softDeletes = options?.softDeletes ?? false;
  let keyType: KeyType = 'integer';
  const columns = new Map<string, ColumnSpec>();
  const skipped = new Map<string, () => unknown>();
  for (const [name, field] of Object.entries(fields)) {
    if (!IDENTIFIER.test(name)) fail(`the field name ${JSON.stringify(name)} is not a plain identifier (${IDENTIFIER.source})`);
    if (field instanceof Key) {
      if (name !== 'id') fail(`the key must be the field 'id', not '${name}'`);
      keyType = field.type;
    } else if (name === 'id') {
      fail(`the field 'id' is the key: give it key.integer(), key.ulid(), key.uuid() or key.string()`);
    } else if (field instanceof Skipped) {
      skipped.set(name, field.fallback);
    } else if (field instanceof Column) {
      if ((timestamps && (STAMPS as readonly string[]).includes(name)) || (softDeletes && name === 'deleted_at')) {
        fail(`the column '${name}' is managed by fw (${name === 'deleted_at' ? 'softDeletes' : 'timestamps'}); leave it out of the fields`);
      }
      if (field.kind === 'enum' && (field.values ?? []).length === 0) fail(`the enum column '${name}' needs at least one value`);
      if (field.kind === 'encrypted' && field.inner?.kind === 'encrypted') fail(`the column '${name}' is encrypted twice`);
      columns.set(name, field);
    } else {
      fail(`the field '${name}' is not a column: use key.*, column.* or column.skip()`);
    }
  }
  if (timestamps) for (const name of STAMPS) columns.set(name, new Column('timestamp').nullable());
  if (softDeletes) columns.set('deleted_at', new Column('timestamp').nullable());

  const search = [...(options?.search ?? [])];
  for (const name of search) {
    const spec = columns.get(name);
    if (spec === undefined) fail(`the search column '${name}' is not one of its columns (${[...columns.keys()].join(', ')})`);
    else if (spec.kind === 'encrypted') fail(`the search column '${name}' is encrypted, and encrypted values cannot be searched`);
    else if (spec.kind !== 'string') fail(`the search column '${name}' must be a string column, not ${spec.kind}`);
  }
  const searchLanguage = options?.searchLanguage ?? 'english';
  if (!IDENTIFIER.test(searchLanguage)) fail(`the search language ${JSON.stringify(searchLanguage)} is not a plain identifier`);

  return Object.freeze({
    table,
    key: Object.freeze({ name: 'id' as const, type: keyType }),
    columns,
    skipped,
    timestamps,
    softDeletes,
    search: Object.freeze(search),
    searchLanguage,
    hooks: options?.hooks ?? {},
    scope: options?.scope ?? null,
  });
}

/** Every stored column name of a model, the key first. */
export function columnNames(model: ModelDefinition): string[] {
  return ['id', ...model.columns.keys()];
}

/** Whether `name` is a stored column of the model (the key included). */
export function hasColumn(model: ModelDefinition, name: string): boolean {
  return name === 'id' || model.columns.has(name);
}
