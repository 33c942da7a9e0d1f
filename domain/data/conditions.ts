import { InvalidQuery } from './invalid-query.js';
import { hasColumn } from './model.js';
import type { ModelDefinition } from './model.js';

/** The operators `where(column, op, value)` takes, and no others. */
export const OPERATORS = ['=', '!=', '<>', '<', '<=', '>', '>=', 'like', 'not like'] as const;
export type Operator = (typeof OPERATORS)[number];

export function isOperator(op: string): op is Operator {
  return (OPERATORS as readonly string[]).includes(op);
}

/** Above this many values, `whereIn` sends the list as one JSON array parameter. */
export const WHERE_IN_JSON_THRESHOLD = 1000;

/** One condition of a query, as data: the adapter turns it into its ORM's filter. */
export type Condition =
  | { readonly kind: 'compare'; readonly column: string; readonly op: string; readonly value: unknown }
  | { readonly kind: 'null'; readonly column: string; readonly negate: boolean }
  | { readonly kind: 'in'; readonly column: string; readonly values: readonly unknown[]; readonly negate: boolean }
  | { readonly kind: 'between'; readonly column: string; readonly low: unknown; readonly high: unknown }
  /** Case-insensitive LIKE on both engines. */
  | { readonly kind: 'like'; readonly column: string; readonly pattern: string }
  | { readonly kind: 'raw'; readonly sql: string; readonly params: readonly unknown[] }
  /** The column is (not) among the values another query selects; `subquery` is the adapter's own. */
  | { readonly kind: 'in-query'; readonly column: string; readonly negate: boolean; readonly subquery: () => unknown }
  /** `and` of nothing matches every row; `or` of nothing matches none. */
  | { readonly kind: 'group'; readonly join: 'and' | 'or'; readonly conditions: readonly Condition[] };

/**
 * Checks every column and operator of `conditions` against the model: an unknown column, an
 * operator outside the list, or an encrypted column (its sealed text equals nothing a visitor
 * can type) is an `InvalidQuery`.
 */
export function checkConditions(model: ModelDefinition, conditions: readonly Condition[]): void {
  for (const condition of conditions) {
    switch (condition.kind) {
      case 'raw':
        break;
      case 'group':
        checkConditions(model, condition.conditions);
        break;
      case 'in-query':
      case 'compare':
      case 'null':
      case 'in':
      case 'between':
      case 'like':
        checkColumn(model, condition.column, 'condition');
        if (condition.kind === 'compare' && !isOperator(condition.op)) {
          throw new InvalidQuery('bad_operator', `The operator ${JSON.stringify(condition.op)} is not one of ${OPERATORS.join(', ')}`);
        }
    }
  }
}

/** Throws unless `name` is a column of the model; encrypted columns cannot be conditions or orders. */
export function checkColumn(model: ModelDefinition, name: string, use: 'condition' | 'order' | 'read' | 'write'): void {
  if (!hasColumn(model, name)) {
    throw new InvalidQuery('unknown_column', `The model '${model.table}' has no column ${JSON.stringify(name)}`);
  }
  if ((use === 'condition' || use === 'order') && model.columns.get(name)?.kind === 'encrypted') {
    throw new InvalidQuery('encrypted_condition', `The column '${model.table}.${name}' is encrypted: it cannot be used in a ${use}`);
  }
}
