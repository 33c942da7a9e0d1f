import { Limit, currentWindow, retryAfterSeconds, windowKey } from '../http/rate-limits/rate-limit.js';
import type { Instant } from '../http/rate-limits/rate-limit.js';

/**
 * At most five wrong answers a minute to one user's challenge. Counted per user, not per
 * client: whoever is guessing already knows the password, and spreading the guesses over many
 * addresses must not buy more of them. A million codes, three of them right at any moment: at
 * this pace a guess succeeds once in about 46 days on average.
 */
export const TWO_FACTOR_LOCK = Limit.perMinute(5);

/** The counter of this minute's challenge attempts for the user. */
export function twoFactorLockKey(userId: number, now: Instant): string {
  return windowKey('two-factor', `user:${userId}`, TWO_FACTOR_LOCK, now);
}

export type TwoFactorLockState = { kind: 'open' } | { kind: 'locked'; retryAfterSeconds: number; until: number };

/** Locked once earlier attempts of this minute reached the limit; the wait is what is left of the minute. */
export function twoFactorLockState(earlierAttempts: number, now: Instant): TwoFactorLockState {
  if (earlierAttempts < (TWO_FACTOR_LOCK.max ?? Infinity)) return { kind: 'open' };
  return { kind: 'locked', retryAfterSeconds: retryAfterSeconds(TWO_FACTOR_LOCK, now), until: currentWindow(TWO_FACTOR_LOCK, now).resetsAt };
}
