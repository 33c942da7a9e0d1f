import { timingSafeEqual } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';

/**
 * The CSRF token as pages print it, masked against BREACH: pages of 1 KB or more are gzipped,
 * and a page that also reflects a visitor's input would leak a secret it prints unchanged, a
 * few bytes at a time, through the compressed sizes. So a page never prints the session's token
 * itself but `base64url(pad ‖ (pad XOR token))`, with a pad of fresh random bytes for every
 * response: the printed text differs on every page while it still proves the same token
 * (Rails' and Django's masked tokens). The token's UTF-8 bytes are masked, so a token of any
 * text an app set keeps working.
 *
 * The pad comes from the caller: the domain has no randomness of its own.
 */
export function maskToken(token: string, pad: Uint8Array): string {
  const secret = Buffer.from(token, 'utf8');
  if (pad.length !== secret.length) throw new MisuseError('http.bad-csrf-pad', `the pad must be as long as the token's ${secret.length} bytes, got ${pad.length}`);
  const masked = Buffer.allocUnsafe(secret.length * 2);
  for (let i = 0; i < secret.length; i++) {
    const byte = pad[i] as number;
    masked[i] = byte;
    masked[secret.length + i] = byte ^ (secret[i] as number);
  }
  return masked.toString('base64url');
}

/** How many bytes of pad `maskToken` needs for `token`. */
export function padLength(token: string): number {
  return Buffer.byteLength(token, 'utf8');
}

/**
 * Whether `sent` is a masked form of `token` (`maskToken` with any pad). The length of what was
 * sent and of the token are no secrets; the token's bytes are compared in constant time. Only
 * the canonical base64url text is accepted: Node's decoder skips characters outside the
 * alphabet and ignores the unused low bits of the last character, so without the round trip
 * a changed character could still decode to the right token.
 */
export function isMaskOf(token: string, sent: string): boolean {
  const secret = Buffer.from(token, 'utf8');
  if (secret.length === 0) return false;
  const decoded = Buffer.from(sent, 'base64url');
  if (decoded.length !== secret.length * 2 || decoded.toString('base64url') !== sent) return false;
  const unmasked = Buffer.allocUnsafe(secret.length);
  for (let i = 0; i < secret.length; i++) unmasked[i] = (decoded[i] as number) ^ (decoded[secret.length + i] as number);
  return timingSafeEqual(unmasked, secret);
}

/** The token `sent` unmasks to, or null when it is no masked token (for tests and tools). */
export function unmaskToken(sent: string): string | null {
  const decoded = Buffer.from(sent, 'base64url');
  if (decoded.length === 0 || decoded.length % 2 !== 0 || decoded.toString('base64url') !== sent) return null;
  const half = decoded.length / 2;
  const unmasked = Buffer.allocUnsafe(half);
  for (let i = 0; i < half; i++) unmasked[i] = (decoded[i] as number) ^ (decoded[half + i] as number);
  return unmasked.toString('utf8');
}
