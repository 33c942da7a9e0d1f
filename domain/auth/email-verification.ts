import { createHash } from 'node:crypto';

/** A verification link works for an hour (spec: a signed URL that expires in 60 minutes). */
export const VERIFICATION_LINK_TTL_SECONDS = 60 * 60;

/**
 * The `{hash}` of `/verify-email/{id}/{hash}`: the SHA-256 of the address the link was sent to.
 * The link is also signed; the hash makes it stop working once the user changes the address.
 */
export function emailVerificationHash(email: string): string {
  return createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
}
