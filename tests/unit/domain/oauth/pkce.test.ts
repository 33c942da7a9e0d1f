import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPkceVerifier, pkceChallenge, randomToken } from '../../../../domain/oauth/pkce.js';

describe('PKCE (RFC 7636, S256)', () => {
  // RFC 7636 Appendix B: the octets, the verifier they encode to, and its challenge.
  const octets = [116, 24, 223, 180, 151, 153, 224, 37, 79, 250, 96, 125, 216, 173, 187, 186, 22, 212, 37, 77, 105, 214, 191, 240, 91, 88, 5, 88, 83, 132, 141, 121];

  it('encodes 32 random bytes as the RFC example does', () => {
    expect(randomToken(Uint8Array.from(octets))).toBe('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk');
  });

  it('gives the challenge of the RFC example', () => {
    expect(pkceChallenge('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe('E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM');
  });

  it.each([
    ['43 characters', 'a'.repeat(43), true],
    ['128 characters', '~'.repeat(128), true],
    ['the unreserved punctuation', `${'a'.repeat(39)}-._~`, true],
    ['42 characters', 'a'.repeat(42), false],
    ['129 characters', 'a'.repeat(129), false],
    ['a plus sign', `${'a'.repeat(42)}+`, false],
    ['base64 padding', `${'a'.repeat(42)}=`, false],
    ['a space', `${'a'.repeat(42)} `, false],
  ])('a verifier of %s is %s', (_what, verifier, valid) => {
    expect(isPkceVerifier(verifier)).toBe(valid);
    if (valid) expect(pkceChallenge(verifier)).toMatch(/^[A-Za-z0-9_-]{43}$/u);
    else expect(() => pkceChallenge(verifier)).toThrow(TypeError);
  });

  it.each([0, 16, 31, 33, 64])('refuses %i random bytes: exactly 32 are asked for', (length) => {
    expect(() => randomToken(new Uint8Array(length))).toThrow(TypeError);
  });

  it('makes a valid verifier from any 32 bytes, whose challenge is 43 base64url characters and never the verifier', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (random) => {
        const verifier = randomToken(random);
        expect(isPkceVerifier(verifier)).toBe(true);
        const challenge = pkceChallenge(verifier);
        expect(challenge).toMatch(/^[A-Za-z0-9_-]{43}$/u);
        expect(challenge).not.toBe(verifier);
      }),
    );
  });
});
