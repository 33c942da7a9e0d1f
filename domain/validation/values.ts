/**
 * Reading form values: dotted paths, "missing" and "size", the three notions every rule of
 * the table shares. Total functions: any value in, an answer out.
 */
import { isUploadedFile } from './uploaded-file.js';

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The value at a dotted path (`address.city`, `tags.0`); undefined when any step is missing. */
export function readPath(values: unknown, path: string): unknown {
  // Most fields are top-level names: no split, no array (a form validates thousands a second).
  if (!path.includes('.')) return step(values, path);
  let current = values;
  for (const segment of path.split('.')) current = step(current, segment);
  return current;
}

function step(value: unknown, segment: string): unknown {
  if (isRecord(value)) return Object.hasOwn(value, segment) ? value[segment] : undefined;
  if (Array.isArray(value)) return /^\d+$/u.test(segment) ? (value as unknown[])[Number(segment)] : undefined;
  return undefined;
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

/** What a size rule measures, and the message family it picks (`validation.min.string`…). */
export type SizeUnit = 'string' | 'numeric' | 'array' | 'file';

/**
 * What `min`, `max`, `size`, `between`, `gt`… compare: characters of text (code points, so
 * an emoji is one), the value of a number, the items of a list, the kilobytes of an upload.
 * Null for anything else, which those rules refuse.
 */
export function sizeOf(value: unknown): { size: number; unit: SizeUnit } | null {
  const size = sizeNumber(value);
  if (size === null) return null;
  return { size, unit: typeof value === 'string' ? 'string' : typeof value === 'number' ? 'numeric' : Array.isArray(value) ? 'array' : 'file' };
}

/** `sizeOf(value)?.size` without the object (size rules measure thousands of values a second). */
export function sizeNumber(value: unknown): number | null {
  if (typeof value === 'string') return codePoints(value);
  if (typeof value === 'number') return Number.isFinite(value) ? value : null;
  if (Array.isArray(value)) return value.length;
  if (isUploadedFile(value)) return value.size / 1024;
  return null;
}

function codePoints(text: string): number {
  let count = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      const next = text.charCodeAt(i + 1);
      if (next >= 0xdc00 && next <= 0xdfff) i++;
    }
    count++;
  }
  return count;
}

/** Deep equality for form values (text, numbers, lists, groups); cycles compare as unequal. */
export function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  if (depth > 64 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  const keysA = Object.keys(a);
  const keysB = Object.keys(b);
  if (keysA.length !== keysB.length) return false;
  return keysA.every((key) => Object.hasOwn(b, key) && sameValue((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], depth + 1));
}
