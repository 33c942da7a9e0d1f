import { createHash } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';
import { base64url } from '../shared/bytes.js';

/** 32 random bytes: far above the 128 bits a session id needs to be unguessable. */
export const SESSION_ID_BYTES = 32;

const SESSION_ID = /^[A-Za-z0-9_-]{43}$/u;

/** The id the database driver's cookie carries: random bytes as base64url, nothing else. */
export function sessionIdFrom(bytes: Uint8Array): string {
  if (bytes.length !== SESSION_ID_BYTES) throw new MisuseError('session.random-bytes', `A session id needs ${SESSION_ID_BYTES} random bytes, got ${bytes.length}`);
  return base64url(bytes);
}

/** Whether a cookie value can be a session id at all; anything else is not looked up. */
export function isSessionId(value: string): boolean {
  return SESSION_ID.test(value);
}

/**
 * The key a session is stored under: the SHA-256 of its id. Whoever reads the sessions table
 * (a backup, a read-only SQL injection) learns nothing they could send back as a cookie.
 */
export function sessionStorageKey(id: string): string {
  return createHash('sha256').update(id, 'utf8').digest('hex');
}

/**
 * The database driver deletes expired rows on about one request in 50 (spec 001, Limits):
 * a random byte below 5 is a chance of 5/256, one in 51.
 */
export function prunesOnThisRequest(randomByte: number): boolean {
  return randomByte < 5;
}
