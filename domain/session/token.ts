import { MisuseError } from '../shared/errors.js';
/**
 * The CSRF token is made by the caller from a random source (the domain has none); 32
 * characters is the floor so that a token made of hex or base64url text still carries at least
 * 128 bits.
 */
export const TOKEN_MIN_LENGTH = 32;

export function isToken(value: unknown): value is string {
  return typeof value === 'string' && value.length >= TOKEN_MIN_LENGTH;
}

export function checkToken(token: string): string {
  if (!isToken(token)) {
    throw new MisuseError('session.bad-token', `A session token must be a string of at least ${TOKEN_MIN_LENGTH} random characters`);
  }
  return token;
}
