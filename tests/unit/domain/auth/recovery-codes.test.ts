import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  RECOVERY_CODE_ALPHABET,
  RECOVERY_CODE_BYTES,
  RECOVERY_CODE_COUNT,
  formatRecoveryCode,
  isRecoveryCodeHash,
  normalizeRecoveryCode,
  recoveryCodeHash,
  recoveryCodeHashes,
  recoveryCodesFrom,
} from '../../../../domain/auth/recovery-codes.js';

const randomBytes = fc.uint8Array({ minLength: RECOVERY_CODE_BYTES, maxLength: RECOVERY_CODE_BYTES });
const SHOWN = /^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/u;

/** Ways a person may type one character of a code that still mean that character. */
function spellings(char: string): string[] {
  const alike: Record<string, string[]> = { '1': ['1', 'i', 'I', 'l', 'L'], '0': ['0', 'o', 'O'] };
  return alike[char] ?? [char, char.toUpperCase()];
}

/** A code as someone might type it: any spelling of each character, spaces and dashes between. */
const typedVariant = (shown: string) =>
  fc
    .tuple(
      fc.array(fc.nat(), { minLength: shown.length, maxLength: shown.length }),
      fc.array(fc.constantFrom('', '', '', ' ', '-', '  ', '\t', ' - '), { minLength: shown.length + 1, maxLength: shown.length + 1 }),
    )
    .map(([picks, gaps]) => {
      const chars = [...shown.replace('-', '')];
      return gaps[0] + chars.map((char, i) => {
        const options = spellings(char);
        return (options[(picks[i] ?? 0) % options.length] ?? char) + (gaps[i + 1] ?? '');
      }).join('');
    });

describe('recovery codes', () => {
  it('has 32 distinct characters without i, l, o and u', () => {
    expect(new Set(RECOVERY_CODE_ALPHABET).size).toBe(32);
    expect(RECOVERY_CODE_ALPHABET).not.toMatch(/[ilou]/u);
  });

  it('makes eight codes of xxxxx-xxxxx from 80 random bytes, and refuses another number of bytes', () => {
    const codes = recoveryCodesFrom(new Uint8Array(RECOVERY_CODE_BYTES).map((_, i) => i * 7));
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(SHOWN);
    expect(recoveryCodesFrom(new Uint8Array(RECOVERY_CODE_BYTES))).toEqual(Array(8).fill('00000-00000'));
    expect(recoveryCodesFrom(new Uint8Array(RECOVERY_CODE_BYTES).fill(255))).toEqual(Array(8).fill('zzzzz-zzzzz'));
    expect(() => recoveryCodesFrom(new Uint8Array(79))).toThrow(TypeError);
  });

  it.each([
    ['as shown', 'abcde-12345', 'abcde12345'],
    ['without the dash', 'abcde12345', 'abcde12345'],
    ['upper case', 'ABCDE-12345', 'abcde12345'],
    ['spaces around and inside', '  abc de - 123 45 ', 'abcde12345'],
    ['i and l as 1, o as 0', 'abcde-IlL0O', 'abcde11100'],
    ['a tab and a newline', 'abcde\t\n12345', 'abcde12345'],
    ['too short', 'abcde-1234', null],
    ['too long', 'abcde-123456', null],
    ['u is no character of the alphabet', 'abcde-1234u', null],
    ['punctuation', 'abcde_12345', null],
    ['empty', '', null],
    ['a non-ASCII digit', 'abcde-1234٣', null],
    ['a megabyte of spaces around a code', `${' '.repeat(1 << 20)}abcde12345`, null],
  ])('normalises %s', (_what, typed, expected) => {
    expect(normalizeRecoveryCode(typed)).toBe(expected);
  });

  it('reads back every code it makes, however it is typed', () => {
    fc.assert(
      fc.property(
        randomBytes.chain((bytes) => {
          const codes = recoveryCodesFrom(bytes);
          return fc.tuple(fc.constant(codes), fc.constantFrom(...codes).chain((shown) => fc.tuple(fc.constant(shown), typedVariant(shown))));
        }),
        ([codes, [shown, typed]]) => {
          const canonical = normalizeRecoveryCode(shown);
          expect(canonical).not.toBeNull();
          expect(formatRecoveryCode(canonical as string)).toBe(shown);
          expect(normalizeRecoveryCode(typed)).toBe(canonical);
          expect(codes.every((code) => SHOWN.test(code))).toBe(true);
        },
      ),
    );
  });

  it('normalises idempotently: a normalised code is its own normal form', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 30 }), (typed) => {
        const once = normalizeRecoveryCode(typed);
        if (once !== null) expect(normalizeRecoveryCode(once)).toBe(once);
      }),
    );
  });

  it('stores a hash that is never the code, differs per user, and is the same for every spelling', () => {
    fc.assert(
      fc.property(randomBytes, fc.integer({ min: 1, max: 2 ** 40 }), (bytes, userId) => {
        const codes = recoveryCodesFrom(bytes);
        const hashes = recoveryCodeHashes(userId, codes);
        codes.forEach((code, i) => {
          const hash = hashes[i] as string;
          expect(isRecoveryCodeHash(hash)).toBe(true);
          expect(hash).not.toBe(code);
          expect(hash).not.toContain(code.replace('-', ''));
          expect(hash).not.toBe(recoveryCodeHash(userId + 1, code.replace('-', '')));
          expect(recoveryCodeHash(userId, normalizeRecoveryCode(code.toUpperCase()) as string)).toBe(hash);
        });
      }),
    );
  });

  it('refuses to hash what is not a normalised code, or for no user', () => {
    expect(() => recoveryCodeHash(1, 'abcde-12345')).toThrow(TypeError);
    expect(() => recoveryCodeHash(0, 'abcde12345')).toThrow(TypeError);
    expect(() => recoveryCodeHashes(1, ['nonsense'])).toThrow(TypeError);
  });
});
