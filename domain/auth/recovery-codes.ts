import { createHash } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';

/**
 * Recovery codes: the way in when the phone is lost. Each works once. They are shown to the
 * user once, when made, and only their hashes are kept.
 *
 * A code is ten characters of Crockford's base32 (digits and lower-case letters without i, l,
 * o and u), shown as `xxxxx-xxxxx`: 50 random bits. What people type is forgiven the way
 * Crockford intends: any case, spaces and dashes anywhere, `i` and `l` read as `1`, `o` as `0`.
 */
export const RECOVERY_CODE_COUNT = 8;
export const RECOVERY_CODE_LENGTH = 10;
/** One random byte per character; 256 is a multiple of 32, so every character is equally likely. */
export const RECOVERY_CODE_BYTES = RECOVERY_CODE_COUNT * RECOVERY_CODE_LENGTH;

export const RECOVERY_CODE_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';

const LOOK_ALIKES: Readonly<Record<string, string>> = { i: '1', l: '1', o: '0' };
const CANONICAL = /^[0-9a-hjkmnp-tv-z]{10}$/u;

/** A new set of codes, as shown to the user, from `RECOVERY_CODE_BYTES` random bytes. */
export function recoveryCodesFrom(bytes: Uint8Array): string[] {
  if (bytes.length !== RECOVERY_CODE_BYTES) {
    throw new MisuseError('auth.random-bytes', `Recovery codes need ${RECOVERY_CODE_BYTES} random bytes, got ${bytes.length}`);
  }
  const codes: string[] = [];
  for (let start = 0; start < bytes.length; start += RECOVERY_CODE_LENGTH) {
    let code = '';
    for (const byte of bytes.subarray(start, start + RECOVERY_CODE_LENGTH)) code += RECOVERY_CODE_ALPHABET[byte & 31];
    codes.push(formatRecoveryCode(code));
  }
  return codes;
}

/** `abcde12345` as shown: `abcde-12345`. */
export function formatRecoveryCode(canonical: string): string {
  if (!CANONICAL.test(canonical)) throw new MisuseError('auth.bad-recovery-code', 'formatRecoveryCode needs a normalised recovery code');
  return `${canonical.slice(0, 5)}-${canonical.slice(5)}`;
}

/** What was typed as one code, in its one canonical spelling (ten characters, no dash), or null. */
export function normalizeRecoveryCode(input: string): string | null {
  // Bounded first: a megabyte of spaces is no code, and is not worth a regex pass.
  if (input.length > 64) return null;
  const compact = input
    .replace(/[\s-]/gu, '')
    .toLowerCase()
    .replace(/[ilo]/gu, (char) => LOOK_ALIKES[char] ?? char);
  return CANONICAL.test(compact) ? compact : null;
}

/**
 * What is stored: SHA-256 (hex) over the user's id and the canonical code. The id makes the
 * same code hash differently for two users, so a leaked table cannot be attacked for all
 * users at once, nor a user's list copied onto another's row. Fifty bits are far beyond any
 * online guessing (challenges are rate-limited); offline, the hashes alone are not enough:
 * the attacker also needs the password, kept under Argon2id.
 */
export function recoveryCodeHash(userId: number, canonical: string): string {
  if (!Number.isSafeInteger(userId) || userId < 1) throw new MisuseError('auth.bad-user-id', 'recoveryCodeHash needs a user id');
  if (!CANONICAL.test(canonical)) throw new MisuseError('auth.bad-recovery-code', 'recoveryCodeHash needs a normalised recovery code');
  return createHash('sha256').update(`fw:recovery-code:${userId}:${canonical}`, 'utf8').digest('hex');
}

/** The stored hashes of a new set of codes. */
export function recoveryCodeHashes(userId: number, codes: readonly string[]): string[] {
  return codes.map((code) => {
    const canonical = normalizeRecoveryCode(code);
    if (canonical === null) throw new MisuseError('auth.bad-recovery-code', 'recoveryCodeHashes needs well-formed recovery codes');
    return recoveryCodeHash(userId, canonical);
  });
}

/** A stored hash as `recoveryCodeHash` writes it; anything else found in a row is ignored. */
export function isRecoveryCodeHash(value: unknown): value is string {
  return typeof value === 'string' && /^[0-9a-f]{64}$/u.test(value);
}
