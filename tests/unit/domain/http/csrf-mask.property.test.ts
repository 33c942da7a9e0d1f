import { randomBytes } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isMaskOf, maskToken, padLength, unmaskToken } from '../../../../domain/http/csrf-mask.js';
import { csrfCheck } from '../../../../domain/http/csrf.js';
import { MisuseError } from '../../../../domain/shared/errors.js';
import type { CsrfInput } from '../../../../domain/http/csrf.js';

/** A session token as the session stage makes it (32 random bytes, base64url), or any text an app set. */
const sessionToken = fc.oneof(
  fc.uint8Array({ minLength: 32, maxLength: 32 }).map((bytes) => Buffer.from(bytes).toString('base64url')),
  fc.string({ unit: 'grapheme', minLength: 32, maxLength: 48 }),
);

function masked(token: string): string {
  return maskToken(token, randomBytes(padLength(token)));
}

const base: CsrfInput = { method: 'POST', sessionToken: '', xsrfCookieEnabled: false, bearer: false, exempt: false };

describe('masked CSRF tokens', () => {
  it('unmask(mask(t)) = t, and the masked text is a mask of t and of no other token', () => {
    fc.assert(
      fc.property(sessionToken, sessionToken, (token, other) => {
        const printed = masked(token);
        expect(unmaskToken(printed)).toBe(token);
        expect(isMaskOf(token, printed)).toBe(true);
        expect(isMaskOf(other, printed)).toBe(token === other);
      }),
    );
  });

  it('differs with every pad, and never contains the token itself', () => {
    fc.assert(
      fc.property(sessionToken, fc.uint8Array({ minLength: 48, maxLength: 48 }), fc.uint8Array({ minLength: 48, maxLength: 48 }), (token, a, b) => {
        const length = padLength(token);
        fc.pre(length <= 48);
        const padA = a.subarray(0, length);
        const padB = b.subarray(0, length);
        expect(maskToken(token, padA) === maskToken(token, padB)).toBe(Buffer.from(padA).equals(Buffer.from(padB)));
      }),
    );
    const token = Buffer.from(randomBytes(32)).toString('base64url');
    const printed = new Set(Array.from({ length: 50 }, () => masked(token)));
    expect(printed.size).toBe(50);
    for (const text of printed) expect(text).not.toContain(token);
  });

  it('refuses a masked token with any one character changed, removed or added', () => {
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=.+/';
    fc.assert(
      fc.property(sessionToken, fc.nat(), fc.constantFrom(...alphabet), (token, where, character) => {
        const printed = masked(token);
        const at = where % printed.length;
        fc.pre(printed[at] !== character);
        const changed = `${printed.slice(0, at)}${character}${printed.slice(at + 1)}`;
        expect(isMaskOf(token, changed)).toBe(false);
        expect(isMaskOf(token, printed.slice(0, at) + printed.slice(at + 1))).toBe(false);
        expect(isMaskOf(token, `${printed.slice(0, at)}${character}${printed.slice(at)}`)).toBe(false);
      }),
    );
  });

  it('csrfCheck passes a masked token and the raw one, and refuses a mask of another token', () => {
    fc.assert(
      fc.property(sessionToken, sessionToken, (token, other) => {
        fc.pre(token !== other);
        const check = (fieldToken: string) => csrfCheck({ ...base, sessionToken: token, fieldToken }).kind;
        expect(check(masked(token))).toBe('passed');
        expect(check(token)).toBe('passed');
        expect(check(masked(other))).toBe('refused');
        expect(check(other)).toBe('refused');
      }),
    );
  });

  it('refuses a pad of the wrong length rather than masking part of the token', () => {
    expect(() => maskToken('a'.repeat(32), new Uint8Array(31))).toThrow(MisuseError);
  });

  it('reads no masked token from text that is not canonical base64url of an even length', () => {
    expect(unmaskToken('')).toBeNull();
    expect(unmaskToken('AAAA')).toBeNull(); // 3 bytes: no pad and token of one length
    expect(unmaskToken('AAB')).toBeNull(); // the last character's unused bits are set
    expect(unmaskToken('AA!A')).toBeNull(); // Node's decoder would skip the '!'
    expect(unmaskToken(maskToken('abc', Buffer.from([1, 2, 3])))).toBe('abc');
    expect(isMaskOf('', '')).toBe(false);
  });
});
