import { createHash } from 'node:crypto';
import { Limit, currentWindow, retryAfterSeconds, windowKey } from '../http/rate-limits/rate-limit.js';
import type { Instant } from '../http/rate-limits/rate-limit.js';
import { normalizeEmail } from '../users/email.js';

/** At most five failed logins a minute for one address from one client (spec 000/001: the login lock). */
export const LOGIN_LOCK = Limit.perMinute(5);

/**
 * The counter of failed logins for this address from this client, in the current minute. The
 * address is normalised (so `ADA@x` and `ada@x ` share a lock) and hashed: the cache table
 * must not become a list of who tried to log in.
 */
export function loginLockKey(email: string, ip: string | null, now: Instant): string {
  const checked = normalizeEmail(email);
  const address = checked.kind === 'valid' ? checked.email : email.trim().toLowerCase();
  const subject = createHash('sha256').update(`${address}|${ip ?? 'unknown'}`, 'utf8').digest('base64url');
  return windowKey('login', subject, LOGIN_LOCK, now);
}

export type LoginLockState = { kind: 'open' } | { kind: 'locked'; retryAfterSeconds: number; until: number };

/** Locked once the failures of this minute reached the limit; the wait is what is left of the minute. */
export function loginLockState(failures: number, now: Instant): LoginLockState {
  if (failures < (LOGIN_LOCK.max ?? Infinity)) return { kind: 'open' };
  return { kind: 'locked', retryAfterSeconds: retryAfterSeconds(LOGIN_LOCK, now), until: currentWindow(LOGIN_LOCK, now).resetsAt };
}
