import { MisuseError } from '../shared/errors.js';
/**
 * Session data must survive `JSON.stringify` → `JSON.parse` unchanged, because both drivers
 * (cookie and database) store it as JSON. Values are checked and copied when they enter the
 * session, so a `Date`, a `Map` or a class instance fails at `put` with a TypeError instead of
 * silently coming back as something else on the next request.
 */
export type JsonValue = null | boolean | number | string | readonly JsonValue[] | JsonObject;
export type JsonObject = { readonly [key: string]: JsonValue };

/** Deep enough for any real session value; the bound keeps recursion far from the stack limit. */
export const JSON_MAX_DEPTH = 64;

export type JsonCopy = { ok: true; value: JsonValue } | { ok: false; path: string; reason: string };

/**
 * A deep copy of `value` as plain, frozen JSON, or where and why it is not JSON. The copy is
 * frozen so that code holding a value read from the session cannot change it behind the
 * session's back (such a change would be neither persisted nor marked dirty).
 */
export function copyJson(value: unknown, path = '$'): JsonCopy {
  return copyAt(value, path, 0, new Set());
}

function copyAt(value: unknown, path: string, depth: number, ancestors: Set<object>): JsonCopy {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return { ok: true, value };
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return { ok: false, path, reason: 'is not a finite number' };
    // JSON writes -0 as 0: normalising here keeps the value read now equal to the one read later.
    return { ok: true, value: value === 0 ? 0 : value };
  }
  if (typeof value !== 'object') return { ok: false, path, reason: `is a ${typeof value}` };
  if (ancestors.has(value)) return { ok: false, path, reason: 'is circular' };
  if (depth >= JSON_MAX_DEPTH) return { ok: false, path, reason: `is nested deeper than ${JSON_MAX_DEPTH} levels` };
  ancestors.add(value);
  try {
    return Array.isArray(value) ? copyArray(value, path, depth, ancestors) : copyObject(value, path, depth, ancestors);
  } finally {
    ancestors.delete(value);
  }
}

function copyArray(value: readonly unknown[], path: string, depth: number, ancestors: Set<object>): JsonCopy {
  const items: JsonValue[] = [];
  for (let i = 0; i < value.length; i += 1) {
    // A hole or an undefined item would come back as null.
    if (!(i in value) || value[i] === undefined) return { ok: false, path: `${path}[${i}]`, reason: 'is undefined' };
    const item = copyAt(value[i], `${path}[${i}]`, depth + 1, ancestors);
    if (!item.ok) return item;
    items.push(item.value);
  }
  return { ok: true, value: Object.freeze(items) };
}

function copyObject(value: object, path: string, depth: number, ancestors: Set<object>): JsonCopy {
  const proto: unknown = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    const name = (value.constructor as { name?: unknown } | undefined)?.name;
    return { ok: false, path, reason: `is a ${typeof name === 'string' && name !== '' ? name : 'non-plain object'}` };
  }
  const entries: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    // JSON.stringify leaves out undefined properties, and so does the copy: `{ a: undefined }` reads back as `{}`.
    if (item === undefined) continue;
    const copied = copyAt(item, `${path}.${key}`, depth + 1, ancestors);
    if (!copied.ok) return copied;
    entries.push([key, copied.value]);
  }
  // fromEntries defines own properties, so a `__proto__` key stays data and never becomes a prototype.
  return { ok: true, value: Object.freeze(Object.fromEntries(entries)) };
}

/** The copy, or a TypeError naming the offending part: for values handed in by the app's code. */
export function jsonOrThrow(value: unknown, what: string): JsonValue {
  const copy = copyJson(value, what);
  if (!copy.ok) throw new MisuseError('session.not-json', `${copy.path} ${copy.reason}; session values must be JSON`);
  return copy.value;
}

export function isPlainRecord(value: unknown): value is Record<string, unknown> {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const proto: unknown = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}
