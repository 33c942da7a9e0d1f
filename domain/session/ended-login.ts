import { MINUTE_MS } from './lifetime.js';

/**
 * A cookie session cannot be deleted: a copy of the cookie taken before a logout still opens.
 * So a logout from a cookie session records that login (`Session.loginId`) as
 * ended, for as long as any copy of it could still be alive; a cookie of an ended login opens
 * as no session. (The database driver deletes the row instead.)
 */
export function endedLoginKey(userId: number, loginId: string): string {
  return `session-ended:${userId}:${loginId}`;
}

/** Until when a copy of a cookie written now can be alive. */
export function endedLoginExpiry(now: number, lifetimeMinutes: number): Date {
  return new Date(now + lifetimeMinutes * MINUTE_MS);
}
