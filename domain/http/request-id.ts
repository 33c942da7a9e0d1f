import { MisuseError } from '../shared/errors.js';
import { bytesAsBuffer } from '../shared/bytes.js';
/** An incoming `X-Request-Id` worth keeping: 8 to 64 letters, digits, `.`, `_` or `-`. */
const ACCEPTABLE = /^[A-Za-z0-9._-]{8,64}$/u;

/**
 * Keeps the id a proxy or client sent when it is safe to echo into logs and headers;
 * otherwise the caller makes one. Anything else (spaces, newlines, quotes, too short or long)
 * is refused rather than cleaned, so a log line can never be forged through this header.
 */
export function acceptRequestId(incoming: string | undefined): string | null {
  return incoming !== undefined && ACCEPTABLE.test(incoming) ? incoming : null;
}

/** A new id from random bytes the caller made: 16 bytes give 32 hex characters. */
export function newRequestId(bytes: Uint8Array): string {
  if (bytes.length < 8) throw new MisuseError('http.random-bytes', 'a request id needs at least 8 random bytes');
  return bytesAsBuffer(bytes).toString('hex');
}
