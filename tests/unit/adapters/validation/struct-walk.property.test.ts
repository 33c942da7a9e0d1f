import fc from 'fast-check';
import { coerce, integer as ssInteger, number as ssNumber, object, optional, refine, string, array } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { checkbox, integer, list, number, oneOf, optionalText, text } from '../../../../adapters/http/validation/fields.js';
import { DOES_NOT_FIT, rootContext, walkerOf } from '../../../../adapters/http/validation/struct-walk.js';
import { plainDate, validatorFormatChecks } from '../../../../adapters/validation/validator-format-checks.js';
import validator from 'validator';

/**
 * The direct walk of a form's struct must give exactly what superstruct's `validate` gives
 * (coerce + mask) for input that fits, and give up on input that does not: fw's own fields,
 * superstruct's (optional, refined, coerced, arrays), a nested group, extra keys.
 */
const struct = object({
  name: text(),
  password: text({ trim: false }),
  bio: optionalText(),
  age: integer(),
  ratio: number(),
  terms: checkbox(),
  tags: list(),
  numbers: list(integer()),
  country: oneOf(['de', 'fr', 1] as const),
  nick: optional(string()),
  count: optional(integer()),
  even: refine(integer(), 'even', (n) => n % 2 === 0),
  plain: coerce(ssInteger(), string(), (t) => Number(t)),
  scores: optional(array(ssNumber())),
  address: optional(object({ city: text(), zip: optionalText() })),
});

const scalar = fc.oneof(
  fc.constantFrom('', ' ', 'on', 'off', '1', '0', 'true', 'de', 'fr', '1.5', '-3', '42', ' x ', '\uFFFD', 'constructor'),
  fc.string({ maxLength: 6 }),
  fc.integer({ min: -5, max: 5 }),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.constant(undefined),
);
const value = fc.oneof(scalar, fc.array(scalar, { maxLength: 3 }), fc.dictionary(fc.constantFrom('city', 'zip', 'x'), scalar, { noNullPrototype: true }));
const keys = ['name', 'password', 'bio', 'age', 'ratio', 'terms', 'tags', 'numbers', 'country', 'nick', 'count', 'even', 'plain', 'scores', 'address', '_token', 'toString'];
const fitting = fc.record({
  name: fc.constantFrom('Ada', ' Ada '), password: fc.constantFrom(' secret ', 'x'), bio: fc.constantFrom(undefined, '', 'bio'),
  age: fc.constantFrom('36', 36, '-1'), ratio: fc.constantFrom('0.5', 2, '1e3'), terms: fc.constantFrom('on', undefined, ['0', '1'], '', true),
  tags: fc.constantFrom(undefined, '', 'a', ['a', 'b']), numbers: fc.constantFrom([], ['1', '2'], '3'), country: fc.constantFrom('de', '1', 1),
  nick: fc.constantFrom(undefined, 'n'), count: fc.constantFrom(undefined, '4'), even: fc.constantFrom('2', 4), plain: fc.constantFrom('7'),
  scores: fc.constantFrom(undefined, [1, 2.5]), address: fc.constantFrom(undefined, { city: ' Berlin ', zip: '' }, { city: 'x', extra: 1 }),
  _token: fc.constantFrom('csrf', undefined),
}, { requiredKeys: ['name', 'password', 'age', 'ratio', 'country', 'even', 'plain'] });

function both(input: unknown) {
  const [failure, expected] = struct.validate(input, { coerce: true, mask: true });
  const walked = walkerOf(struct)(input, rootContext(input));
  return { failure, expected, walked };
}

describe('the direct walk of a struct agrees with superstruct', () => {
  it('fitting input: the same value; anything else: it gives up', () => {
    fc.assert(
      fc.property(fc.oneof(fitting, fc.dictionary(fc.constantFrom(...keys), value, { noNullPrototype: true })), fc.boolean(), (input, nullProto) => {
        const sent = nullProto ? Object.assign(Object.create(null) as object, input) : input;
        const { failure, expected, walked } = both(sent);
        if (failure === undefined) expect(walked).toStrictEqual(expected);
        else expect(walked).toBe(DOES_NOT_FIT);
      }),
      { numRuns: 3000 },
    );
  });

  it('takes the fast way for a form that fits (a refused value gives up, no exception)', () => {
    const input = { name: 'Ada', password: 'x', age: '36', ratio: '1', country: 'de', even: '2', plain: '3', _token: 't' };
    expect(both(input).walked).toStrictEqual({ name: 'Ada', password: 'x', age: 36, ratio: 1, terms: false, tags: [], numbers: [], country: 'de', even: 2, plain: 3 });
    expect(both({ ...input, even: '3' }).walked).toBe(DOES_NOT_FIT);
    expect(both('not a form').walked).toBe(DOES_NOT_FIT);
  });
});

describe('plain dates read directly agree with the library', () => {
  const libraryDate = (text: string): number | null =>
    validator.isISO8601(text, { strict: true, strictSeparator: true }) && !Number.isNaN(Date.parse(text)) ? Date.parse(text) : null;

  it('YYYY-MM-DD of any digits: the same answer as isISO8601 (strict) and Date.parse', () => {
    const digits = (n: number) => fc.array(fc.integer({ min: 0, max: 9 }), { minLength: n, maxLength: n }).map((d) => d.join(''));
    fc.assert(
      fc.property(fc.oneof(digits(4), fc.integer({ min: 1582, max: 2400 }).map(String)), fc.oneof(digits(2), fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0'))), digits(2), (year, month, day) => {
        const text = `${year}-${month}-${day}`;
        const direct = plainDate(text);
        if (direct === undefined) expect(Number(year)).toBeLessThan(100);
        else expect(direct).toBe(libraryDate(text));
        expect(validatorFormatChecks.date(text)).toBe(libraryDate(text));
      }),
      { numRuns: 5000 },
    );
    for (const text of ['2024-02-29', '2023-02-29', '1900-02-29', '2000-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00']) {
      expect(validatorFormatChecks.date(text), text).toBe(libraryDate(text));
    }
  });

  it('reads exactly the texts the pattern YYYY-MM-DD matches; any other spelling goes to the library', () => {
    const PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/u;
    const near = fc.array(fc.constantFrom('0', '1', '9', '-', '/', ' ', 'a', '\u0663', '\n', 'T'), { minLength: 9, maxLength: 11 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.oneof(near, fc.string({ maxLength: 12 })), (text) => {
        const match = PATTERN.exec(text);
        if (match === null || Number(match[1]) < 100) expect(plainDate(text)).toBeUndefined();
        else expect(plainDate(text)).toBe(libraryDate(text));
      }),
      { numRuns: 5000 },
    );
  });
});
