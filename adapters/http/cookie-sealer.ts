import Iron from '@hapi/iron';
import type { RandomSource } from '../../ports/random-source.js';

/** The two keys iron needs, derived from APP_KEY (see `domain/security/app-keys.ts`). */
export interface SealingKeys {
  encryption: Buffer;
  integrity: Buffer;
}

/** Names the key generation inside sealed values, so a future key rotation can keep reading old cookies. */
const KEY_ID = 'k1';
/** AES-256-CBC's block: iron's `ivBits` of 128. */
const IV_BYTES = 16;

/**
 * Seals values into cookie-safe text with @hapi/iron (AES-256-CBC + HMAC-SHA256). Keys are
 * Buffers derived once at start: given a string password, iron would run PBKDF2 on every seal
 * and unseal, about fifteen times slower. Each sealed value is bound to its cookie name, so a
 * sealed cookie cannot be replayed under another name.
 */
export class CookieSealer {
  private readonly password: { id: string; encryption: Buffer; integrity: Buffer };

  constructor(
    keys: SealingKeys,
    /** Each seal's IV (the app's pooled CSPRNG, `CryptoRandomSource`). */
    private readonly random: RandomSource,
  ) {
    this.password = { id: KEY_ID, encryption: keys.encryption, integrity: keys.integrity };
  }

  seal(name: string, value: unknown): Promise<string> {
    // Each seal's IV comes from the pooled CSPRNG (iron's own asks the system for 16 bytes per
    // seal: a system call on every new or changed session). A fresh IV per seal, as before.
    const encryption = { ...Iron.defaults.encryption, iv: Buffer.from(this.random.bytes(IV_BYTES)) };
    return Iron.seal({ n: name, v: value }, this.password, { ...Iron.defaults, encryption });
  }

  /** The value, or undefined when the text is tampered, foreign, or sealed for another name. */
  async unseal(name: string, sealed: string): Promise<unknown> {
    // With Buffer keys iron leaves the two salt parts (3rd and 7th) empty and never reads them:
    // text written into them would not change what opens. One seal, one spelling.
    const parts = sealed.split('*');
    if (parts.length !== 8 || parts[2] !== '' || parts[6] !== '') return undefined;
    try {
      const opened = (await Iron.unseal(sealed, { [KEY_ID]: this.password }, Iron.defaults)) as { n?: unknown; v?: unknown } | null;
      return opened !== null && typeof opened === 'object' && opened.n === name ? opened.v : undefined;
    } catch {
      return undefined;
    }
  }
}
