import { createHash } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';
import { base64url } from '../shared/bytes.js';

/** A reset link works for an hour (spec: valid 60 minutes, single use). */
export const RESET_TOKEN_TTL_MINUTES = 60;
export const RESET_TOKEN_BYTES = 32;

const TOKEN = /^[A-Za-z0-9_-]{43}$/u;

/** The token a reset link carries: 256 random bits, base64url. */
export function resetTokenFrom(bytes: Uint8Array): string {
  if (bytes.length !== RESET_TOKEN_BYTES) throw new MisuseError('auth.random-bytes', `A reset token needs ${RESET_TOKEN_BYTES} random bytes`);
  return base64url(bytes);
}

/** Only well-formed tokens are looked up; a link cut short or padded is refused before. */
export function isResetToken(value: string): boolean {
  return TOKEN.test(value);
}

/** What a reset token is tied to: the user's credentials at the moment the link was made. */
export interface ResetTokenOwner {
  readonly email: string;
  readonly passwordHash: string | null;
}

/**
 * What is stored: the SHA-256 of the token together with the owner's address and password hash,
 * so a leaked table resets nobody's password, and a link stops working the moment either
 * changes, by whatever path (the account page, a first password, `fwx user:password`, a completed
 * reset, an address change): the token no longer hashes to what was stored. Password hashes carry
 * a fresh salt, so setting the same password again still ends old links.
 */
export function resetTokenHash(token: string, owner: ResetTokenOwner): string {
  return createHash('sha256')
    .update(token, 'utf8')
    .update('\0', 'utf8')
    .update(owner.email, 'utf8')
    .update('\0', 'utf8')
    .update(owner.passwordHash ?? '', 'utf8')
    .digest('hex');
}

/** Whether a token made at `createdAt` still works at `now`: for 60 minutes, the last one included. */
export function resetTokenAlive(createdAt: Date, now: Date): boolean {
  const age = now.getTime() - createdAt.getTime();
  return age >= 0 && age < RESET_TOKEN_TTL_MINUTES * 60_000;
}
