import { describe, expect, it } from 'vitest';
import { OtpauthTotp } from '../../../adapters/otp/otpauth-totp.js';
import { totpStep } from '../../../domain/auth/totp.js';

/** RFC 6238 appendix B's SHA-1 key, "12345678901234567890", in base32. */
const RFC_SECRET = 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ';

/**
 * RFC 6238 appendix B, SHA-1 rows. The RFC prints eight digits; a six-digit code is the same
 * number modulo 10^6 (RFC 4226's truncation), so its last six digits.
 */
const VECTORS: [seconds: number, eightDigits: string][] = [
  [59, '94287082'],
  [1111111109, '07081804'],
  [1111111111, '14050471'],
  [1234567890, '89005924'],
  [2000000000, '69279037'],
  [20000000000, '65353130'],
];

describe('OtpauthTotp', () => {
  const totp = new OtpauthTotp();

  it.each(VECTORS)('at %i s accepts the RFC code (%s) and names its step', (seconds, eight) => {
    const at = new Date(seconds * 1000);
    expect(totp.match(RFC_SECRET, eight.slice(2), at)).toBe(totpStep(at));
    expect(totp.match(RFC_SECRET, `${eight.slice(2, 5)} ${eight.slice(5)}`, at)).toBe(totpStep(at));
  });

  it('refuses a wrong code, an eight-digit one, and text', () => {
    const at = new Date(59_000);
    expect(totp.match(RFC_SECRET, '287083', at)).toBeNull();
    expect(totp.match(RFC_SECRET, '94287082', at)).toBeNull();
    expect(totp.match(RFC_SECRET, 'abcdef', at)).toBeNull();
  });

  it('looks one step either side of now, and no further, naming the step the code belongs to', () => {
    const at = new Date(1111111109_000); // step 37037036; 1111111111 is step 37037037
    const code = '050471'; // the code of 1111111111
    expect(totp.match(RFC_SECRET, code, at)).toBe(37037037);
    expect(totp.match(RFC_SECRET, code, new Date(1111111111_000 + 30_000))).toBe(37037037);
    expect(totp.match(RFC_SECRET, code, new Date(1111111111_000 + 60_000))).toBeNull();
    expect(totp.match(RFC_SECRET, code, new Date(1111111111_000 - 60_000))).toBeNull();
  });

  it('writes the otpauth URI apps read: issuer in the label and as a parameter, SHA1, 6 digits, 30 s', () => {
    const uri = new URL(totp.uri({ secret: RFC_SECRET, issuer: 'Acme & Co', account: 'ada@example.com' }));
    expect(uri.protocol).toBe('otpauth:');
    expect(uri.host).toBe('totp');
    expect(decodeURIComponent(uri.pathname)).toBe('/Acme & Co:ada@example.com');
    expect(Object.fromEntries(uri.searchParams)).toEqual({ issuer: 'Acme & Co', secret: RFC_SECRET, algorithm: 'SHA1', digits: '6', period: '30' });
  });
});
