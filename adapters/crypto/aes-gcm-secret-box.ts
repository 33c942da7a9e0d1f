import { createCipheriv, createDecipheriv } from 'node:crypto';
import type { RandomSource } from '../../ports/random-source.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { MisuseError } from '../../domain/shared/errors.js';
import { secretKey } from '../../domain/shared/secret-key.js';

const VERSION = 'v1';
const IV_BYTES = 12; // GCM's native nonce size
const TAG_BYTES = 16;
/** Bound into every tag: text sealed by another use of AES-GCM in the app never opens here. */
const ASSOCIATED_DATA = Buffer.from('fw:secret-box:v1');

/**
 * AES-256-GCM with a key derived from APP_KEY for one purpose (`AppKeys.twoFactorEncryption`).
 * Sealed text is `v1.<base64url(iv ‖ ciphertext ‖ tag)>`; the version leaves room to change
 * the scheme while old rows still open. A fresh random 96-bit IV per seal: with one key, GCM
 * stays safe for far more seals than an app makes (2^32 under NIST's bound).
 */
export class AesGcmSecretBox implements SecretBox {
  constructor(
    private readonly key: Buffer,
    private readonly random: RandomSource,
  ) {
    if (key.length !== 32) throw new MisuseError('security.bad-key', `AES-256-GCM needs a 32-byte key, got ${key.length}`);
  }

  seal(plain: string): string {
    const iv = this.random.bytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', secretKey(this.key), iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(ASSOCIATED_DATA);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `${VERSION}.${Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url')}`;
  }

  open(sealed: string): string | null {
    const [version, payload, ...rest] = sealed.split('.');
    if (version !== VERSION || payload === undefined || rest.length > 0 || !/^[A-Za-z0-9_-]+$/u.test(payload)) return null;
    const bytes = Buffer.from(payload, 'base64url');
    if (bytes.length < IV_BYTES + TAG_BYTES) return null;
    const decipher = createDecipheriv('aes-256-gcm', secretKey(this.key), bytes.subarray(0, IV_BYTES), { authTagLength: TAG_BYTES });
    decipher.setAAD(ASSOCIATED_DATA);
    decipher.setAuthTag(bytes.subarray(bytes.length - TAG_BYTES));
    try {
      return Buffer.concat([decipher.update(bytes.subarray(IV_BYTES, bytes.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      return null; // the tag did not match: damaged, or sealed under another key
    }
  }
}
