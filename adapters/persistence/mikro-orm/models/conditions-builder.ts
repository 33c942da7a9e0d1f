import type { Condition, Operator } from '../../../../domain/data/conditions.js';
import type { ColumnOf, ModelDefinition, RowOf } from '../../../../domain/data/model.js';

/** The type of a column's value in model `M`. */
export type ValueOfColumn<M, C> = C extends keyof RowOf<M> ? RowOf<M>[C] : never;

/**
 * The condition half of a query: what `where…` calls add, and what the closures of `whereAny`
 * and `whereAll` receive. Conditions are data until the query runs; their columns are checked
 * then (an `InvalidQuery`), so a bad name fails the same way typed or not.
 */
export class Conditions<M extends ModelDefinition> {
  protected readonly conditions: Condition[] = [];

  /** `where(col, value)`, `where(col, op, value)` (ops: `= != <> < <= > >= like`, `not like`) or `where({ col: value, … })`. */
  where<C extends ColumnOf<M>>(column: C, value: ValueOfColumn<M, C>): this;
  where<C extends ColumnOf<M>>(column: C, op: Operator, value: ValueOfColumn<M, C>): this;
  where(values: { [C in ColumnOf<M>]?: ValueOfColumn<M, C> }): this;
  where(column: string | Record<string, unknown>, opOrValue?: unknown, value?: unknown): this {
    if (typeof column === 'object') {
      for (const [name, each] of Object.entries(column)) this.conditions.push({ kind: 'compare', column: name, op: '=', value: each });
    } else if (arguments.length >= 3) {
      this.conditions.push({ kind: 'compare', column, op: String(opOrValue), value });
    } else {
      this.conditions.push({ kind: 'compare', column, op: '=', value: opOrValue });
    }
    return this;
  }

  /** Case-insensitive `LIKE` on both engines (`%` and `_` are the pattern's wildcards). */
  whereLike(column: ColumnOf<M>, pattern: string): this {
    this.conditions.push({ kind: 'like', column, pattern });
    return this;
  }

  /** The column is one of `values`; an empty list matches nothing. Over 1000 values go as one JSON array. */
  whereIn<C extends ColumnOf<M>>(column: C, values: readonly ValueOfColumn<M, C>[]): this {
    this.conditions.push({ kind: 'in', column, values: [...values], negate: false });
    return this;
  }

  /** The column is none of `values`; an empty list matches every row. */
  whereNotIn<C extends ColumnOf<M>>(column: C, values: readonly ValueOfColumn<M, C>[]): this {
    this.conditions.push({ kind: 'in', column, values: [...values], negate: true });
    return this;
  }

  whereNull(column: ColumnOf<M>): this {
    this.conditions.push({ kind: 'null', column, negate: false });
    return this;
  }

  whereNotNull(column: ColumnOf<M>): this {
    this.conditions.push({ kind: 'null', column, negate: true });
    return this;
  }

  /** Both ends included. */
  whereBetween<C extends ColumnOf<M>>(column: C, low: ValueOfColumn<M, C>, high: ValueOfColumn<M, C>): this {
    this.conditions.push({ kind: 'between', column, low, high });
    return this;
  }

  /** Any of the closure's conditions holds; a closure that adds none matches nothing. */
  whereAny(build: (q: Conditions<M>) => unknown): this {
    return this.group('or', build);
  }

  /** All of the closure's conditions hold (a parenthesised group). */
  whereAll(build: (q: Conditions<M>) => unknown): this {
    return this.group('and', build);
  }

  /** SQL of the app's own with `?` placeholders; `values` are always bound, never spliced. */
  whereRaw(sql: string, values: readonly unknown[] = []): this {
    this.conditions.push({ kind: 'raw', sql, params: [...values] });
    return this;
  }

  /** Applies `build` only when `condition` is truthy: `.when(search, (q) => q.whereLike('name', `%${search}%`))`. */
  when<T>(condition: T, build: (q: this, value: NonNullable<T>) => unknown): this {
    if (condition !== undefined && condition !== null && condition !== false && condition !== '' && condition !== 0) build(this, condition);
    return this;
  }

  private group(join: 'and' | 'or', build: (q: Conditions<M>) => unknown): this {
    const inner = new Conditions<M>();
    build(inner);
    this.conditions.push({ kind: 'group', join, conditions: inner.conditions });
    return this;
  }
}
