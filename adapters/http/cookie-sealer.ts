import { createCipheriv, createDecipheriv, createHmac, timingSafeEqual } from 'node:crypto';
import type { Cipher, Decipher, KeyObject } from 'node:crypto';
import Iron from '@hapi/iron';
import { FrameworkError } from '../../domain/shared/errors.js';
import { secretKey } from '../../domain/shared/secret-key.js';
import type { RandomSource } from '../../ports/random-source.js';
import { bytesAsBuffer } from '../../domain/shared/bytes.js';

/** The two keys iron needs, derived from APP_KEY (see `domain/security/app-keys.ts`). */
export interface SealingKeys {
  encryption: Buffer;
  integrity: Buffer;
}

/** Names the key generation inside sealed values, so a future key rotation can keep reading old cookies. */
const KEY_ID = 'k1';
/** AES-256-CBC's block: iron's `ivBits` of 128. */
const IV_BYTES = 16;
/** AES's block. */
const BLOCK_BYTES = 16;
/**
 * The start of every value this sealer writes: iron's `Fe26.2` format, key id `k1`, no
 * encryption salt (Buffer keys). After it: IV, ciphertext, expiration (none), HMAC salt (none),
 * HMAC, `*`-separated.
 */
const PREFIX = `${Iron.macPrefix}*${KEY_ID}**`;
/** Text whose JSON iron would hand to Bourne's prototype-poisoning scan: left to iron itself. */
const SUSPECT = /__proto__|constructor|\\u/u;

/** `openOwn`'s answer for a value it leaves to iron. */
const UNUSUAL = Symbol('unusual seal');

/** iron's check before decoding a part (`@hapi/b64`'s base64urlDecode). */
const BASE64URL = /^[\w-]*$/u;

/**
 * How many opened values `unseal` remembers (their JSON, by the exact sealed text): a browser
 * sends the same session cookie on every request until it changes. Bounded; the oldest go first.
 */
const REMEMBERED_OPENINGS = 256;

/**
 * Seals values into cookie-safe text in @hapi/iron's format (AES-256-CBC + HMAC-SHA256), with
 * iron's own options. Keys are Buffers derived once at start: given a string password, iron
 * would run PBKDF2 on every seal and unseal, about fifteen times slower. Each sealed value is
 * bound to its cookie name, so a sealed cookie cannot be replayed under another name.
 *
 * The usual case (a session cookie sealed or opened on nearly every request) is done here with
 * the same node:crypto calls iron makes, in one synchronous step: iron's generic path awaited
 * five times per seal and cloned its options, ~10 % of a page's CPU (docs/performance.md). The
 * output is byte for byte iron's (a test compares them under the same IV, and opens each with
 * the other); anything unusual (an expiration, another key id, JSON that Bourne would scan, a
 * value JSON cannot hold) goes through iron itself. See docs/decisions.md.
 */
export class CookieSealer {
  private readonly password: { id: string; encryption: Buffer; integrity: Buffer };
  /**
   * The integrity key as a KeyObject, for `mac`: on Node 24 `createHmac` with a Buffer key
   * spends ~11 µs checking whether the Buffer is a KeyObject or a CryptoKey, against ~1.7 µs
   * given a KeyObject (a quarter of a new-session page's CPU; Node 20 and 22 do not differ).
   * iron itself still gets the Buffers (`password`).
   */
  private readonly integrityKey: KeyObject;
  /** The cipher every seal encrypts through (`encrypt`), and the last ciphertext block it wrote: its chain's state. */
  private chain: Cipher | null = null;
  private readonly lastBlock = Buffer.alloc(BLOCK_BYTES);
  /** The decipher every opening decrypts through (`decrypt`), and the last ciphertext block it read: its chain's state. */
  private openChain: Decipher | null = null;
  private readonly lastOpenedBlock = Buffer.alloc(BLOCK_BYTES);
  /**
   * Sealed texts this sealer checked (HMAC in constant time) and decrypted, with their JSON: the
   * same text opens again without the HMAC and the AES (most of an unseal's cost;
   * docs/performance.md). Only a value whose every byte equals one that opened is found here,
   * so it opens exactly what a full check would. See docs/decisions.md 'Remembered openings'.
   */
  private readonly openings = new Map<string, string>();

  constructor(
    keys: SealingKeys,
    /** Each seal's IV (the app's pooled CSPRNG, `CryptoRandomSource`). */
    private readonly random: RandomSource,
  ) {
    this.password = { id: KEY_ID, encryption: keys.encryption, integrity: keys.integrity };
    this.integrityKey = secretKey(keys.integrity);
  }

  seal(name: string, value: unknown): Promise<string> {
    // Each seal's IV comes from the pooled CSPRNG (iron's own asks the system for 16 bytes per
    // seal: a system call on every new or changed session). A fresh IV per seal, as before.
    const iv = bytesAsBuffer(this.random.bytes(IV_BYTES));
    let json: string | undefined;
    try {
      json = JSON.stringify({ n: name, v: value });
    } catch {
      // A cycle or a BigInt: iron reports it in its own words.
    }
    if (json === undefined) {
      const encryption = { ...Iron.defaults.encryption, iv };
      return Iron.seal({ n: name, v: value }, this.password, { ...Iron.defaults, encryption });
    }
    const encrypted = this.encrypt(json, iv);
    const macBase = `${PREFIX}${iv.toString('base64url')}*${encrypted.toString('base64url')}*`;
    return Promise.resolve(`${macBase}**${this.mac(macBase)}`);
  }

  /** The value, or undefined when the text is tampered, foreign, or sealed for another name. */
  async unseal(name: string, sealed: string): Promise<unknown> {
    let opened: unknown;
    const remembered = this.openings.get(sealed);
    if (remembered !== undefined) {
      opened = JSON.parse(remembered) as unknown;
    } else {
      // With Buffer keys iron leaves the two salt parts (3rd and 7th) empty and never reads them:
      // text written into them would not change what opens. One seal, one spelling.
      const parts = sealed.split('*');
      if (parts.length !== 8 || parts[2] !== '' || parts[6] !== '') return undefined;
      const json = this.openOwn(parts);
      if (json === UNUSUAL) opened = await this.openWithIron(sealed);
      else if (json !== null) opened = this.parseAndRemember(sealed, json);
    }
    return opened !== null && typeof opened === 'object' && (opened as { n?: unknown }).n === name ? (opened as { v?: unknown }).v : undefined;
  }

  /**
   * AES-256-CBC with PKCS#7 padding, as `createCipheriv(…).update(json) + final()` gives it,
   * through one cipher kept for the sealer's life: setting up a cipher (node's checks, OpenSSL's
   * lookup and key schedule) cost more than encrypting a session (docs/performance.md, fifth
   * round). CBC chains each block to the previous ciphertext block; the kept cipher's chain
   * holds the last block it wrote, so the first block of a new value goes in XORed with that
   * block and with the value's own IV, and comes out exactly as a fresh cipher under that IV
   * would write it (C1 = E(P1 ⊕ IV)); the next blocks chain from there as usual. The padding
   * is written here because the kept cipher must never be finished.
   */
  private encrypt(json: string, iv: Buffer): Buffer {
    const length = Buffer.byteLength(json);
    const padding = BLOCK_BYTES - (length % BLOCK_BYTES);
    const plain = Buffer.allocUnsafe(length + padding);
    plain.write(json, 0, 'utf8');
    plain.fill(padding, length);
    const chain = (this.chain ??= createCipheriv('aes-256-cbc', this.password.encryption, Buffer.alloc(BLOCK_BYTES)).setAutoPadding(false));
    for (let index = 0; index < BLOCK_BYTES; index++) plain[index] = (plain[index] as number) ^ (iv[index] as number) ^ (this.lastBlock[index] as number);
    let encrypted: Buffer;
    try {
      encrypted = chain.update(plain);
      // AES-CBC without padding hands back every whole block at once; were a block ever held
      // back (another OpenSSL), the value would be short and the chain unknown: refuse it.
      if (encrypted.length !== plain.length) throw new FrameworkError('http.sealing-cipher', 'the kept AES-CBC cipher held back a block');
    } catch (error) {
      // Not expected (whole blocks, a valid key): a fresh chain next time, never a half-known one.
      this.chain = null;
      this.lastBlock.fill(0);
      throw error;
    }
    encrypted.copy(this.lastBlock, 0, encrypted.length - BLOCK_BYTES);
    return encrypted;
  }

  /** The JSON's value (null when it is not JSON), remembered under its sealed text once it parsed. */
  private parseAndRemember(sealed: string, json: string): unknown {
    let opened: unknown;
    try {
      opened = JSON.parse(json) as unknown;
    } catch {
      return null;
    }
    if (this.openings.size >= REMEMBERED_OPENINGS) {
      const oldest = this.openings.keys().next();
      if (oldest.done !== true) this.openings.delete(oldest.value);
    }
    this.openings.set(sealed, json);
    return opened;
  }

  /** HMAC-SHA256 of the sealed parts, base64url (iron's digest, its `+/=` replaced the same way). */
  private mac(macBase: string): string {
    return createHmac('sha256', this.integrityKey).update(macBase).digest('base64url');
  }

  /**
   * A value of this sealer's usual shape (key `k1`, no expiration), checked and decrypted as
   * iron does: its JSON text. A wrong HMAC (compared in constant time) or a ciphertext that does
   * not decrypt opens nothing (null). `UNUSUAL`: not the usual shape, iron decides.
   */
  private openOwn(parts: string[]): string | null | typeof UNUSUAL {
    const [prefix, keyId, , iv = '', encrypted = '', expiration, , hmac = ''] = parts;
    if (prefix !== Iron.macPrefix || keyId !== KEY_ID || expiration !== '') return UNUSUAL;
    const expected = Buffer.from(this.mac(`${PREFIX}${iv}*${encrypted}*`));
    const sent = Buffer.from(hmac);
    if (sent.length !== expected.length || !timingSafeEqual(sent, expected)) return null;
    if (!BASE64URL.test(iv) || !BASE64URL.test(encrypted)) return null;
    const json = this.decrypt(Buffer.from(iv, 'base64url'), Buffer.from(encrypted, 'base64url'));
    if (json === null) return null;
    return SUSPECT.test(json) ? UNUSUAL : json;
  }

  /**
   * AES-256-CBC decryption with PKCS#7 padding, as `createDecipheriv(…).update() + final()`
   * gives it (null where `final` would throw: no whole blocks, or padding that is not
   * PKCS#7), through one decipher kept for the sealer's life, as `encrypt` keeps its cipher:
   * a fresh decipher per opening (node's checks, OpenSSL's lookup and key schedule) cost more
   * than the decryption. CBC makes each plaintext block D(Cᵢ) ⊕ Cᵢ₋₁, the first D(C₁) ⊕ IV; the
   * kept decipher XORs the first block of a value with the last ciphertext block it read
   * instead of the value's IV, so that block is corrected with both, and the rest comes out
   * as a fresh decipher would give it. Padding is checked and cut here, since the kept
   * decipher must never be finished.
   */
  private decrypt(iv: Buffer, encrypted: Buffer): string | null {
    if (iv.length !== BLOCK_BYTES || encrypted.length === 0 || encrypted.length % BLOCK_BYTES !== 0) return null;
    const chain = (this.openChain ??= createDecipheriv('aes-256-cbc', this.password.encryption, Buffer.alloc(BLOCK_BYTES)).setAutoPadding(false));
    let plain: Buffer | null;
    try {
      plain = chain.update(encrypted);
    } catch {
      plain = null;
    }
    // Without padding, whole blocks come back at once. Were one held back (another OpenSSL) or
    // the update to fail, the chain would be unknown: a fresh one next time, and this value
    // opened the way it always was.
    if (plain === null || plain.length !== encrypted.length) {
      this.openChain = null;
      this.lastOpenedBlock.fill(0);
      return this.decryptFresh(iv, encrypted);
    }
    for (let index = 0; index < BLOCK_BYTES; index++) plain[index] = (plain[index] as number) ^ (this.lastOpenedBlock[index] as number) ^ (iv[index] as number);
    encrypted.copy(this.lastOpenedBlock, 0, encrypted.length - BLOCK_BYTES);
    // PKCS#7, as OpenSSL's final checks it: 1 to 16 bytes, each holding the count.
    const padding = plain[plain.length - 1] as number;
    if (padding < 1 || padding > BLOCK_BYTES) return null;
    for (let index = plain.length - padding; index < plain.length; index++) if (plain[index] !== padding) return null;
    return plain.toString('utf8', 0, plain.length - padding);
  }

  /** The same with a decipher of its own. */
  private decryptFresh(iv: Buffer, encrypted: Buffer): string | null {
    try {
      const decipher = createDecipheriv('aes-256-cbc', this.password.encryption, iv);
      return decipher.update(encrypted, undefined, 'utf8') + decipher.final('utf8');
    } catch {
      return null;
    }
  }

  private async openWithIron(sealed: string): Promise<unknown> {
    try {
      return (await Iron.unseal(sealed, { [KEY_ID]: this.password }, Iron.defaults)) as unknown;
    } catch {
      return null;
    }
  }
}
