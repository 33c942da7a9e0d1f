import type { ColumnOf, ModelDefinition, RowOf } from '../../../../domain/data/model.js';
import type { ModelQuery } from './model-query.js';

/** What the loaders need of `Db`: a query per model. */
export interface QuerySource {
  query<M extends ModelDefinition>(model: M): ModelQuery<M>;
}

type Narrow<M extends ModelDefinition> = (query: ModelQuery<M>) => unknown;

/** The distinct non-null values of `column` in `rows`. */
function valuesOf(rows: readonly Record<string, unknown>[], column: string): unknown[] {
  return [...new Set(rows.map((row) => row[column]).filter((value) => value !== null && value !== undefined))];
}

/**
 * The explicit relation loaders of the spec: each is one statement for the whole list (two for
 * `hasManyThrough`), never one per row, and none when there is nothing to look up.
 */
export class Relations {
  constructor(private readonly db: QuerySource) {}

  /** The parent of each child, by the child's `foreignKey`: a map from parent id to parent. */
  async belongsTo<Child extends object, P extends ModelDefinition>(children: readonly Child[], parent: P, foreignKey: keyof Child & string): Promise<Map<RowOf<P>['id'], RowOf<P>>> {
    const ids = valuesOf(children as readonly Record<string, unknown>[], foreignKey);
    if (ids.length === 0) return new Map();
    const rows = await this.db.query(parent).whereIn('id' as ColumnOf<P>, ids as never[]).get();
    return new Map(rows.map((row) => [row.id, row]));
  }

  /** The children of each parent (an entry for every parent, in id order), `narrow` adding conditions. */
  async hasMany<K, C extends ModelDefinition>(parents: readonly { id: K }[], child: C, foreignKey: ColumnOf<C>, narrow?: Narrow<C>): Promise<Map<K, RowOf<C>[]>> {
    const groups = new Map<K, RowOf<C>[]>(parents.map((parent) => [parent.id, []]));
    if (groups.size === 0) return groups;
    const query = this.db.query(child).whereIn(foreignKey, [...groups.keys()] as never[]).orderBy('id' as ColumnOf<C>);
    narrow?.(query);
    for (const row of await query.get()) groups.get((row as Record<string, unknown>)[foreignKey] as K)?.push(row);
    return groups;
  }

  /**
   * The far rows of each parent through a middle model: `countries → users (country_id) →
   * posts (user_id)`. Two statements: the middle rows' keys, then the far rows.
   */
  async hasManyThrough<K, T extends ModelDefinition, C extends ModelDefinition>(
    parents: readonly { id: K }[],
    through: T,
    throughKey: ColumnOf<T>,
    child: C,
    childKey: ColumnOf<C>,
  ): Promise<Map<K, RowOf<C>[]>> {
    const groups = new Map<K, RowOf<C>[]>(parents.map((parent) => [parent.id, []]));
    if (groups.size === 0) return groups;
    const middles = await this.db.query(through).whereIn(throughKey, [...groups.keys()] as never[]).selectAs(['id' as ColumnOf<T>, throughKey]);
    const parentOf = new Map(middles.map((middle) => [(middle as Record<string, unknown>)['id'], (middle as Record<string, unknown>)[throughKey] as K]));
    if (parentOf.size === 0) return groups;
    const rows = await this.db.query(child).whereIn(childKey, [...parentOf.keys()] as never[]).orderBy('id' as ColumnOf<C>).get();
    for (const row of rows) {
      const parentId = parentOf.get((row as Record<string, unknown>)[childKey]);
      if (parentId !== undefined) groups.get(parentId)?.push(row);
    }
    return groups;
  }

  /** How many children each parent has (0 for none): one GROUP BY statement. */
  async countMany<K, C extends ModelDefinition>(parents: readonly { id: K }[], child: C, foreignKey: ColumnOf<C>, narrow?: Narrow<C>): Promise<Map<K, number>> {
    const ids = parents.map((parent) => parent.id);
    if (ids.length === 0) return new Map();
    const query = this.db.query(child).whereIn(foreignKey, ids as never[]);
    narrow?.(query);
    const counts = await query.countBy(foreignKey);
    return new Map(ids.map((id) => [id, counts.get(id) ?? 0]));
  }

  /** The sum of a children's column for each parent (0 for none): one GROUP BY statement. */
  async sumMany<K, C extends ModelDefinition>(parents: readonly { id: K }[], child: C, foreignKey: ColumnOf<C>, column: ColumnOf<C>, narrow?: Narrow<C>): Promise<Map<K, number>> {
    const ids = parents.map((parent) => parent.id);
    if (ids.length === 0) return new Map();
    const query = this.db.query(child).whereIn(foreignKey, ids as never[]);
    narrow?.(query);
    const sums = await query.sumBy(foreignKey, column);
    return new Map(ids.map((id) => [id, sums.get(id) ?? 0]));
  }
}
