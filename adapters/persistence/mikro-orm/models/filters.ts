import { raw } from '@mikro-orm/core';
import type { Dictionary } from '@mikro-orm/core';
import { WHERE_IN_JSON_THRESHOLD } from '../../../../domain/data/conditions.js';
import type { Condition } from '../../../../domain/data/conditions.js';
import type { ColumnKind } from '../../../../domain/data/columns.js';
import type { RowCodec } from './row-codec.js';

/** A condition no row meets. MikroORM drops an empty `$or` (it would match every row), so fw says so. */
const NOTHING = '1 = 0';

const COMPARISONS: Readonly<Record<string, string>> = { '=': '$eq', '!=': '$ne', '<>': '$ne', '<': '$lt', '<=': '$lte', '>': '$gt', '>=': '$gte', like: '$like' };

/** The PostgreSQL type a JSON array's text elements are cast to, to compare with a column. */
const PG_CASTS: Readonly<Record<ColumnKind, string>> = {
  string: 'text',
  enum: 'text',
  ulid: 'text',
  encrypted: 'text',
  json: 'jsonb',
  integer: 'bigint',
  float: 'double precision',
  boolean: 'boolean',
  uuid: 'uuid',
  timestamp: 'timestamptz',
  date: 'date',
  time: 'time',
  datetime: 'timestamp',
};

/** A column's name in a statement: names are checked identifiers, quoting keeps reserved words working. */
export function quoted(name: string): string {
  return `"${name}"`;
}

function rawCondition(sql: string, params: readonly unknown[] = []): Dictionary {
  return { [raw(sql, [...params])]: [] };
}

/**
 * The conditions (and `extra` filters) as one MikroORM filter, all of them holding, every value
 * encoded for the engine and bound. The spec's edges are decided here, not left to the ORM: an
 * empty `whereIn` or an empty `whereAny` matches nothing, an empty `whereNotIn` matches every
 * row, and over 1000 values travel as one JSON array parameter.
 */
export function toFilter(conditions: readonly Condition[], codec: RowCodec, extra: readonly Dictionary[] = []): Dictionary {
  const parts: Dictionary[] = [];
  for (const condition of conditions) parts.push(one(condition, codec));
  for (const filter of extra) parts.push(filter);
  return allOf(parts);
}

/**
 * Filters that must all hold, as one object: parts on distinct columns merge into it, the rest
 * stay under `$and`. MikroORM turns every `$and` and `$eq` into criteria nodes of their own: a
 * by-id lookup written `{ $and: [{ id: { $eq: 7 } }] }` took ~50 % more CPU to build and run on
 * SQLite than `{ id: 7 }` (docs/performance.md 'Query layer overhead').
 */
function allOf(parts: readonly Dictionary[]): Dictionary {
  const filter: Dictionary = {};
  const rest: Dictionary[] = [];
  for (const part of parts) {
    if (mergeable(part, filter)) Object.assign(filter, part);
    else rest.push(part);
  }
  if (rest.length > 0) filter['$and'] = rest;
  return filter;
}

/** Whether `part` holds no `$` operator and no key that `filter` already holds. */
function mergeable(part: Dictionary, filter: Dictionary): boolean {
  for (const name in part) if (name.startsWith('$') || name in filter) return false;
  return true;
}

/** Whether MikroORM reads `{ column: value }` as equality (an array would be `IN`, an object operators). */
function isScalar(value: unknown): value is string | number | boolean | bigint {
  return typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint';
}

function one(condition: Condition, codec: RowCodec): Dictionary {
  switch (condition.kind) {
    case 'compare': {
      if (condition.value === null) {
        if (condition.op === '=') return { [condition.column]: null };
        if (condition.op === '!=' || condition.op === '<>') return { [condition.column]: { $ne: null } };
      }
      if (condition.op === 'not like') return rawCondition(`${quoted(condition.column)} not like ?`, [codec.encode(condition.column, condition.value)]);
      const operator = COMPARISONS[condition.op] ?? '$eq';
      const encoded = codec.encode(condition.column, condition.value);
      return { [condition.column]: operator === '$eq' && isScalar(encoded) ? encoded : { [operator]: encoded } };
    }
    case 'null':
      return { [condition.column]: condition.negate ? { $ne: null } : null };
    case 'between':
      return { [condition.column]: { $gte: codec.encode(condition.column, condition.low), $lte: codec.encode(condition.column, condition.high) } };
    case 'like':
      // lower() on both sides: SQLite's LIKE folds ASCII only, PostgreSQL's not at all.
      return rawCondition(`lower(${quoted(condition.column)}) like lower(?)`, [codec.encode(condition.column, condition.pattern)]);
    case 'raw':
      return rawCondition(condition.sql, condition.params);
    case 'in':
      return whereIn(condition.column, condition.values, condition.negate, codec);
    case 'in-query':
      return { [condition.column]: { [condition.negate ? '$nin' : '$in']: condition.subquery() } };
    case 'group': {
      if (condition.conditions.length === 0) return condition.join === 'and' ? {} : rawCondition(NOTHING);
      const parts = condition.conditions.map((inner) => one(inner, codec));
      return condition.join === 'and' ? { $and: parts } : { $or: parts };
    }
  }
}

function whereIn(column: string, values: readonly unknown[], negate: boolean, codec: RowCodec): Dictionary {
  if (values.length === 0) return negate ? {} : rawCondition(NOTHING);
  const encoded = values.map((value) => codec.encode(column, value));
  if (values.length <= WHERE_IN_JSON_THRESHOLD) return { [column]: { [negate ? '$nin' : '$in']: encoded } };
  const not = negate ? 'not ' : '';
  const kind = codec.spec(column).kind;
  if (codec.engine === 'sqlite') {
    if (kind === 'uuid') {
      const hex = encoded.map((value) => (Buffer.isBuffer(value) ? value.toString('hex') : value));
      return rawCondition(`${quoted(column)} ${not}in (select unhex(value) from json_each(?))`, [JSON.stringify(hex)]);
    }
    return rawCondition(`${quoted(column)} ${not}in (select value from json_each(?))`, [JSON.stringify(encoded)]);
  }
  return rawCondition(`${quoted(column)} ${not}in (select value::${PG_CASTS[kind]} from jsonb_array_elements_text(cast(? as jsonb)) as list(value))`, [JSON.stringify(encoded)]);
}
