import { Struct, optional, string } from 'superstruct';
import type { Coercer } from 'superstruct';
import { planField } from './struct-walk.js';
import { readUnvalidated } from './unvalidated-reading.js';

/**
 * Structs for form fields. A browser sends every field as text (or not at all), so each one
 * coerces first: `validate` runs structs with `coerce: true`. Empty text counts as "not
 * sent", so a blank optional number is `undefined`, not a failure, and a blank required one
 * reads "is required". The struct `type` names (`integer`, `text`, …) pick the message a
 * value that still does not parse gets (see `failure-messages.ts`).
 */

/** Trimmed text, or undefined for blank text, null and absence; anything else as it came. */
function blankToUndefined(value: unknown): unknown {
  if (value === null) return undefined;
  if (typeof value !== 'string') return value;
  const trimmed = value.trim();
  return trimmed === '' ? undefined : trimmed;
}

/** Also planned for the fast walk (`struct-walk.ts`): the same coercer and check, called directly. */
function field<T>(type: string, coercer: Coercer, accepts: (value: unknown) => boolean): Struct<T, null> {
  return planField(new Struct<T, null>({ type, schema: null, coercer, validator: (value) => accepts(value) }), { coerce: coercer, accepts });
}

const CHECKED = new Set(['on', '1', 'true']);
const UNCHECKED = new Set(['', '0', 'false', 'off']);

/**
 * A checkbox: a browser sends `on` (or the input's value) when ticked and nothing at all when
 * not, so absence is `false`. With the hidden-input idiom (`0` then the checkbox's `1`) the
 * last value wins. Other text fails, rather than quietly meaning "no".
 *
 * Read as the unvalidated body (`ctx.form`, the spec's `Form<T>`) the field is a plain boolean:
 * `true`/`false` (as JSON or text) only; `on`, `1`, several values fail, and absence is
 * "required" unless the field is `optional(checkbox())`. The browser's meaning is `ctx.valid`'s.
 */
export function checkbox(): Struct<boolean, null> {
  return field<boolean>(
    'checkbox',
    (value, context) => {
      if (readUnvalidated(context)) return plainBoolean(value);
      const last: unknown = Array.isArray(value) ? value.at(-1) : value;
      if (last === undefined || last === null) return false;
      if (typeof last === 'boolean') return last;
      if (last === 1 || last === 0) return last === 1;
      if (typeof last !== 'string') return value;
      const text = last.trim().toLowerCase();
      return CHECKED.has(text) ? true : UNCHECKED.has(text) ? false : value;
    },
    (value) => typeof value === 'boolean',
  );
}

/** A boolean as a form or JSON states one plainly: `true`/`false`; nothing is `undefined` (missing). */
function plainBoolean(value: unknown): unknown {
  if (value === null) return undefined;
  return value === 'true' ? true : value === 'false' ? false : value;
}

const INTEGER_TEXT = /^[+-]?\d+$/u;
const DECIMAL_TEXT = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/iu;

/** A whole number from text like `42` or `-7`; `4.5`, `1e3` and `0x10` fail. */
export function integer(): Struct<number, null> {
  return field<number>(
    'integer',
    (value) => {
      const text = blankToUndefined(value);
      return typeof text === 'string' && INTEGER_TEXT.test(text) ? Number(text) : text;
    },
    (value) => Number.isSafeInteger(value),
  );
}

/** A decimal number from text like `3.25` or `-1e3`; `Infinity`, `0x10` and `1,5` fail. */
export function number(): Struct<number, null> {
  return field<number>(
    'number',
    (value) => {
      const text = blankToUndefined(value);
      return typeof text === 'string' && DECIMAL_TEXT.test(text) ? Number(text) : text;
    },
    (value) => typeof value === 'number' && Number.isFinite(value),
  );
}

/**
 * What the body decoder puts where bytes were no UTF-8 (`%C3%28`). Nobody types it; stored,
 * it would turn a name or an address into something its owner never wrote.
 */
const REPLACEMENT_CHARACTER = '\uFFFD';

/**
 * Required text, trimmed. Pass `{ trim: false }` for passwords: spaces at the ends are part
 * of them (only all-blank text counts as missing there). Text that arrived as bytes which are
 * no UTF-8 fails like a value that is no text.
 */
export function text(options: { trim?: boolean } = {}): Struct<string, null> {
  const { coerce, accepts } = textField(options);
  return field<string>('text', coerce, accepts);
}

function textField(options: { trim?: boolean }): { coerce: Coercer; accepts: (value: unknown) => boolean } {
  const trim = options.trim ?? true;
  return {
    coerce: (value) => (trim ? blankToUndefined(value) : value === '' || value === null ? undefined : value),
    accepts: (value) => typeof value === 'string' && !value.includes(REPLACEMENT_CHARACTER),
  };
}

export function optionalText(options: { trim?: boolean } = {}): Struct<string | undefined, null> {
  const { coerce, accepts } = textField(options);
  // superstruct's `optional` keeps the coercer and lets `undefined` pass the check.
  return planField(optional(field<string>('text', coerce, accepts)), { coerce, accepts: (value) => value === undefined || accepts(value) });
}

/**
 * Several values under one name (a multiple select, checkboxes): one value arrives as text,
 * several as a list, none at all when nothing is chosen, which is an empty list.
 */
export function list(): Struct<string[], Struct<string, unknown>>;
export function list<T>(item: Struct<T, unknown>): Struct<T[], Struct<T, unknown>>;
export function list<T>(item?: Struct<T, unknown>): Struct<string[], Struct<string, unknown>> | Struct<T[], Struct<T, unknown>> {
  return item === undefined ? listOf(planField(string(), { coerce: (value) => value, accepts: (value) => typeof value === 'string' })) : listOf(item);
}

function listOf<T>(item: Struct<T, unknown>): Struct<T[], Struct<T, unknown>> {
  const coerce: Coercer = (value) => {
    if (value === undefined || value === null || value === '') return [];
    if (Array.isArray(value)) return [...(value as unknown[])];
    return typeof value === 'string' ? [value] : value;
  };
  const struct = new Struct<T[], Struct<T, unknown>>({
    type: 'list',
    schema: item,
    coercer: coerce,
    validator: (value) => Array.isArray(value),
    *entries(value) {
      if (Array.isArray(value)) for (const [index, entry] of (value as unknown[]).entries()) yield [index, entry, item];
    },
  });
  return planField(struct, { coerce, accepts: Array.isArray, item: item as Struct<unknown, unknown> });
}

/**
 * One of a fixed set (a select, radio buttons, an enum's variant names). Text matching a
 * number variant becomes that number. Anything else is a validation error reported with
 * the other fields' errors, not a refused request.
 */
export function oneOf<const V extends readonly (string | number)[]>(values: V): Struct<V[number], null> {
  return field<V[number]>(
    'oneOf',
    (value) => {
      const text = blankToUndefined(value);
      return typeof text === 'string' ? (values.find((variant) => String(variant) === text) ?? text) : text;
    },
    (value) => values.includes(value as V[number]),
  );
}
