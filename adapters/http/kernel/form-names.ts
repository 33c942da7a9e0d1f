import { randomUUID } from 'node:crypto';
import qs from 'qs';
import { BODY_TOO_DEEP } from './refusal-messages.js';

/**
 * Bracketed field names of an HTML form (`address[city]`, `tags[]`, `items[0][name]`) read as
 * nested groups and lists, so `each('items', …)`, `nested(…)` and the errors `items.0.name`
 * work with real forms, on both transports, urlencoded or multipart. The names are read by
 * `qs` (the standard reader, pinned), with its limits:
 *
 * - nested deeper than BODY_MAX_DEPTH: refused (`too-deep`, 400 with the depth sentence);
 * - a list index of `MAX_LIST_INDEX` or more (indices 0–999), or more than that many `[]` items: refused
 *   (`too-many-items`, 400) rather than read as a group keyed by numbers;
 * - indices with gaps (`items[0]`, `items[2]`) are read in order as a list without holes
 *   (qs's reading): the errors and old input then follow the list as re-shown;
 * - `__proto__` is never a key; a nested `constructor` or `toString` is dropped
 *   (`allowPrototypes: false`); names without brackets stay as they came (in the fields'
 *   prototype-less object, so a field named `constructor` is still a field).
 *
 * An uploaded file is a leaf: qs merges objects met twice under one name, and a file must
 * never take fields from text (`doc[path]=/etc/passwd` beside the file `doc`). Files enter qs
 * as unguessable stand-in text and are put back after.
 */
export const MAX_LIST_INDEX = 1000;

export const TOO_MANY_ITEMS = 'The form has a list with too many items.';

export type NestedForm = { ok: true; fields: Record<string, unknown> } | { ok: false; reason: 'too-deep' | 'too-many-items' };

/** The sentence of a refused form (400). */
export function formNamesRefusal(reason: 'too-deep' | 'too-many-items'): string {
  return reason === 'too-deep' ? BODY_TOO_DEEP : TOO_MANY_ITEMS;
}

export function nestFormNames(fields: Record<string, unknown>, maxDepth: number): NestedForm {
  const names = Object.keys(fields);
  const bracketed = names.filter(hasBrackets);
  if (bracketed.length === 0) return { ok: true, fields };

  const files = new Map<string, unknown>();
  const prefix = `\u0000fw-upload:${randomUUID()}:`;
  const standIn = (value: unknown): unknown => {
    if (Array.isArray(value)) return value.map(standIn);
    if (typeof value !== 'object' || value === null) return value;
    const key = `${prefix}${files.size}`;
    files.set(key, value);
    return key;
  };
  // A flat name met again in brackets (`a=1&a[b]=2`) goes through qs with them, as qs would merge it.
  const parents = new Set(bracketed.map((name) => name.slice(0, name.indexOf('['))));
  const given: Record<string, unknown> = {};
  const nested: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
  for (const name of names) {
    if (hasBrackets(name) || parents.has(name)) given[name] = standIn(fields[name]);
    else nested[name] = fields[name];
  }
  let parsed: Record<string, unknown>;
  try {
    parsed = qs.parse(given as Record<string, string>, {
      depth: Math.max(maxDepth - 1, 0),
      strictDepth: true,
      arrayLimit: MAX_LIST_INDEX,
      throwOnLimitExceeded: true,
      allowPrototypes: false,
      plainObjects: false,
      allowDots: false,
      parseArrays: true,
    });
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    return { ok: false, reason: /depth/iu.test(error.message) ? 'too-deep' : 'too-many-items' };
  }
  for (const [name, value] of Object.entries(parsed)) nested[name] = files.size === 0 ? value : putBack(value, files);
  return { ok: true, fields: nested };
}

/** A name with a bracket after its first character (`[x]` alone is no nesting, as in qs). */
function hasBrackets(name: string): boolean {
  return name.indexOf('[') > 0;
}

function putBack(value: unknown, files: ReadonlyMap<string, unknown>): unknown {
  if (typeof value === 'string') return files.has(value) ? files.get(value) : value;
  if (Array.isArray(value)) return value.map((item) => putBack(item, files));
  if (typeof value === 'object' && value !== null) {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = putBack(record[key], files);
  }
  return value;
}
