import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH, checkPassword } from '../../../../domain/auth/password-policy.js';

const EMOJI = '\u{1F600}'; // one code point, two UTF-16 units

describe('checkPassword', () => {
  it('has the documented limits', () => {
    expect([PASSWORD_MIN_LENGTH, PASSWORD_MAX_LENGTH]).toEqual([8, 4096]);
  });

  it.each([
    ['empty', 'unacceptable', ''],
    ['7 characters', 'unacceptable', 'abcdefg'],
    ['8 characters', 'acceptable', 'abcdefgh'],
    ['64 characters', 'acceptable', 'a'.repeat(64)],
    ['4096 characters', 'acceptable', 'a'.repeat(4096)],
    ['4097 characters', 'unacceptable', 'a'.repeat(4097)],
    ['all lower-case, no digit or symbol', 'acceptable', 'correcthorsebatterystaple'],
    ['only digits', 'acceptable', '12345678'],
    ['only spaces', 'acceptable', ' '.repeat(8)],
    ['8 emoji (8 code points, 16 UTF-16 units)', 'acceptable', EMOJI.repeat(8)],
    ['4 emoji (4 code points, 8 UTF-16 units)', 'unacceptable', EMOJI.repeat(4)],
    ['4096 emoji', 'acceptable', EMOJI.repeat(4096)],
    ['4097 emoji', 'unacceptable', EMOJI.repeat(4097)],
    ['7 accented letters and an emoji', 'acceptable', `éàüöçñø${EMOJI}`],
  ])('%s: %s', (_what, kind, password) => {
    expect(checkPassword(password).kind).toBe(kind);
  });

  it('says what is wrong', () => {
    expect(checkPassword('short')).toEqual({ kind: 'unacceptable', reason: 'must be at least 8 characters' });
    expect(checkPassword('a'.repeat(5000))).toEqual({ kind: 'unacceptable', reason: 'must be at most 4096 characters' });
  });
});

/** Strings of exactly `min..max` Unicode code points (lone surrogates left out). */
const codePoints = (minLength: number, maxLength: number): fc.Arbitrary<string> =>
  fc
    .array(
      fc.integer({ min: 0, max: 0x10ffff }).filter((cp) => cp < 0xd800 || cp > 0xdfff),
      { minLength, maxLength },
    )
    .map((cps) => String.fromCodePoint(...cps));

describe('checkPassword properties', () => {
  it('accepts any string of 8 to 200 code points', () => {
    fc.assert(
      fc.property(codePoints(8, 200), (password) => {
        expect(checkPassword(password)).toEqual({ kind: 'acceptable' });
      }),
    );
  });

  it('refuses any string of fewer than 8 code points, however many UTF-16 units it takes', () => {
    fc.assert(
      fc.property(codePoints(0, 7), (password) => {
        expect(checkPassword(password).kind).toBe('unacceptable');
      }),
    );
  });
});
