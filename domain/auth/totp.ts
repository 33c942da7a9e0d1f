import { MisuseError } from '../shared/errors.js';
/**
 * The time-based one-time passwords of RFC 6238 as authenticator apps expect them by default:
 * HMAC-SHA-1, six digits, a new code every 30 seconds. Apps ignore other settings often
 * enough that choosing anything else would lock some users out.
 */
export const TOTP_ALGORITHM = 'SHA1';
export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
/** One step either side of now is accepted: a phone clock a little off, or a code typed as it changed. */
export const TOTP_WINDOW = 1;

/** 160 bits, the HMAC-SHA-1 key length RFC 4226 recommends. */
export const TOTP_SECRET_BYTES = 20;

const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/**
 * The shared secret as apps take it (typed or from the QR code): RFC 4648 base32, upper case,
 * without padding (20 bytes make exactly 32 characters).
 */
export function totpSecretFrom(bytes: Uint8Array): string {
  if (bytes.length !== TOTP_SECRET_BYTES) throw new MisuseError('auth.random-bytes', `A TOTP secret needs ${TOTP_SECRET_BYTES} random bytes, got ${bytes.length}`);
  let text = '';
  let buffer = 0;
  let bits = 0;
  for (const byte of bytes) {
    buffer = (buffer << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      text += BASE32[(buffer >>> (bits - 5)) & 31];
      bits -= 5;
    }
    buffer &= (1 << bits) - 1; // keep only the bits not yet written, so the number never grows
  }
  if (bits > 0) text += BASE32[(buffer << (5 - bits)) & 31];
  return text;
}

/** The secret grouped by four for reading aloud or typing by hand: `ABCD EFGH …`. Apps ignore the spaces. */
export function displayTotpSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/gu, '$1 ');
}

/**
 * A typed code, or null when it cannot be one. Apps show `123 456`; people paste `123-456`
 * or add a space at the end: those separators go, anything else refuses the code.
 */
export function normalizeTotpCode(input: string): string | null {
  const code = input.replace(/[\s-]/gu, '');
  return code.length === TOTP_DIGITS && /^[0-9]+$/u.test(code) ? code : null;
}

/** The number of the 30-second step `at` falls in, counted from the epoch (RFC 6238's T). */
export function totpStep(at: Date): number {
  const ms = at.getTime();
  if (!Number.isFinite(ms)) throw new MisuseError('auth.bad-time', 'totpStep needs a valid time');
  return Math.floor(ms / 1000 / TOTP_PERIOD_SECONDS);
}
