import { Column } from './columns.js';
import type { ColumnSpec, KeyType } from './columns.js';
import { IDENTIFIER, ModelDefinitionError } from './model.js';
import type { ModelDefinition, RowOf } from './model.js';

/** The extra columns a pivot table may carry (`role`, `position`, …): column builders only. */
export type PivotFields = Readonly<Record<string, Column<unknown, boolean>>>;

export interface PivotOptions<F extends PivotFields> {
  /** Values stored on each link, written by `attach`/`attachWith`/`sync`, read by `loadWithPivot`. */
  readonly columns?: F;
  /** `created_at` and `updated_at` on the pivot table, set by fw (default false). */
  readonly timestamps?: boolean;
}

/**
 * A many-to-many link through a pivot table (the spec's `Pivot::new(table, left_key,
 * right_key)`): rows of `left` linked to rows of `right` by `(leftKey, rightKey)` pairs, which
 * the pivot table must hold under a unique index (or its primary key).
 */
export interface PivotDefinition<L extends ModelDefinition = ModelDefinition, R extends ModelDefinition = ModelDefinition, F extends PivotFields = PivotFields> {
  readonly table: string;
  readonly left: L;
  readonly leftKey: string;
  readonly right: R;
  readonly rightKey: string;
  /** The extra columns, then the timestamps. */
  readonly columns: ReadonlyMap<string, ColumnSpec>;
  readonly timestamps: boolean;
  /**
   * The pivot table as a model without a key of its own, for the value codec: its columns are
   * both keys (typed like the models' keys), the extra columns and the timestamps.
   */
  readonly tableModel: ModelDefinition;
  readonly __fields?: F;
}

type ValueOf<C> = C extends Column<infer T, boolean> ? T : never;
type OptionalNames<F> = { [K in keyof F]: F[K] extends Column<unknown, true> ? K : never }[keyof F];

/** The values `attach` takes for one link: columns without a default are required. */
export type PivotValuesOf<P> =
  P extends PivotDefinition<ModelDefinition, ModelDefinition, infer F>
    ? { [K in Exclude<keyof F, OptionalNames<F>>]: ValueOf<F[K]> } & { [K in OptionalNames<F>]?: ValueOf<F[K]> }
    : never;

/** A link as `loadWithPivot` gives it: both keys, the extra columns (and timestamps, when kept). */
export type PivotRowOf<P> =
  P extends PivotDefinition<ModelDefinition, ModelDefinition, infer F> ? { [K in keyof F]: ValueOf<F[K]> } & Readonly<Record<string, unknown>> : never;

export type LeftIdOf<P> = P extends PivotDefinition<infer L, ModelDefinition, PivotFields> ? RowOf<L>['id'] : never;
export type RightIdOf<P> = P extends PivotDefinition<ModelDefinition, infer R, PivotFields> ? RowOf<R>['id'] : never;

/** The column kind that holds a key of this type in another table. */
export function keyColumn(type: KeyType): ColumnSpec {
  return new Column(type === 'string' ? 'string' : type);
}

/**
 * A pivot between two models, checked now (names, and no extra column shadowing a key):
 *
 *     const PostTags = definePivot('post_tag', Post, 'post_id', Tag, 'tag_id', { columns: { role: column.string().default('topic') } });
 *     await db.pivot(PostTags).sync(post.id, [tagA.id, tagB.id]);
 *
 * The other direction is another pivot over the same table: `definePivot('post_tag', Tag, 'tag_id', Post, 'post_id')`.
 */
export function definePivot<L extends ModelDefinition, R extends ModelDefinition, const F extends PivotFields = Record<never, never>>(
  table: string,
  left: L,
  leftKey: string,
  right: R,
  rightKey: string,
  options?: PivotOptions<F>,
): PivotDefinition<L, R, F> {
  const fail = (message: string): never => {
    throw new ModelDefinitionError(`pivot '${table}': ${message}`);
  };
  for (const name of [table, leftKey, rightKey]) if (!IDENTIFIER.test(name)) fail(`${JSON.stringify(name)} is not a plain identifier (${IDENTIFIER.source})`);
  if (leftKey === rightKey) fail(`the two key columns are both '${leftKey}'`);
  const timestamps = options?.timestamps ?? false;
  const columns = new Map<string, ColumnSpec>();
  for (const [name, spec] of Object.entries(options?.columns ?? {})) {
    if (!IDENTIFIER.test(name)) fail(`the column name ${JSON.stringify(name)} is not a plain identifier`);
    if (name === leftKey || name === rightKey) fail(`the column '${name}' is one of the keys`);
    if (timestamps && (name === 'created_at' || name === 'updated_at')) fail(`the column '${name}' is managed by fw (timestamps)`);
    if (!(spec instanceof Column)) fail(`the column '${name}' is not a column.* builder`);
    columns.set(name, spec);
  }
  if (timestamps) for (const name of ['created_at', 'updated_at']) columns.set(name, new Column('timestamp').nullable());
  const tableColumns = new Map<string, ColumnSpec>([
    [leftKey, keyColumn(left.key.type)],
    [rightKey, keyColumn(right.key.type)],
    ...columns,
  ]);
  const tableModel: ModelDefinition = Object.freeze({
    table,
    key: Object.freeze({ name: 'id' as const, type: 'integer' as const }),
    columns: tableColumns,
    skipped: new Map(),
    timestamps,
    softDeletes: false,
    search: [],
    searchLanguage: 'simple',
    hooks: {},
    scope: null,
  });
  return Object.freeze({ table, left, leftKey, right, rightKey, columns, timestamps, tableModel: tableModel });
}
