import { MisuseError } from '../shared/errors.js';
/**
 * What a sign-in is for, fixed when it starts (`oauth.redirect`) and kept with its `state`:
 * - `login`: a guest signs in (or is made a user);
 * - `link`: a logged-in user links this provider (the Link control on /account);
 * - `confirm`: a logged-in user confirms who they are (`?intent=confirm`, from /confirm-password).
 *
 * Fixing it at the start, with the user who asked, means the callback never does more than the
 * visitor asked for: a guest's sign-in that returns into a session where someone has logged in
 * since links nothing, and a Link started by one user never lands on another.
 */
export type SignInIntent = 'login' | 'link' | 'confirm';

export interface SignInPurpose {
  readonly intent: SignInIntent;
  /** The user who asked to link or confirm; null for a guest's login. */
  readonly userId: number | null;
  /** `?remember=1` on a guest's login: the session lasts as with 'remember me'. */
  readonly remember: boolean;
}

/** The query of `oauth.redirect` as the HTTP layer hands it over: a value may be absent or repeated. */
export interface SignInQuery {
  readonly intent?: unknown;
  readonly remember?: unknown;
}

/**
 * Reads `?intent=confirm` and `?remember=1` for the visitor (`null` for a guest). Exact values
 * only; anything else (another intent, `remember=true`, a repeated parameter) counts as
 * absent, as a form ignores fields it does not know. A guest has nothing to confirm, so
 * `intent=confirm` from a guest is a plain login; a user's session already has its lifetime,
 * so `remember` applies to guests only.
 */
export function signInPurpose(query: SignInQuery, visitorUserId: number | null): SignInPurpose {
  if (visitorUserId === null) return { intent: 'login', userId: null, remember: query.remember === '1' };
  if (!isUserId(visitorUserId)) throw new MisuseError('oauth.bad-user-id', `A user id must be a positive integer; got ${String(visitorUserId)}`);
  return { intent: query.intent === 'confirm' ? 'confirm' : 'link', userId: visitorUserId, remember: false };
}

export function isUserId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

/** A guest's login has no user; a link or a confirmation has the user who asked, and no 'remember me'. */
export function isSignInPurpose(value: { intent: unknown; userId: unknown; remember: unknown }): value is SignInPurpose {
  if (value.intent === 'login') return value.userId === null && typeof value.remember === 'boolean';
  return (value.intent === 'link' || value.intent === 'confirm') && isUserId(value.userId) && value.remember === false;
}
