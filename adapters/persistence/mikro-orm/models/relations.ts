import { InvalidQuery } from '../../../../domain/data/invalid-query.js';
import type { ColumnOf, ModelDefinition, RowOf } from '../../../../domain/data/model.js';
import { hasColumn } from '../../../../domain/data/model.js';
import type { MorphDefinition, MorphParent, MorphTypes } from '../../../../domain/data/morph.js';
import type { ModelQuery } from './model-query.js';

/** What the loaders need of `Db`: a query per model. */
export interface QuerySource {
  query<M extends ModelDefinition>(model: M): ModelQuery<M>;
}

type Narrow<M extends ModelDefinition> = (query: ModelQuery<M>) => unknown;

/** A key as text (a number, a string); null for anything else. */
function keyText(value: unknown): string | null {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'bigint' ? String(value) : null;
}

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

  /**
   * The row each child points to through `morph` (`commentable_type`, `commentable_id`): one
   * statement per type the children name, never one per child; null for a child whose row is
   * gone (or hidden by soft deletes or a scope). A type name the morph lacks is an `InvalidQuery`.
   */
  async morphTo<Child extends object, T extends MorphTypes>(children: readonly Child[], morph: MorphDefinition<T>): Promise<Map<Child, MorphParent<T> | null>> {
    const found = new Map<Child, MorphParent<T> | null>(children.map((child) => [child, null]));
    const idsByType = new Map<string, Set<unknown>>();
    for (const child of children) {
      const row = child as Record<string, unknown>;
      const type = row[morph.typeColumn];
      const id = keyText(row[morph.idColumn]);
      if (type === null || type === undefined || id === null) continue;
      if (typeof type !== 'string' || !Object.hasOwn(morph.types, type)) throw new InvalidQuery('bad_value', `'${JSON.stringify(type)}' is not a type of the morph '${morph.name}' (${Object.keys(morph.types).join(', ')})`);
      let ids = idsByType.get(type);
      if (ids === undefined) idsByType.set(type, (ids = new Set()));
      // An id column shared by several types is text; an integer key is read back as a number.
      const model = morph.types[type] as ModelDefinition;
      if (model.key.type !== 'integer') ids.add(id);
      else if (/^-?\d+$/u.test(id)) ids.add(Number(id));
    }
    const rowsByType = new Map<string, Map<string, unknown>>();
    for (const [type, ids] of idsByType) {
      const model = morph.types[type] as ModelDefinition;
      const rows = await this.db.query(model).whereIn('id' as never, [...ids] as never[]).get();
      rowsByType.set(type, new Map(rows.map((row) => [String(row.id).toLowerCase(), row])));
    }
    for (const child of children) {
      const row = child as Record<string, unknown>;
      const type = String(row[morph.typeColumn]);
      const parent = rowsByType.get(type)?.get(String(row[morph.idColumn]).toLowerCase());
      if (parent !== undefined) found.set(child, { type, row: parent } as MorphParent<T>);
    }
    return found;
  }

  /**
   * The children of each parent of type `type` through `morph` (an entry for every parent,
   * children in id order): one statement, `narrow` adding conditions.
   */
  async morphMany<T extends MorphTypes, K extends keyof T & string, C extends ModelDefinition>(
    parents: readonly RowOf<T[K]>[],
    morph: MorphDefinition<T>,
    type: K,
    child: C,
    narrow?: Narrow<C>,
  ): Promise<Map<RowOf<T[K]>['id'], RowOf<C>[]>> {
    if (!Object.hasOwn(morph.types, type)) throw new InvalidQuery('bad_value', `'${type}' is not a type of the morph '${morph.name}' (${Object.keys(morph.types).join(', ')})`);
    for (const name of [morph.typeColumn, morph.idColumn]) {
      if (!hasColumn(child, name)) throw new InvalidQuery('unknown_column', `The model '${child.table}' has no column '${name}' for the morph '${morph.name}'`);
    }
    const groups = new Map<RowOf<T[K]>['id'], RowOf<C>[]>(parents.map((parent) => [parent.id, []]));
    if (groups.size === 0) return groups;
    const owners = new Map([...groups.keys()].map((id) => [String(id).toLowerCase(), id]));
    const query = this.db
      .query(child)
      .where(morph.typeColumn as ColumnOf<C>, type as never)
      .whereIn(morph.idColumn as ColumnOf<C>, [...groups.keys()].map((id) => (child.columns.get(morph.idColumn)?.kind === 'integer' ? id : String(id))) as never[])
      .orderBy('id' as ColumnOf<C>);
    narrow?.(query);
    for (const row of await query.get()) {
      const owner = owners.get(String((row as Record<string, unknown>)[morph.idColumn]).toLowerCase());
      if (owner !== undefined) groups.get(owner)?.push(row);
    }
    return groups;
  }
}
