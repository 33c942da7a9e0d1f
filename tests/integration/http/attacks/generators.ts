import { randomBytes } from 'node:crypto';
import fc from 'fast-check';

/** A fresh APP_KEY, different from every other one in the run. */
export function anotherAppKey(): string {
  return `base64:${randomBytes(32).toString('base64')}`;
}

/** Characters a header value may hold (visible ASCII, space, and latin1 obs-text), as node:http lets them through. */
export const headerText = (options: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc.string({
    unit: fc.oneof(
      { weight: 8, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)) },
      { weight: 1, arbitrary: fc.constant(' ') },
      { weight: 1, arbitrary: fc.integer({ min: 0xa0, max: 0xff }).map((code) => String.fromCharCode(code)) },
    ),
    ...options,
  });

/** Text of the base64url alphabet, the one @hapi/iron writes. */
export const base64urlText = (options: { minLength?: number; maxLength?: number } = {}): fc.Arbitrary<string> =>
  fc.string({ unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'), ...options });

/** Splits `items` into `parts` consecutive non-empty runs (fewer when there are fewer items). */
export function splitInto<T>(items: readonly T[], parts: number): T[][] {
  const count = Math.max(1, Math.min(parts, items.length));
  const runs: T[][] = [];
  for (let index = 0; index < count; index++) {
    runs.push(items.slice(Math.floor((index * items.length) / count), Math.floor(((index + 1) * items.length) / count)));
  }
  return runs;
}
