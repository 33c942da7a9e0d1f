import { Session } from '../../../../domain/session/session.js';
import { isSessionId, prunesOnThisRequest, SESSION_ID_BYTES, sessionIdFrom, sessionStorageKey } from '../../../../domain/session/session-id.js';
import { sessionExpiresAt } from '../../../../domain/session/snapshot.js';
import type { Logger } from '../../../../ports/logger.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import type { SessionStore } from '../../../../ports/session-store.js';
import { SetCookie } from '../cookies.js';
import { headerText } from '../context.js';
import type { KernelContext } from '../context.js';
import { SESSION_COOKIE, loginOf, needsWrite } from './session-driver.js';
import type { OpenedSession, SessionDriver } from './session-driver.js';

/**
 * `SESSION_DRIVER=database`: the cookie holds only a random 256-bit id; the data is a row of
 * the `sessions` table stored under the id's SHA-256. A login or logout moves the session to
 * a new id (a planted id is worthless afterwards) and deletes the old row. About one request
 * in 50 also deletes expired rows, after its answer is on its way.
 */
export class DatabaseSessionDriver implements SessionDriver {
  constructor(
    private readonly sessions: SessionStore,
    private readonly random: RandomSource,
    private readonly defaultLifetimeMinutes: number,
    private readonly logger: Logger,
  ) {}

  async open(values: readonly string[], now: Date): Promise<OpenedSession | null> {
    for (const id of values) {
      if (!isSessionId(id)) continue;
      const stored = await this.sessions.read(sessionStorageKey(id), now);
      if (stored === null) continue;
      const resumed = Session.resume(stored, { now, defaultLifetimeMinutes: this.defaultLifetimeMinutes });
      if (resumed.kind !== 'resumed') continue;
      const stamp = (stored as { lastActivityAt?: unknown }).lastActivityAt;
      return { session: resumed.session, lastWritten: typeof stamp === 'number' ? stamp : 0, id, login: loginOf(resumed.session), lifetimeMinutes: resumed.session.lifetimeMinutes() };
    }
    return null;
  }

  async save(ctx: KernelContext, session: Session, opened: OpenedSession | null, now: Date): Promise<SetCookie | null> {
    this.maybePrune(now);
    const moving = opened !== null && session.needsNewId();
    if (!moving && !needsWrite(session, opened, now, this.defaultLifetimeMinutes)) return null;
    if (moving) await this.sessions.destroy(sessionStorageKey(opened.id as string));
    const id = opened === null || moving ? sessionIdFrom(this.random.bytes(SESSION_ID_BYTES)) : (opened.id as string);

    const snapshot = session.commit(now);
    await this.sessions.write(sessionStorageKey(id), {
      snapshot,
      userId: snapshot.userId,
      ipAddress: ctx.ip,
      userAgent: headerText(ctx.headers['user-agent']) ?? null,
      lastActivity: now,
      expiresAt: new Date(sessionExpiresAt(snapshot, this.defaultLifetimeMinutes)),
    });
    // The browser's cookie needs changing for a new id, and for a 'remember me' session whose
    // Max-Age must move forward with the activity; otherwise it is already right.
    if (id === opened?.id && snapshot.lifetimeMinutes === null) return null;
    const cookie = SetCookie.make(SESSION_COOKIE, id);
    return snapshot.lifetimeMinutes === null ? cookie : cookie.maxAge(snapshot.lifetimeMinutes * 60);
  }

  /** Every row of the user goes; this request's session is written afterwards under a new id. */
  async forgetSessionsOf(userId: number): Promise<void> {
    await this.sessions.destroyOthersOf(userId, null);
  }

  private maybePrune(now: Date): void {
    if (!prunesOnThisRequest(this.random.bytes(1)[0] ?? 255)) return;
    this.sessions.prune(now).then(
      (deleted) => {
        if (deleted > 0) this.logger.debug('expired sessions deleted', { deleted });
      },
      (error: unknown) => this.logger.error('deleting expired sessions failed', { error }),
    );
  }
}
