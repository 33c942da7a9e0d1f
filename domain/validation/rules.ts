/**
 * The semantics of every rule of the spec's validation table except those that need the
 * outside world (`unique`, `exists` and `currentPassword` live in application/validation and
 * reach it through ports). Each rule is a total function: any value in, pass or a failure
 * with a stable message key out, never an exception. Keys follow the rule names
 * (`validation.requiredIf`); size rules add the unit (`validation.min.string`, `.numeric`,
 * `.array`, `.file`) and a count so the language picks singular or plural.
 */
import type { Rule, RuleScope } from './rule.js';
import { Dimensions, fitsDimensions, isImage, isUploadedFile, matchesTypes } from './uploaded-file.js';
import { isMissing, sameValue, sizeNumber, sizeOf } from './values.js';
import type { SizeUnit } from './values.js';
import { fail } from './verdict.js';
import type { FormatChecks } from './format-checks.js';
import type { DimensionConstraints } from './uploaded-file.js';
import type { ParamValue, Verdict } from './verdict.js';

const PASS = null;

/**
 * A rule without parameters is one shared object (rules are immutable; a chain's `.message()`
 * goes on its step), so a form's thirty chains allocate no rule objects for them.
 */
function shared(made: Rule): () => Rule {
  return () => made;
}

function rule(name: string, check: Rule['check'], presence = false): Rule {
  return presence ? { name, presence, check } : { name, check };
}

function bool(passes: boolean, key: string, params?: Record<string, ParamValue>, fields?: Record<string, string>): Verdict {
  if (passes) return PASS;
  return fields === undefined ? fail(key, params) : fail(key, params, { fields });
}

/** A condition: a boolean decided by the form, or "field `other` holds one of `values`". */
export type Condition = boolean | { field: string; is: readonly unknown[] };

function holds(condition: Condition, scope: RuleScope): boolean {
  if (typeof condition === 'boolean') return condition;
  const other = scope.other(condition.field);
  // Form text compares with a number or boolean variant by its text (`'1'` is `1`).
  const scalar = typeof other === 'string' || typeof other === 'number' || typeof other === 'boolean';
  return condition.is.some((candidate) => sameValue(candidate, other) || (scalar && String(other) === String(candidate)));
}

function conditionParams(condition: Condition): { params?: Record<string, ParamValue>; fields?: Record<string, string> } {
  if (typeof condition === 'boolean') return {};
  return { params: { value: condition.is.map(String).join(', ') }, fields: { other: condition.field } };
}

// ---- presence ----

export const required = shared(rule('required', (value) => bool(!isMissing(value), 'validation.required'), true));

export const requiredIf = (condition: Condition): Rule =>
  rule('requiredIf', (value, scope) => {
    if (!holds(condition, scope) || !isMissing(value)) return PASS;
    const { params, fields } = conditionParams(condition);
    return bool(false, typeof condition === 'boolean' ? 'validation.required' : 'validation.requiredIf', params, fields);
  }, true);

export const requiredUnless = (condition: Condition): Rule =>
  rule('requiredUnless', (value, scope) => {
    if (holds(condition, scope) || !isMissing(value)) return PASS;
    const { params, fields } = conditionParams(condition);
    return bool(false, typeof condition === 'boolean' ? 'validation.required' : 'validation.requiredUnless', params, fields);
  }, true);

const others = (list: readonly string[]): Record<string, string> => ({ values: list.join(' / ') });

export const requiredWith = (fields: readonly string[]): Rule =>
  rule('requiredWith', (value, scope) =>
    bool(!isMissing(value) || fields.every((other) => isMissing(scope.other(other))), 'validation.requiredWith', undefined, others(fields)), true);

export const requiredWithAll = (fields: readonly string[]): Rule =>
  rule('requiredWithAll', (value, scope) =>
    bool(!isMissing(value) || fields.some((other) => isMissing(scope.other(other))), 'validation.requiredWithAll', undefined, others(fields)), true);

export const requiredWithout = (fields: readonly string[]): Rule =>
  rule('requiredWithout', (value, scope) =>
    bool(!isMissing(value) || fields.every((other) => !isMissing(scope.other(other))), 'validation.requiredWithout', undefined, others(fields)), true);

export const prohibited = shared(rule('prohibited', (value) => bool(isMissing(value), 'validation.prohibited'), true));

export const prohibitedIf = (condition: Condition): Rule =>
  rule('prohibitedIf', (value, scope) => {
    if (!holds(condition, scope) || isMissing(value)) return PASS;
    const { params, fields } = conditionParams(condition);
    return bool(false, typeof condition === 'boolean' ? 'validation.prohibited' : 'validation.prohibitedIf', params, fields);
  }, true);

/** When this field is present, the `fields` must not be. */
export const prohibits = (fields: readonly string[]): Rule =>
  rule('prohibits', (value, scope) =>
    bool(isMissing(value) || fields.every((other) => isMissing(scope.other(other))), 'validation.prohibits', undefined, others(fields)), true);

const YES = new Set<unknown>([true, 1, 'on', '1', 'yes', 'true']);
const NO = new Set<unknown>([false, 0, 'off', '0', 'no', 'false']);

export const accepted = shared(rule('accepted', (value) => bool(YES.has(value), 'validation.accepted'), true));
export const declined = shared(rule('declined', (value) => bool(NO.has(value), 'validation.declined'), true));

// ---- size and compare ----

/** A size rule: refuses values without a size (a checkbox, a group) as if they were text. */
/** A value's size, reading number text as the number on a field with a number rule. */
function measure(value: unknown, scope: RuleScope): ReturnType<typeof sizeOf> {
  if (scope.numeric === true && typeof value === 'string' && value.length <= 400 && scope.formats.numeric(value.trim())) {
    return { size: Number(value.trim()), unit: 'numeric' };
  }
  return sizeOf(value);
}

/** `measure`'s size alone, without its object: the pass path of a size rule allocates nothing. */
function measuredSize(value: unknown, scope: RuleScope): number | null {
  if (scope.numeric === true && typeof value === 'string' && value.length <= 400 && scope.formats.numeric(value.trim())) return Number(value.trim());
  return sizeNumber(value);
}

function sized(name: string, fits: (size: number) => boolean, params: Record<string, number>, countParam: string): Rule {
  return rule(name, (value, scope) => {
    const size = measuredSize(value, scope);
    if (size !== null && fits(size)) return PASS;
    const unit: SizeUnit = measure(value, scope)?.unit ?? 'string';
    return fail(`validation.${name}.${unit}`, params, { count: params[countParam] ?? 0 });
  });
}

export const min = (limit: number): Rule => sized('min', (size) => size >= limit, { min: limit }, 'min');
export const max = (limit: number): Rule => sized('max', (size) => size <= limit, { max: limit }, 'max');
export const size = (exactly: number): Rule => sized('size', (measured) => measured === exactly, { size: exactly }, 'size');
export const between = (low: number, high: number): Rule => sized('between', (s) => s >= low && s <= high, { min: low, max: high }, 'max');

/**
 * `gt`, `gte`, `lt`, `lte`: compared with a number, or with another field's size (both
 * measured the same way: text by length, lists by items). Values of different kinds fail.
 */
function compared(name: 'gt' | 'gte' | 'lt' | 'lte', against: string | number, holdsFor: (a: number, b: number) => boolean): Rule {
  return rule(name, (value, scope) => {
    // Against a number the units always agree: the size alone decides a pass.
    if (typeof against === 'number') {
      const size = measuredSize(value, scope);
      if (size !== null && holdsFor(size, against)) return PASS;
    }
    const mine = measure(value, scope);
    const theirs = typeof against === 'number' ? { size: against, unit: mine?.unit ?? 'numeric' } : measure(scope.other(against), scope);
    const unit: SizeUnit = mine?.unit ?? theirs?.unit ?? 'numeric';
    if (mine !== null && theirs !== null && mine.unit === theirs.unit && holdsFor(mine.size, theirs.size)) return PASS;
    const shown = theirs === null ? (typeof against === 'number' ? against : 0) : theirs.size;
    return fail(`validation.${name}.${unit}`, { value: shown }, { count: shown });
  });
}

export const gt = (other: string | number): Rule => compared('gt', other, (a, b) => a > b);
export const gte = (other: string | number): Rule => compared('gte', other, (a, b) => a >= b);
export const lt = (other: string | number): Rule => compared('lt', other, (a, b) => a < b);
export const lte = (other: string | number): Rule => compared('lte', other, (a, b) => a <= b);

export const same = (other: string): Rule =>
  rule('same', (value, scope) => bool(sameValue(value, scope.other(other)), 'validation.same', undefined, { other }));

export const different = (other: string): Rule =>
  rule('different', (value, scope) => bool(!sameValue(value, scope.other(other)), 'validation.different', undefined, { other }));

/** Equal to `<field>_confirmation`, or to the value given. */
export const confirmed = (...given: unknown[]): Rule =>
  rule('confirmed', (value, scope) => bool(sameValue(value, given.length > 0 ? given[0] : scope.other(`${scope.field}_confirmation`)), 'validation.confirmed'));

/** Among `values`, compared exactly (coerce first, e.g. with the `integer()` field). */
export const oneOf = (values: readonly unknown[]): Rule =>
  rule('oneOf', (value) => bool(values.some((candidate) => sameValue(candidate, value)), 'validation.oneOf'));

export const noneOf = (values: readonly unknown[]): Rule =>
  rule('noneOf', (value) => bool(!values.some((candidate) => sameValue(candidate, value)), 'validation.noneOf'));

/** Indexes of a list's items equal to an earlier item (the second `a` of `[a, b, a]`). */
export function duplicateIndexes(list: readonly unknown[], ignoreCase = false): number[] {
  const seen: unknown[] = [];
  const duplicates: number[] = [];
  list.forEach((item, index) => {
    const key = ignoreCase && typeof item === 'string' ? item.toLowerCase() : item;
    if (seen.some((earlier) => sameValue(earlier, key))) duplicates.push(index);
    else seen.push(key);
  });
  return duplicates;
}

/** A list without repeated items; `v.distinct(name)` puts the error on each repeat instead. */
export const distinct = (options: { ignoreCase?: boolean } = {}): Rule =>
  rule('distinct', (value) => bool(!Array.isArray(value) || duplicateIndexes(value as unknown[], options.ignoreCase).length === 0, 'validation.distinct'));

// ---- text ----

function textRule(name: string, accepts: (text: string, formats: FormatChecks) => boolean, params?: Record<string, ParamValue>): Rule {
  const key = `validation.${name}`; // made once, not on every value judged
  return rule(name, (value, scope) => bool(typeof value === 'string' && accepts(value, scope.formats), key, params));
}

export const email = shared(textRule('email', (text, f) => f.email(text)));
export const url = shared(textRule('url', (text, f) => f.url(text)));
export const uuid = shared(textRule('uuid', (text, f) => f.uuid(text)));
export const ulid = shared(textRule('ulid', (text, f) => f.ulid(text)));
export const ip = shared(textRule('ip', (text, f) => f.ip(text)));
export const macAddress = shared(textRule('macAddress', (text, f) => f.macAddress(text)));
export const json = shared(textRule('json', (text, f) => f.json(text)));
export const timezone = shared(textRule('timezone', (text, f) => f.timezone(text)));
export const hexColor = shared(textRule('hexColor', (text, f) => f.hexColor(text)));
export const ascii = shared(textRule('ascii', (text, f) => f.ascii(text)));

/** Without g/y a RegExp keeps no lastIndex, so the same pattern gives the same answer twice. */
function stateless(pattern: RegExp): RegExp {
  return new RegExp(pattern.source, pattern.flags.replace(/[gy]/gu, ''));
}

/** Text the pattern finds a match in; anchor it (`^…$`) to match the whole value. */
export const matches = (pattern: RegExp): Rule => {
  const re = stateless(pattern);
  return textRule('matches', (text) => re.test(text));
};

export const notMatches = (pattern: RegExp): Rule => {
  const re = stateless(pattern);
  return textRule('notMatches', (text) => !re.test(text));
};

// Letters and marks of any script, as Laravel's alpha rules (Unicode classes, not a format).
const LETTERS = /^[\p{L}\p{M}]+$/u;
const LETTERS_DIGITS = /^[\p{L}\p{M}\p{N}]+$/u;
const LETTERS_DIGITS_DASHES = /^[\p{L}\p{M}\p{N}_-]+$/u;

export const alpha = shared(textRule('alpha', (text) => LETTERS.test(text)));
export const alphaNum = shared(textRule('alphaNum', (text) => LETTERS_DIGITS.test(text)));
export const alphaDash = shared(textRule('alphaDash', (text) => LETTERS_DIGITS_DASHES.test(text)));
export const lowercase = shared(textRule('lowercase', (text) => text === text.toLowerCase()));
export const uppercase = shared(textRule('uppercase', (text) => text === text.toUpperCase()));

export const startsWith = (prefixes: readonly string[]): Rule =>
  textRule('startsWith', (text) => prefixes.some((prefix) => text.startsWith(prefix)), { values: prefixes.join(', ') });

export const endsWith = (suffixes: readonly string[]): Rule =>
  textRule('endsWith', (text) => suffixes.some((suffix) => text.endsWith(suffix)), { values: suffixes.join(', ') });

// ---- numbers ----

/** A finite number, or text a number is written in. */
function numberText(value: unknown, formats: FormatChecks): string | null {
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : null;
  if (typeof value === 'string' && value.length <= 400 && formats.numeric(value.trim())) return value.trim();
  return null;
}

export const numeric = shared(rule('numeric', (value, scope) => bool(numberText(value, scope.formats) !== null, 'validation.numeric')));

export const integer = shared(
  rule('integer', (value, scope) =>
    bool(typeof value === 'number' ? Number.isSafeInteger(value) : typeof value === 'string' && value.length <= 400 && scope.formats.integer(value.trim()), 'validation.integer')),
);

/** A number with between `low` and `high` decimal places (`decimal(2, 2)` for money). */
export const decimal = (low: number, high: number = low): Rule =>
  rule('decimal', (value, scope) => {
    const text = numberText(value, scope.formats);
    const places = text === null || /e/iu.test(text) ? -1 : decimalPlaces(text);
    return bool(places >= low && places <= high, 'validation.decimal', { decimal: low === high ? `${low}` : `${low}-${high}` });
  });

/** What `(text.split('.')[1] ?? '').length` gives, without the array: the characters after the first point, up to a second. */
function decimalPlaces(text: string): number {
  const point = text.indexOf('.');
  if (point === -1) return 0;
  const next = text.indexOf('.', point + 1);
  return (next === -1 ? text.length : next) - point - 1;
}

/** The digits of a whole number written without sign or point; null for anything else. */
function digitCount(value: unknown): number | null {
  const text = typeof value === 'number' ? (Number.isSafeInteger(value) && value >= 0 ? String(value) : '') : typeof value === 'string' ? value : '';
  if (text === '' || text.length > 10_000) return null;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 48 || code > 57) return null;
  }
  return text.length;
}

export const digits = (n: number): Rule => rule('digits', (value) => bool(digitCount(value) === n, 'validation.digits', { digits: n }));

export const digitsBetween = (low: number, high: number): Rule =>
  rule('digitsBetween', (value) => {
    const count = digitCount(value);
    return bool(count !== null && count >= low && count <= high, 'validation.digitsBetween', { min: low, max: high });
  });

export const minDigits = (n: number): Rule =>
  rule('minDigits', (value) => {
    const count = digitCount(value);
    return bool(count !== null && count >= n, 'validation.minDigits', { min: n });
  });

/** A number that `n` divides; decimals are compared with a small tolerance (0.3 is a multiple of 0.1). */
export const multipleOf = (n: number): Rule =>
  rule('multipleOf', (value, scope) => {
    const text = numberText(value, scope.formats);
    const number = text === null ? Number.NaN : Number(text);
    if (!Number.isFinite(number) || n === 0 || !Number.isFinite(n)) return fail('validation.multipleOf', { value: n });
    const quotient = number / n;
    return bool(Math.abs(quotient - Math.round(quotient)) < 1e-9 * Math.max(1, Math.abs(quotient)), 'validation.multipleOf', { value: n });
  });

// ---- dates ----

/** A date as milliseconds: a valid `Date`, or ISO 8601 text. */
function timeOf(value: unknown, formats: FormatChecks): number | null {
  if (value instanceof Date) return Number.isNaN(value.getTime()) ? null : value.getTime();
  if (typeof value === 'string' && value.length <= 100) return formats.date(value.trim());
  return null;
}

export const date = shared(rule('date', (value, scope) => bool(timeOf(value, scope.formats) !== null, 'validation.date')));

/**
 * `before`, `after`, `afterOrEqual`: against a `Date`, date text, or another field's value
 * (a name that is no date: `after('starts_at')`). The domain reads no clock: pass "today".
 */
function dated(name: 'before' | 'after' | 'afterOrEqual', when: Date | string, holdsFor: (a: number, b: number) => boolean): Rule {
  // A fixed date is parsed once per format checks (they arrive with the value judged; a rule
  // made once may serve forms with other checks).
  let fixed: number | null = null;
  let parsedBy: FormatChecks | undefined;
  return rule(name, (value, scope) => {
    if (parsedBy !== scope.formats) {
      fixed = timeOf(when, scope.formats);
      parsedBy = scope.formats;
    }
    const direct = fixed;
    const other = direct ?? (typeof when === 'string' ? timeOf(scope.other(when), scope.formats) : null);
    const mine = timeOf(value, scope.formats);
    const passes = mine !== null && other !== null && holdsFor(mine, other);
    if (passes) return PASS;
    if (direct === null && typeof when === 'string') return fail(`validation.${name}`, undefined, { fields: { date: when } });
    return fail(`validation.${name}`, { date: when instanceof Date ? when.toISOString().slice(0, 10) : String(when) });
  });
}

export const before = (when: Date | string): Rule => dated('before', when, (a, b) => a < b);
export const after = (when: Date | string): Rule => dated('after', when, (a, b) => a > b);
export const afterOrEqual = (when: Date | string): Rule => dated('afterOrEqual', when, (a, b) => a >= b);

// ---- files ----

export const file = shared(rule('file', (value) => bool(isUploadedFile(value), 'validation.file')));

export const image = shared(rule('image', (value) => bool(isUploadedFile(value) && isImage(value), 'validation.image')));

/** An upload whose sniffed type is one of these, by extension (`jpg`, `png`) or media type (`image/*`). */
export const mimes = (kinds: readonly string[]): Rule =>
  rule('mimes', (value) => bool(isUploadedFile(value) && matchesTypes(value, kinds), 'validation.mimes', { values: kinds.join(', ') }));

/** An image whose header size meets the bounds (`new Dimensions().minWidth(100)` or a plain object). */
export const dimensions = (bounds: Dimensions | DimensionConstraints): Rule => {
  const constraints = bounds instanceof Dimensions ? bounds.constraints : bounds;
  return rule('dimensions', (value) => bool(isUploadedFile(value) && fitsDimensions(value, constraints), 'validation.dimensions'));
};

// ---- custom ----

/** A check the form decides in place: `rule(start < end, 'The end comes after the start.')`. */
export const condition = (passes: boolean, message: string): Rule => rule('rule', () => bool(passes, message), true);

/** A reusable rule from a yes/no function: `defineRule('slug', (v) => …, 'validation.slug')`. */
export function defineRule(name: string, passes: (value: unknown, scope: RuleScope) => boolean, message: string = `validation.${name}`): Rule {
  return rule(name, (value, scope) => {
    try {
      return bool(passes(value, scope), message);
    } catch {
      return fail(message); // an app's rule that throws on odd input still only fails the field
    }
  });
}
