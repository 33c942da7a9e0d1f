import { createHash } from 'node:crypto';
import { RANDOM_BYTES } from './limits.js';
import { MisuseError } from '../shared/errors.js';
import { base64url } from '../shared/bytes.js';

/**
 * PKCE (RFC 7636) with S256. The verifier stays in the session; only its SHA-256 travels in
 * the authorization URL, so a stolen code is worthless without the session that asked for it.
 * Randomness comes in as bytes: the domain never draws it.
 */
export const PKCE_METHOD = 'S256';

/** RFC 7636 §4.1: 43 to 128 characters of the unreserved set. */
const VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/u;

/** A random value in the shape `state`, the verifier and the nonce share: 32 bytes as base64url. */
export function randomToken(bytes: Uint8Array): string {
  if (!(bytes instanceof Uint8Array) || bytes.length !== RANDOM_BYTES) {
    throw new MisuseError('oauth.random-bytes', `A state, PKCE verifier or nonce needs exactly ${RANDOM_BYTES} random bytes`);
  }
  return base64url(bytes);
}

/** 43 base64url characters: what `randomToken` makes and nothing else. */
const TOKEN = /^[A-Za-z0-9_-]{43}$/u;

export function isRandomToken(value: unknown): value is string {
  return typeof value === 'string' && TOKEN.test(value);
}

export function isPkceVerifier(value: unknown): value is string {
  return typeof value === 'string' && VERIFIER.test(value);
}

/** `BASE64URL(SHA256(ASCII(verifier)))`, RFC 7636 §4.2. */
export function pkceChallenge(verifier: string): string {
  if (!isPkceVerifier(verifier)) throw new MisuseError('oauth.bad-pkce-verifier', 'A PKCE verifier is 43 to 128 characters of A-Z, a-z, 0-9, "-", ".", "_", "~"');
  return createHash('sha256').update(verifier, 'ascii').digest('base64url');
}
