import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * Whether two secrets (tokens, passwords of a URL) are equal, in time that depends on neither
 * where they first differ nor their lengths: both sides are hashed to 32 bytes first, then
 * compared with `timingSafeEqual`. For MACs of a fixed length, compare the bytes directly.
 */
export function sameSecret(expected: string, actual: string): boolean {
  return timingSafeEqual(sha256(expected), sha256(actual));
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text, 'utf8').digest();
}
