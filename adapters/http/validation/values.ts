import type { SizeUnit } from './messages.js';

/** Form input after coercion: fields by name, nested groups and lists below them. */
export type FormValues = Readonly<Record<string, unknown>>;

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path (`address.city`, `tags.0`); undefined when any step is missing. */
export function readPath(values: unknown, path: string): unknown {
  let current = values;
  for (const segment of path.split('.')) {
    if (isRecord(current)) current = current[segment];
    else if (Array.isArray(current)) current = (current as unknown[])[Number(segment)];
    else return undefined;
  }
  return current;
}

/**
 * Not given, as far as presence rules go: nothing, blank text, an empty list. `false` and
 * `0` are values (an unticked checkbox is "no", not "missing"; `accepted` asks for "yes").
 */
export function isMissing(value: unknown): boolean {
  if (value === undefined || value === null) return true;
  if (typeof value === 'string') return value.trim() === '';
  if (Array.isArray(value)) return value.length === 0;
  return false;
}

/**
 * What `min`, `max` and `between` compare: characters of text (code points, so an emoji is
 * one, as in the password policy), the value of a number, the items of a list. Null for
 * anything else, which those rules refuse.
 */
export function sizeOf(value: unknown): { size: number; unit: SizeUnit } | null {
  if (typeof value === 'string') return { size: [...value].length, unit: 'characters' };
  if (typeof value === 'number' && Number.isFinite(value)) return { size: value, unit: 'number' };
  if (Array.isArray(value)) return { size: value.length, unit: 'items' };
  return null;
}
