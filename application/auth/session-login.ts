import type { Session } from '../../domain/session/session.js';
import type { User } from '../../domain/users/user.js';
import type { Clock } from '../../ports/clock.js';
import type { RandomSource } from '../../ports/random-source.js';
import { base64url } from '../../domain/shared/bytes.js';

/** What the session transition of a login reads: the time, fresh randomness, and REMEMBER_LIFETIME. */
export interface SessionLoginServices {
  readonly clock: Clock;
  readonly random: RandomSource;
  /** REMEMBER_LIFETIME in minutes: the lifetime of a 'remember me' session. */
  readonly rememberLifetimeMinutes: number;
}

/** A session's CSRF token: 32 random bytes (a new session's, and each login's and logout's fresh one). */
export function newSessionToken(random: RandomSource): string {
  return base64url(random.bytes(32));
}

/**
 * The session transition of spec 001's login, in one place: the session becomes the user's,
 * with a new CSRF token, and is marked for a new id (the driver rotates it when it stores the
 * session, so a session id fixed before the login is worth nothing after it); 'remember me'
 * gives it REMEMBER_LIFETIME. `CompleteLogin` runs it for every built-in login, and the
 * kernel's `ctx.auth.login` for an app's own login handler.
 */
export function loginSession(session: Session, user: User, remember: boolean, services: SessionLoginServices): void {
  session.login(user.id, { epoch: user.sessionEpoch, now: services.clock.now(), newToken: newSessionToken(services.random) });
  if (remember) session.setLifetime(services.rememberLifetimeMinutes);
}
