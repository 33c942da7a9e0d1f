import { MisuseError } from '../../shared/errors.js';
/**
 * Route model binding (the spec's `Found<M>`): which route parameter names the row, and how
 * its text becomes a lookup. Pure: the HTTP adapter runs the query this returns.
 *
 * 1. The parameter is the one named after the model (`{product}` for `products`), otherwise
 *    the route's only parameter. A handler may name another one explicitly.
 * 2. Its text is read as the model's key (an integer, a ULID or a UUID), or, when the
 *    parameter's name is one of the model's lookup columns, as that column (`/blog/{slug}`).
 * 3. A key that does not parse names no row: a 404 without asking the database.
 * 4. The app's default scope and soft deletes are conditions of the same query, so another
 *    team's row or a deleted row is no row either.
 */

/** How a key is written in a URL; `string` is any non-empty text (a key the app sets). */
export type KeyKind = 'integer' | 'ulid' | 'uuid' | 'string';

/** A value a lookup compares a column with; null means the column IS NULL. */
export type Condition = string | number | null;

export type Conditions = Readonly<Record<string, Condition>>;

/** What binding needs to know of a model: its table and how its rows are named in URLs. */
export interface ModelBinding {
  readonly table: string;
  /** The key column (`id`). */
  readonly key: string;
  readonly keyKind: KeyKind;
  /** The route parameter named after the model (`product`). */
  readonly param: string;
  /** Other columns a parameter may name to look the row up by (`slug`). */
  readonly columns: readonly string[];
  /** The column that is set when a row is soft-deleted (`deleted_at`), or null. */
  readonly softDeleteColumn: string | null;
}

export interface ModelBindingOptions {
  key?: string;
  keyKind?: KeyKind;
  param?: string;
  columns?: readonly string[];
  /** `true` is the column `deleted_at`; a string names another. */
  softDeletes?: boolean | string;
}

/** A plain lower-case SQL identifier, as `ports/record-lookup.ts` requires of names. */
const IDENTIFIER = /^[a-z_][a-z0-9_]*$/u;
/** A route parameter name, as `path-pattern.ts` accepts them. */
const PARAM = /^[A-Za-z_][A-Za-z0-9_]*$/u;

/**
 * A model's binding, checked: every name must be a plain identifier, so a typo stops the app
 * when its modules are built rather than at the first request. Throws `TypeError`.
 */
export function modelBinding(table: string, options: ModelBindingOptions = {}): ModelBinding {
  const key = options.key ?? 'id';
  const columns = [...(options.columns ?? [])];
  const softDeleteColumn = options.softDeletes === true ? 'deleted_at' : options.softDeletes === false || options.softDeletes === undefined ? null : options.softDeletes;
  const names: Array<[string, string]> = [['table', table], ['key', key], ...columns.map((column): [string, string] => ['column', column])];
  if (softDeleteColumn !== null) names.push(['soft-delete column', softDeleteColumn]);
  for (const [what, name] of names) {
    if (!IDENTIFIER.test(name)) throw new MisuseError('routing.bad-model-binding', `model '${table}': the ${what} name ${JSON.stringify(name)} is not a plain identifier (${IDENTIFIER.source})`);
  }
  const param = options.param ?? singular(table);
  if (!PARAM.test(param)) throw new MisuseError('routing.bad-model-binding', `model '${table}': the parameter name ${JSON.stringify(param)} is not an identifier`);
  const keyKind = options.keyKind ?? 'integer';
  if (!['integer', 'ulid', 'uuid', 'string'].includes(keyKind)) throw new MisuseError('routing.bad-model-binding', `model '${table}': keyKind must be 'integer', 'ulid', 'uuid' or 'string', got ${JSON.stringify(keyKind)}`);
  return Object.freeze({ table, key, keyKind, param, columns: Object.freeze(columns), softDeleteColumn });
}

/**
 * The parameter a table's rows go by, by a small English rule: `categories` → `category`,
 * `addresses` → `address`, `boxes` → `box`, `products` → `product`; other names stay as they
 * are (`status`, `people`, `data`). Irregular plurals give `param` explicitly.
 */
export function singular(table: string): string {
  if (/[^aeiou]ies$/u.test(table)) return `${table.slice(0, -3)}y`;
  if (/(?:ss|x|z|ch|sh)es$/u.test(table)) return table.slice(0, -2);
  // `status`, `campus`, `class`, `axis` are not plurals.
  if (/[^su]s$/u.test(table) && !/is$/u.test(table)) return table.slice(0, -1);
  return table;
}

const INTEGER = /^-?\d{1,16}$/u;
// Crockford's base 32 without I, L, O, U; the first character carries only 3 of 48 bits.
const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/iu;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/iu;

/**
 * A key as the database holds it, or null when the text is no key of that kind. ULIDs are
 * given in upper case and UUIDs in lower case (their canonical spellings), so a URL typed in
 * the other case finds the same row on SQLite too, where text comparison is exact.
 */
export function parseKey(kind: KeyKind, text: string): string | number | null {
  switch (kind) {
    case 'integer': {
      if (!INTEGER.test(text)) return null;
      const value = Number(text);
      return Number.isSafeInteger(value) ? value : null;
    }
    case 'ulid':
      return ULID.test(text) ? text.toUpperCase() : null;
    case 'uuid':
      return UUID.test(text) ? text.toLowerCase() : null;
    case 'string':
      return text === '' ? null : text;
  }
}

export type BindingParameter =
  | { readonly kind: 'parameter'; readonly name: string }
  | { readonly kind: 'none'; readonly reason: string };

/**
 * Rule 1: the parameter named after the model, else the route's only one. `explicit` (a
 * handler's own choice) must be one of the route's. `none` is a programmer's mistake.
 */
export function bindingParameter(binding: ModelBinding, names: readonly string[], explicit?: string): BindingParameter {
  if (explicit !== undefined) {
    return names.includes(explicit) ? { kind: 'parameter', name: explicit } : { kind: 'none', reason: `the route has no parameter {${explicit}}` };
  }
  if (names.includes(binding.param)) return { kind: 'parameter', name: binding.param };
  const [only, ...others] = names;
  if (only !== undefined && others.length === 0) return { kind: 'parameter', name: only };
  const has = names.length === 0 ? 'no parameters' : `the parameters ${names.map((name) => `{${name}}`).join(', ')}`;
  return { kind: 'none', reason: `the route has ${has} and none is named {${binding.param}}` };
}

export type FoundQuery =
  | { readonly kind: 'find'; readonly table: string; readonly where: Conditions }
  /** The parameter's text cannot be a key: no row, and no query needed. */
  | { readonly kind: 'no-row' }
  | { readonly kind: 'misuse'; readonly reason: string };

/**
 * The query that finds the row a request names: rules 1 to 3 plus the model's `scope`
 * conditions and its soft-delete column. A scope condition on the looked-up column that
 * differs from the parameter can match nothing, so it is `no-row` too.
 */
export function foundQuery(binding: ModelBinding, params: Readonly<Record<string, string>>, scope: Conditions = {}, explicit?: string): FoundQuery {
  const chosen = bindingParameter(binding, Object.keys(params), explicit);
  if (chosen.kind === 'none') return { kind: 'misuse', reason: chosen.reason };
  const text = params[chosen.name] ?? '';
  const byColumn = chosen.name !== binding.key && binding.columns.includes(chosen.name);
  const column = byColumn ? chosen.name : binding.key;
  const value = byColumn ? text : parseKey(binding.keyKind, text);
  if (value === null) return { kind: 'no-row' };

  // No prototype: a column called `__proto__` is then just a key.
  const where = Object.create(null) as Record<string, Condition>;
  for (const [name, condition] of Object.entries(scope)) {
    if (!IDENTIFIER.test(name)) return { kind: 'misuse', reason: `the scope of '${binding.table}' names the column ${JSON.stringify(name)}, which is not a plain identifier` };
    where[name] = condition;
  }
  const own: Array<[string, Condition]> = [[column, value]];
  if (binding.softDeleteColumn !== null) own.push([binding.softDeleteColumn, null]);
  for (const [name, condition] of own) {
    if (name in where && !sameCondition(where[name] ?? null, condition)) return { kind: 'no-row' };
    where[name] = condition;
  }
  return { kind: 'find', table: binding.table, where };
}

function sameCondition(a: Condition, b: Condition): boolean {
  return a === null || b === null ? a === b : String(a) === String(b);
}
