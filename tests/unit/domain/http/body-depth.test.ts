import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { bodyDepthWithin } from '../../../../domain/http/body-depth.js';

/** `levels` arrays or objects inside each other, the innermost holding a scalar. */
function nested(levels: number, kind: (level: number) => 'array' | 'object'): unknown {
  let value: unknown = 1;
  for (let level = 0; level < levels; level++) value = kind(level) === 'array' ? [value] : { a: value };
  return value;
}

describe('body depth', () => {
  it.each([
    ['a scalar', 'text', 0],
    ['null', null, 0],
    ['a flat form', { email: 'a@b.c', password: 'x' }, 1],
    ['an empty list', [], 1],
    ['a list of tags', { tags: ['a', 'b'] }, 2],
    ['bytes (a file) count as a value', { file: Buffer.from('abc') }, 1],
    ['rows of an order', { items: [{ name: 'x', options: { size: 'M' } }] }, 4],
  ])('%s is %i deep', (_name, value, depth) => {
    expect(bodyDepthWithin(value, depth)).toBe(true);
    if (depth > 0) expect(bodyDepthWithin(value, depth - 1)).toBe(false);
  });

  it('refuses 5000 nested arrays, objects, or a mix, without overflowing its own stack', () => {
    for (const kind of [() => 'array' as const, () => 'object' as const, (level: number) => (level % 2 === 0 ? 'array' : 'object')] as const) {
      expect(bodyDepthWithin(nested(5000, kind), 32)).toBe(false);
      expect(bodyDepthWithin(nested(100_000, kind), 32)).toBe(false);
    }
  });

  it('agrees with the depth a value was built with (fast-check)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 80 }), fc.integer({ min: 1, max: 64 }), fc.boolean(), (levels, max, arrays) => {
        const value = nested(levels, () => (arrays ? 'array' : 'object'));
        return bodyDepthWithin(value, max) === levels <= max;
      }),
    );
  });

  it('measures the deepest branch, not the first (fast-check over JSON values)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const depth = (v: unknown): number => (typeof v === 'object' && v !== null ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0);
        const actual = depth(value);
        return bodyDepthWithin(value, actual) && (actual === 0 || !bodyDepthWithin(value, actual - 1));
      }),
    );
  });
});
