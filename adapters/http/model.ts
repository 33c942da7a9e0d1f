import { modelBinding } from '../../domain/routing/model-binding.js';
import type { Conditions, KeyKind, ModelBinding } from '../../domain/routing/model-binding.js';
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

/** A table as route model binding sees it; `Row` is the shape the app says its rows have. */
export interface Model<Row = Record<string, unknown>> {
  readonly binding: ModelBinding;
  readonly scope: ((ctx: RequestContext) => Conditions | Promise<Conditions>) | null;
  /** Carries the row type only; never set. */
  readonly __row?: Row;
}

/**
 * A model for `ctx.found(Model)`:
 *
 *     const Product = model<ProductRow>('products', { softDeletes: true, scope: (ctx) => ({ team_id: ctx.requireUser().id }) });
 *     routes.get('/products/{product}', async (ctx) => json(await ctx.found(Product)));
 *
 * Names are checked here, so a typo stops the app when its modules are built.
 */
export function model<Row = Record<string, unknown>>(table: string, options: ModelOptions = {}): Model<Row> {
  const { scope, ...binding } = options;
  return Object.freeze({ binding: modelBinding(table, binding), scope: scope ?? null });
}
