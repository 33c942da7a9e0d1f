import { copyJson, isPlainRecord } from './json.js';
import type { JsonObject, JsonValue } from './json.js';
import { MisuseError } from '../shared/errors.js';

/**
 * A failed form is sent back with its input and errors as flashed values under these keys, so
 * aging, `reflash` and `keep` treat them like any other flashed value. Only the typed helpers
 * may write them: a stray `flash('_errors', 'x')` would break every template reading errors.
 */
export const OLD_INPUT_KEY = '_old_input';
export const ERRORS_KEY = '_errors';
export const RESERVED_FLASH_KEYS: ReadonlySet<string> = new Set([OLD_INPUT_KEY, ERRORS_KEY]);

/**
 * Fields never flashed back: a password would otherwise sit in the session (with the cookie
 * driver, in the browser) for another request, and the CSRF token has its own place.
 */
export const DONT_FLASH: ReadonlySet<string> = new Set(['password', 'password_confirmation', 'current_password', '_token']);

export const DEFAULT_ERROR_BAG = 'default';

export type ErrorBag = Readonly<Record<string, readonly string[]>>;
export type ErrorBags = Readonly<Record<string, ErrorBag>>;

/**
 * The input worth refilling a form with. Values that are not JSON (an uploaded file) are left
 * out rather than refused: a file input cannot be refilled anyway, and the caller passes the
 * whole form.
 */
/**
 * Old input goes back through the session, which for the cookie driver must stay under 4 KB:
 * a field longer than this (a pasted megabyte) is not sent back, and neither is anything past
 * the total. The visitor retypes that field; the error still shows.
 */
export const OLD_INPUT_MAX_FIELD_CHARS = 1000;
export const OLD_INPUT_MAX_TOTAL_CHARS = 2000;

export function oldInputFrom(input: Record<string, unknown>): JsonObject {
  if (!isPlainRecord(input)) throw new MisuseError('session.bad-flash', 'flashInput expects a plain object of fields');
  const kept: [string, JsonValue][] = [];
  let total = 0;
  for (const [field, value] of Object.entries(input)) {
    if (DONT_FLASH.has(field) || value === undefined) continue;
    const copy = copyJson(value);
    if (!copy.ok) continue;
    const size = field.length + JSON.stringify(copy.value).length;
    if (size > OLD_INPUT_MAX_FIELD_CHARS || total + size > OLD_INPUT_MAX_TOTAL_CHARS) continue;
    total += size;
    kept.push([field, copy.value]);
  }
  return Object.freeze(Object.fromEntries(kept));
}

export function errorBagFrom(errors: Record<string, string[]>): ErrorBag {
  if (!isPlainRecord(errors)) throw new MisuseError('session.bad-flash', 'flashErrors expects a plain object of field → messages');
  const fields: [string, readonly string[]][] = [];
  for (const [field, messages] of Object.entries(errors)) {
    if (!isMessages(messages)) throw new MisuseError('session.bad-flash', `flashErrors: the messages of "${field}" must be an array of strings`);
    fields.push([field, Object.freeze([...messages])]);
  }
  return Object.freeze(Object.fromEntries(fields));
}

export function checkBagName(bag: string): string {
  if (typeof bag !== 'string' || bag === '') throw new MisuseError('session.bad-error-bag', 'An error bag name must be a non-empty string');
  return bag;
}

export function isOldInput(value: JsonValue | undefined): value is JsonObject {
  return isPlainRecord(value);
}

export function isErrorBags(value: JsonValue | undefined): value is ErrorBags {
  return isPlainRecord(value) && Object.values(value).every((bag) => isPlainRecord(bag) && Object.values(bag).every(isMessages));
}

function isMessages(value: unknown): value is readonly string[] {
  return Array.isArray(value) && value.every((message) => typeof message === 'string');
}

/**
 * A field of the old input: its exact name first, then a dot path into nested input
 * (`old('address.city')`, `old('items.0.name')`), as form bodies with bracketed names nest.
 */
export function lookupOld(input: JsonObject, field: string): JsonValue | undefined {
  if (Object.hasOwn(input, field)) return input[field];
  let current: JsonValue | undefined = input;
  for (const part of field.split('.')) {
    if (isPlainRecord(current)) {
      current = Object.hasOwn(current, part) ? current[part] : undefined;
    } else if (isJsonArray(current) && /^(0|[1-9]\d*)$/u.test(part)) {
      current = current[Number(part)];
    } else {
      return undefined;
    }
  }
  return current;
}

function isJsonArray(value: JsonValue | undefined): value is readonly JsonValue[] {
  return Array.isArray(value);
}
