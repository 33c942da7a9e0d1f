import type { ModelDefinition, RowOf, ScopeParams } from '../../domain/data/model.js';
import { modelBinding } from '../../domain/http/routing/model-binding.js';
import type { Conditions, KeyKind, ModelBinding } from '../../domain/http/routing/model-binding.js';
import type { RequestContext } from './kernel/request-context.js';

export interface ModelOptions {
  /** The key column; `id` by default. */
  key?: string;
  /** How the key is written in URLs: `'integer'` (default), `'ulid'` or `'uuid'`. */
  keyKind?: KeyKind;
  /** The route parameter named after the model; by default the table's singular (`products` → `product`). */
  param?: string;
  /** Columns a parameter of the same name finds the row by: `columns: ['slug']` for `/blog/{slug}`. */
  columns?: readonly string[];
  /** Rows whose `deleted_at` (or the column named) is set are gone: a 404. */
  softDeletes?: boolean | string;
  /**
   * The default scope: conditions every lookup adds, e.g. `(ctx) => ({ team_id: … })`, so
   * another team's row is a 404. `null` means the column IS NULL.
   */
  scope?: (ctx: RequestContext) => Conditions | Promise<Conditions>;
}

/** What `model(Definition, …)` takes: the HTTP options, and the values of the model's own default scope. */
export interface DefinedModelOptions extends Omit<ModelOptions, 'key' | 'keyKind' | 'softDeletes'> {
  /**
   * The values `db.withScope(…)` would give the model's `defineModel` scope, for this request
   * (e.g. `(ctx) => ({ team: ctx.user?.teamId })`): the scope's conditions join the lookup, so
   * a row outside it is a 404, as every other read of a scoped `Db` would miss it.
   */
  scopeParams?: (ctx: RequestContext) => ScopeParams | Promise<ScopeParams>;
}

/** A table as route model binding sees it; `Row` is the shape the app says its rows have. */
export interface Model<Row = Record<string, unknown>> {
  readonly binding: ModelBinding;
  readonly scope: ((ctx: RequestContext) => Conditions | Promise<Conditions>) | null;
  /** The `defineModel` model it was made from, or null for a bare table. */
  readonly definition?: ModelDefinition | null;
  /** Carries the row type only; never set. */
  readonly __row?: Row;
}

/**
 * A model for `ctx.found(Model)`:
 *
 *     const Product = model<ProductRow>('products', { softDeletes: true, scope: (ctx) => ({ team_id: ctx.requireUser().id }) });
 *     routes.get('/products/{product}', async (ctx) => json(await ctx.found(Product)));
 *
 * Names are checked here, so a typo stops the app when its modules are built. A `defineModel`
 * model works too, `model(Product, { scope })`: its key kind and soft deletes come from the
 * definition, and the row is the data layer's (`RowOf<typeof Product>`).
 */
export function model<M extends ModelDefinition>(definition: M, options?: DefinedModelOptions): Model<RowOf<M>>;
export function model<Row = Record<string, unknown>>(table: string, options?: ModelOptions): Model<Row>;
export function model(source: string | ModelDefinition, options: DefinedModelOptions & ModelOptions = {}): Model {
  const { scope, scopeParams, ...binding } = options;
  if (typeof source === 'string') return Object.freeze({ binding: modelBinding(source, binding), scope: scope ?? null, definition: null });
  // A `defineModel` model knows its key and soft deletes; the row comes back decoded.
  const keyKind = source.key.type;
  const own = source.scope;
  const both =
    scopeParams === undefined || own === null
      ? (scope ?? null)
      : async (ctx: RequestContext): Promise<Conditions> => ({ ...(await scope?.(ctx)), ...(own(await scopeParams(ctx)) as Conditions | null) });
  return Object.freeze({ binding: modelBinding(source.table, { ...binding, key: 'id', keyKind, softDeletes: source.softDeletes }), scope: both, definition: source });
}
