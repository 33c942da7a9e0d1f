import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { EMAIL_MAX_LENGTH, normalizeEmail } from '../../../../domain/users/email.js';

describe('normalizeEmail', () => {
  it.each([
    ['ada@example.com', 'ada@example.com'],
    ['Ada.Lovelace@Example.COM', 'ada.lovelace@example.com'],
    ['  ada@example.com\t', 'ada@example.com'],
    ['\n ADA@EXAMPLE.COM \n', 'ada@example.com'],
    ['first.last+tag@mail.example.co.uk', 'first.last+tag@mail.example.co.uk'],
    ['a@b.c', 'a@b.c'],
    ['o\'brien@example.ie', 'o\'brien@example.ie'],
    ['JOSÉ@Exämple.ES', 'josé@exämple.es'],
  ])('accepts %j as %j', (raw, expected) => {
    expect(normalizeEmail(raw)).toEqual({ kind: 'valid', email: expected });
  });

  it.each([
    ['', 'empty'],
    ['   ', 'empty'],
    ['\t\n', 'empty'],
    ['ada.example.com', 'malformed'],
    ['ada@', 'malformed'],
    ['@example.com', 'malformed'],
    ['ada@example', 'malformed'],
    ['ada@example.', 'malformed'],
    ['ada@@example.com', 'malformed'],
    ['ada@bob@example.com', 'malformed'],
    ['ada lovelace@example.com', 'malformed'],
    ['ada@exa mple.com', 'malformed'],
    ['ada@example.com extra', 'malformed'],
    ['ada\t@example.com', 'malformed'],
  ])('refuses %j as %s', (raw, reason) => {
    expect(normalizeEmail(raw)).toEqual({ kind: 'invalid', reason });
  });

  describe('length limit of 254 characters', () => {
    const ofLength = (length: number): string => `${'a'.repeat(length - '@example.com'.length)}@example.com`;

    it.each([
      [EMAIL_MAX_LENGTH - 1, 'valid'],
      [EMAIL_MAX_LENGTH, 'valid'],
      [EMAIL_MAX_LENGTH + 1, 'invalid'],
      [1000, 'invalid'],
    ])('an address of %i characters is %s', (length, kind) => {
      const address = ofLength(length);
      expect(address).toHaveLength(length);
      expect(normalizeEmail(address).kind).toBe(kind);
    });

    it('says "too-long" rather than "malformed" for a long address', () => {
      expect(normalizeEmail(ofLength(EMAIL_MAX_LENGTH + 1))).toEqual({ kind: 'invalid', reason: 'too-long' });
    });

    it('counts the length after trimming', () => {
      expect(normalizeEmail(`   ${ofLength(EMAIL_MAX_LENGTH)}   `).kind).toBe('valid');
    });
  });
});

/** Plain ASCII addresses: letters of both cases, digits and the usual punctuation. */
const asciiAddress = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,20}$/u),
    fc.array(fc.stringMatching(/^[A-Za-z0-9]([A-Za-z0-9-]{0,10}[A-Za-z0-9])?$/u), { minLength: 1, maxLength: 3 }),
    fc.stringMatching(/^[A-Za-z]{2,6}$/u),
  )
  .map(([local, labels, tld]) => `${local}@${labels.join('.')}.${tld}`);

/** Addresses of any Unicode text around one `@` and a dot; many are valid, some are not. */
const unicodeAddress = fc
  .tuple(...[0, 1, 2].map(() => fc.string({ unit: 'grapheme', minLength: 1, maxLength: 8 })))
  .map(([local, domain, tld]) => `${local}@${domain}.${tld}`);

const padding = fc.stringMatching(/^[ \t\n]{0,3}$/u);

describe('normalizeEmail properties', () => {
  it('accepts every plain ASCII address, lower-cased', () => {
    fc.assert(
      fc.property(asciiAddress, (address) => {
        expect(normalizeEmail(address)).toEqual({ kind: 'valid', email: address.toLowerCase() });
      }),
    );
  });

  it('is case-insensitive: an address and its upper-case spelling give the same result', () => {
    fc.assert(
      fc.property(asciiAddress, (address) => {
        expect(normalizeEmail(address.toUpperCase())).toEqual(normalizeEmail(address));
      }),
    );
  });

  it('ignores surrounding whitespace', () => {
    fc.assert(
      fc.property(asciiAddress, padding, padding, (address, before, after) => {
        expect(normalizeEmail(`${before}${address}${after}`)).toEqual(normalizeEmail(address));
      }),
    );
  });

  it('is idempotent: normalising a normalised address changes nothing', () => {
    fc.assert(
      fc.property(fc.oneof(asciiAddress, unicodeAddress, fc.emailAddress()), (raw) => {
        const first = normalizeEmail(raw);
        if (first.kind === 'valid') expect(normalizeEmail(first.email)).toEqual(first);
      }),
    );
  });
});
