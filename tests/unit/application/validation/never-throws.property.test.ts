/**
 * Bad input: every rule of the table, fed random strings, numbers, arrays, objects, huge and
 * deeply nested values, gives a pass or a validation error, never an exception.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FieldRules } from '../../../../application/validation/field-rules.js';
import { Dimensions } from '../../../../domain/validation/uploaded-file.js';
import { defineRule } from '../../../../domain/validation/rules.js';
import { german } from '../../../support/lang.js';
import { errorsOf } from './support.js';

const CHAINS: Record<string, (r: FieldRules) => void> = {
  required: (r) => r.required(),
  requiredIf: (r) => r.requiredIf({ field: 'y', is: ['a', 1] }),
  requiredUnless: (r) => r.requiredUnless({ field: 'y', is: ['a'] }),
  requiredWith: (r) => r.requiredWith('y'),
  requiredWithAll: (r) => r.requiredWithAll(['y', 'z']),
  requiredWithout: (r) => r.requiredWithout('y'),
  prohibited: (r) => r.prohibited(),
  prohibitedIf: (r) => r.prohibitedIf({ field: 'y', is: [true] }),
  prohibits: (r) => r.prohibits('y'),
  accepted: (r) => r.accepted(),
  declined: (r) => r.declined(),
  min: (r) => r.min(3),
  max: (r) => r.max(3),
  size: (r) => r.size(3),
  between: (r) => r.between(1, 3),
  gt: (r) => r.gt('y'),
  gte: (r) => r.gte(2),
  lt: (r) => r.lt('y'),
  lte: (r) => r.lte(2),
  same: (r) => r.same('y'),
  different: (r) => r.different('y'),
  confirmed: (r) => r.confirmed(),
  oneOf: (r) => r.oneOf(['a', 1, { a: 1 }]),
  noneOf: (r) => r.noneOf(['a']),
  distinct: (r) => r.distinct({ ignoreCase: true }),
  email: (r) => r.email(),
  url: (r) => r.url(),
  matches: (r) => r.matches(/^a+$/u),
  notMatches: (r) => r.notMatches(/b/gu),
  alpha: (r) => r.alpha(),
  alphaNum: (r) => r.alphaNum(),
  alphaDash: (r) => r.alphaDash(),
  lowercase: (r) => r.lowercase(),
  uppercase: (r) => r.uppercase(),
  startsWith: (r) => r.startsWith('a'),
  endsWith: (r) => r.endsWith('z'),
  ascii: (r) => r.ascii(),
  uuid: (r) => r.uuid(),
  ulid: (r) => r.ulid(),
  ip: (r) => r.ip(),
  macAddress: (r) => r.macAddress(),
  json: (r) => r.json(),
  timezone: (r) => r.timezone(),
  hexColor: (r) => r.hexColor(),
  numeric: (r) => r.numeric(),
  integer: (r) => r.integer(),
  decimal: (r) => r.decimal(0, 2),
  digits: (r) => r.digits(3),
  digitsBetween: (r) => r.digitsBetween(1, 3),
  minDigits: (r) => r.minDigits(2),
  multipleOf: (r) => r.multipleOf(0.1),
  date: (r) => r.date(),
  before: (r) => r.before('y'),
  after: (r) => r.after(new Date(0)),
  afterOrEqual: (r) => r.afterOrEqual('2020-01-01'),
  unique: (r) => r.unique('users', 'email').ignore(1),
  exists: (r) => r.exists('users', 'email'),
  image: (r) => r.image(),
  mimes: (r) => r.mimes('png', 'application/pdf'),
  dimensions: (r) => r.dimensions(new Dimensions().ratio(2).maxWidth(10)),
  file: (r) => r.file(),
  apply: (r) => r.apply(defineRule('odd', (value) => (value as { length: number }).length % 2 === 1)),
  rule: (r) => r.rule(false, 'No.'),
  message: (r) => r.max(1).message('validation.required'),
  label: (r) => r.label('thing').min(1),
  currentPassword: (r) => r.currentPassword(),
};

/** Strings, numbers, lists, objects, huge and deeply nested values, and lookalikes of uploads. */
const hostile = fc.oneof(
  fc.anything({ maxDepth: 4, withBigInt: true, withDate: true, withMap: true, withSet: true, withNullPrototype: true, withTypedArray: true, withSparseArray: true }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.double(),
  fc.constantFrom('x'.repeat(1_000_000), '1'.repeat(100_000), '['.repeat(50_000), '{"a":'.repeat(20_000), '\u0000', '\uD800', NaN, -0, Infinity),
  fc.constant(nested(5_000)),
  fc.record({
    originalName: fc.string(),
    size: fc.double(),
    sniffedType: fc.oneof(fc.constant(null), fc.string()),
    sniffedExtension: fc.oneof(fc.constant(null), fc.string()),
    dimensions: fc.oneof(fc.constant(null), fc.record({ width: fc.double(), height: fc.double() })),
  }),
);

function nested(depth: number): unknown {
  let value: unknown = 'bottom';
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('every rule on hostile values: a pass or an error, never an exception', () => {
  it.each(Object.entries(CHAINS))('%s', async (_name, chain) => {
    await fc.assert(
      fc.asyncProperty(hostile, hostile, async (x, y) => {
        const errors = await errorsOf({ x, y, x_confirmation: y }, (v) => {
          chain(v.field('x'));
          v.each('x', (item) => chain(item));
          v.distinct('x');
        }, german);
        for (const messages of Object.values(errors)) {
          expect(messages.every((message) => typeof message === 'string' && message.length > 0)).toBe(true);
        }
      }),
      { numRuns: 60 },
    );
  });
});
