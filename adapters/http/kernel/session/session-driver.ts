import type { Session } from '../../../../domain/session/session.js';
import type { SetCookie } from '../cookies.js';
import type { KernelContext } from '../context.js';

export const SESSION_COOKIE = 'fw_session';

/** A session found in the request, and what its driver needs to store it again. */
export interface OpenedSession {
  session: Session;
  /** When the stored copy was last written (epoch ms): an unchanged session is not rewritten for a while. */
  lastWritten: number;
  /** The database driver's id; the cookie driver has none. */
  id: string | null;
  /** Who was signed in when the session was opened (the handler may log in or out). */
  login: SignedInAt | null;
  /** The session's own lifetime when opened ('remember me'), null for SESSION_LIFETIME. */
  lifetimeMinutes: number | null;
}

/** A login as a session records it: the user and the login's own name (`Session.loginId`). */
export interface SignedInAt {
  userId: number;
  loginId: string;
}

export function loginOf(session: Session): SignedInAt | null {
  const userId = session.userId();
  const loginId = session.loginId();
  return userId === null || loginId === null ? null : { userId, loginId };
}

/**
 * Where a session lives between requests (`SESSION_DRIVER`): the cookie itself, or a row of
 * the `sessions` table named by a random id in the cookie. Drivers only store and load; the
 * rules (expiry, flash aging, login) are the Session's.
 */
export interface SessionDriver {
  /** The visitor's live session, or null (none sent, tampered, unknown or expired). */
  open(cookieValues: readonly string[], now: Date): Promise<OpenedSession | null>;
  /**
   * Stores the session at the end of the request (`opened` is null for a new one) and returns
   * the cookie to send, or null when the browser's cookie stays right as it is.
   */
  save(ctx: KernelContext, session: Session, opened: OpenedSession | null, now: Date): Promise<SetCookie | null>;
  /**
   * Deletes what the driver keeps of the user's sessions, after 'log out other devices' raised
   * the user's session epoch (which is what ends them, also for cookies nobody can delete).
   * Called by the handler before this request's session is stored again under a new id.
   */
  forgetSessionsOf(userId: number): Promise<void>;
}

/**
 * How stale an unchanged session's last-activity time may get before it is written again: a
 * minute, or a quarter of the lifetime for short ones, so a visitor who keeps coming back
 * within the lifetime is never logged out by the saving.
 */
export function refreshAfterMs(lifetimeMinutes: number): number {
  return Math.min(60_000, (lifetimeMinutes * 60_000) / 4);
}

/** Whether a session must be stored again now: changed, new, or its stored activity time is getting old. */
export function needsWrite(session: Session, opened: OpenedSession | null, now: Date, defaultLifetimeMinutes: number): boolean {
  if (opened === null || session.isDirty()) return true;
  return now.getTime() - opened.lastWritten >= refreshAfterMs(session.lifetimeMinutes() ?? defaultLifetimeMinutes);
}
