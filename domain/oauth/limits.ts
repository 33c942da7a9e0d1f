import { PASSWORD_CONFIRMATION_MINUTES } from '../session/lifetime.js';

/** The limits table of the social-login spec, plus the bounds it leaves to the framework. */

/** A `state` is accepted for ten minutes from the redirect, the last millisecond excluded. */
export const STATE_LIFETIME_MINUTES = 10;
export const STATE_LIFETIME_MS = STATE_LIFETIME_MINUTES * 60_000;

/** Each `state` is used once: the first callback that presents it removes it, whatever the outcome. */
export const STATE_USES = 1;

/** A login with a provider counts as a recent password confirmation for three hours, like a typed password. */
export const RECENT_CONFIRMATION_MINUTES = PASSWORD_CONFIRMATION_MINUTES;

/** A user has at most one account per provider (a unique key, and refused before it is reached). */
export const ACCOUNTS_PER_USER_PER_PROVIDER = 1;

/** A provider account links to exactly one user (a unique key, and refused before it is reached). */
export const USERS_PER_PROVIDER_ACCOUNT = 1;

/**
 * Pending sign-ins one session keeps at once (not in the spec). Two tabs must not clobber each
 * other, yet each entry is about 265 bytes of JSON (some 360 once sealed into a cookie) of the
 * 4 KB a browser keeps for a cookie session, beside the old input a failed form may flash.
 * Three covers two tabs and a retry; a fourth start drops the oldest, whose callback is then
 * refused as unknown and the visitor starts again.
 */
export const MAX_PENDING_SIGN_INS = 3;

/**
 * How far in the future a stored start may lie: servers behind one load balancer disagree on
 * the time by a little. Beyond that the entry was not made by this app and is dropped.
 */
export const CLOCK_SKEW_MS = 60_000;

/** Random bytes behind each `state`, PKCE verifier and nonce: 256 bits, 43 base64url characters. */
export const RANDOM_BYTES = 32;
