import fc from 'fast-check';
import { Secret } from 'otpauth';
import { describe, expect, it } from 'vitest';
import { TOTP_SECRET_BYTES, displayTotpSecret, normalizeTotpCode, totpSecretFrom, totpStep } from '../../../../domain/auth/totp.js';

describe('TOTP rules', () => {
  it('writes the secret in RFC 4648 base32: the RFC 6238 test key, and as otpauth reads it', () => {
    expect(totpSecretFrom(Buffer.from('12345678901234567890', 'ascii'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 20, maxLength: 20 }), (bytes) => {
        const secret = totpSecretFrom(bytes);
        expect(secret).toMatch(/^[A-Z2-7]{32}$/u);
        expect(Buffer.from(Secret.fromBase32(secret).bytes).equals(Buffer.from(bytes))).toBe(true);
      }),
    );
    expect(() => totpSecretFrom(new Uint8Array(TOTP_SECRET_BYTES - 1))).toThrow(TypeError);
  });

  it('groups the secret by four for typing', () => {
    expect(displayTotpSecret('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ')).toBe('GEZD GNBV GY3T QOJQ GEZD GNBV GY3T QOJQ');
  });

  it.each([
    ['123456', '123456'],
    ['123 456', '123456'],
    [' 123-456 ', '123456'],
    ['012345', '012345'],
    ['12345', null],
    ['1234567', null],
    ['12345a', null],
    ['１２３４５６', null], // full-width digits are not what the app shows
    ['', null],
  ])('reads the typed code %j as %j', (typed, expected) => {
    expect(normalizeTotpCode(typed)).toBe(expected);
  });

  it('counts 30-second steps from the epoch', () => {
    expect(totpStep(new Date(0))).toBe(0);
    expect(totpStep(new Date(29_999))).toBe(0);
    expect(totpStep(new Date(30_000))).toBe(1);
    expect(totpStep(new Date('2005-03-18T01:58:29Z'))).toBe(37037036); // RFC 6238's T for 1111111109
    expect(() => totpStep(new Date(Number.NaN))).toThrow(TypeError);
  });
});
