import fc from 'fast-check';
import validator from 'validator';
import { describe, expect, it } from 'vitest';
import { validatorFormatChecks } from '../../../../adapters/validation/validator-format-checks.js';

describe('number text answered without the library agrees with it', () => {
  it('numeric: the same answer as validator.isFloat (and a finite Number) for any text', () => {
    const library = (text: string): boolean => text.length > 0 && text.length <= 400 && validator.isFloat(text) && Number.isFinite(Number(text));
    const numberish = fc.array(fc.constantFrom('0', '7', '9', '.', '-', '+', 'e', 'E', ',', ' ', '\u0663', 'x'), { maxLength: 8 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(fc.oneof(numberish, fc.string({ maxLength: 10 }), fc.double().map(String)), (text) => {
        expect(validatorFormatChecks.numeric(text)).toBe(library(text));
      }),
      { numRuns: 10_000 },
    );
    for (const text of ['12', '-3.5', '+0.25', '1.', '.5', '1e3', '-', '+', '.', '', '1.2.3', `${'9'.repeat(400)}`, `${'9'.repeat(401)}`]) {
      expect(validatorFormatChecks.numeric(text), text).toBe(library(text));
    }
  });
});
