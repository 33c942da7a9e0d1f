import { MisuseError } from '../shared/errors.js';
/** The spec's defaults; the configuration may set other values (SESSION_LIFETIME, REMEMBER_LIFETIME). */
export const SESSION_LIFETIME_DEFAULT_MINUTES = 120;
export const REMEMBER_LIFETIME_DEFAULT_MINUTES = 30 * 24 * 60;

/** `require_password_confirmed` lets through users who typed their password in the last three hours. */
export const PASSWORD_CONFIRMATION_MINUTES = 3 * 60;

export const MINUTE_MS = 60_000;

/** Above this, lifetimes in milliseconds would leave the range where integer arithmetic is exact. */
export const LIFETIME_MAX_MINUTES = Math.floor(Number.MAX_SAFE_INTEGER / MINUTE_MS / 2);

/**
 * Lifetimes are whole minutes, rounded up and at least one (the spec's rule), so a lifetime of
 * 0.1 still lets a visitor make a second request. Negative, NaN and infinite values are bugs.
 */
export function roundLifetime(minutes: number): number {
  if (!Number.isFinite(minutes) || minutes < 0) {
    throw new MisuseError('session.bad-lifetime', `A session lifetime must be a finite number of minutes, at least 0; got ${minutes}`);
  }
  const whole = Math.max(1, Math.ceil(minutes));
  if (whole > LIFETIME_MAX_MINUTES) {
    throw new MisuseError('session.bad-lifetime', `A session lifetime must be at most ${LIFETIME_MAX_MINUTES} minutes; got ${minutes}`);
  }
  return whole;
}

/** A lifetime as stored in a snapshot: already rounded, so anything else means the data is damaged. */
export function isStoredLifetime(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 1 && value <= LIFETIME_MAX_MINUTES;
}

/** The app's default comes from configuration: a bad one is a programmer error, not a user's. */
export function checkDefaultLifetime(minutes: number): number {
  if (!isStoredLifetime(minutes)) {
    throw new MisuseError('session.bad-lifetime', `The default session lifetime must be a whole number of minutes, at least 1; got ${String(minutes)}`);
  }
  return minutes;
}
