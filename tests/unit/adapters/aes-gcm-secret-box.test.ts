import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { AesGcmSecretBox } from '../../../adapters/crypto/aes-gcm-secret-box.js';
import { CryptoRandomSource } from '../../../adapters/random/crypto-random-source.js';
import { deriveAppKeys } from '../../../domain/security/app-keys.js';

const keys = deriveAppKeys(Buffer.alloc(32, 3));
const box = new AesGcmSecretBox(keys.twoFactorEncryption, new CryptoRandomSource());

describe('AesGcmSecretBox', () => {
  it('derives its own key from APP_KEY, apart from every other use', () => {
    const others = [keys.cookieEncryption, keys.cookieIntegrity, keys.signedUrls, keys.maintenanceBypass];
    expect(others.some((key) => key.equals(keys.twoFactorEncryption))).toBe(false);
    expect(deriveAppKeys(Buffer.alloc(32, 3)).twoFactorEncryption.equals(keys.twoFactorEncryption)).toBe(true);
  });

  it('opens what it sealed, and seals the same text differently each time', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), (plain) => {
        const sealed = box.seal(plain);
        expect(sealed).toMatch(/^v1\.[A-Za-z0-9_-]+$/u);
        expect(box.open(sealed)).toBe(plain);
        expect(box.seal(plain)).not.toBe(sealed);
      }),
    );
    expect(box.seal('GEZDGNBVGY3TQOJQ')).not.toContain('GEZDGNBVGY3TQOJQ');
  });

  it('opens nothing that was changed, cut, or sealed under another APP_KEY', () => {
    const sealed = box.seal('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    const other = new AesGcmSecretBox(deriveAppKeys(Buffer.alloc(32, 4)).twoFactorEncryption, new CryptoRandomSource());
    expect(other.open(sealed)).toBeNull();
    for (const damaged of ['', 'v1.', 'v2.' + sealed.slice(3), sealed.slice(0, -1), `${sealed}.x`, 'v1.AAAA', 'v1.!!!!', sealed.slice(0, 20)]) {
      expect(box.open(damaged)).toBeNull();
    }
    fc.assert(
      fc.property(fc.nat({ max: sealed.length - 4 }), (index) => {
        const i = index + 3; // inside the payload
        const flipped = sealed.slice(0, i) + (sealed[i] === 'A' ? 'B' : 'A') + sealed.slice(i + 1);
        // base64url's last character may carry unused bits; a change there can decode to the same bytes.
        const same = Buffer.from(flipped.slice(3), 'base64url').equals(Buffer.from(sealed.slice(3), 'base64url'));
        expect(box.open(flipped)).toBe(same ? 'GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ' : null);
      }),
    );
  });

  it('wants a 32-byte key', () => {
    expect(() => new AesGcmSecretBox(Buffer.alloc(16), new CryptoRandomSource())).toThrow(TypeError);
  });
});
