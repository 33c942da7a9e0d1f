import { endedLoginExpiry, endedLoginKey } from '../../../../domain/session/ended-login.js';
import { Session } from '../../../../domain/session/session.js';
import { compactSnapshot } from '../../../../domain/session/snapshot.js';
import type { CacheStore } from '../../../../ports/cache-store.js';
import type { Sealer } from '../sealer.js';
import { SetCookie } from '../cookies.js';
import type { KernelContext } from '../context.js';
import { SESSION_COOKIE, loginOf, needsWrite } from './session-driver.js';
import type { OpenedSession, SessionDriver } from './session-driver.js';

/** Browsers drop cookies over 4 KB; a warning comes a little before, while there is time to act. */
const COOKIE_WARNING_BYTES = 3800;

/**
 * The cookie session driver (the default): the whole session lives in one cookie, sealed with
 * keys derived from APP_KEY. The sealed payload carries its own last-activity time, so a copy
 * past its lifetime is refused here, not only by the browser. It needs no database; the ended
 * logins that make copied cookies worthless after a logout live on the shared counters
 * (CACHE_STORE), so every server refuses them.
 */
export class CookieSessionDriver implements SessionDriver {
  constructor(
    private readonly sealer: Sealer,
    private readonly defaultLifetimeMinutes: number,
    private readonly endedLogins: CacheStore,
  ) {}

  async open(values: readonly string[], now: Date): Promise<OpenedSession | null> {
    // Every value sent is tried, first to last: a parent domain's copy or a nameless cookie in
    // front must not log the visitor out (see cookie-header.ts).
    for (const sealed of values) {
      const snapshot = await this.sealer.unseal(SESSION_COOKIE, sealed);
      if (snapshot === undefined) continue;
      const resumed = Session.resume(snapshot, { now, defaultLifetimeMinutes: this.defaultLifetimeMinutes });
      if (resumed.kind !== 'resumed') continue;
      const login = loginOf(resumed.session);
      if (login !== null && (await this.endedLogins.count(endedLoginKey(login.userId, login.loginId))) > 0) continue;
      const stamp = (snapshot as { lastActivityAt?: unknown }).lastActivityAt;
      return { session: resumed.session, lastWritten: typeof stamp === 'number' ? stamp : 0, id: null, login, lifetimeMinutes: resumed.session.lifetimeMinutes() };
    }
    return null;
  }

  /** Cookies live in browsers: the raised session epoch is what ends them. */
  forgetSessionsOf(): Promise<void> {
    return Promise.resolve();
  }

  async save(ctx: KernelContext, session: Session, opened: OpenedSession | null, now: Date): Promise<SetCookie | null> {
    if (!needsWrite(session, opened, now, this.defaultLifetimeMinutes)) return null;
    const before = opened?.login ?? null;
    const after = loginOf(session);
    if (before !== null && (after === null || after.loginId !== before.loginId)) {
      // A logout, or another login, on this browser: copies of the old cookie must not sign in.
      // They can live at most a lifetime from now (the longest one, in case it was 'remember me').
      const lifetime = Math.max(session.lifetimeMinutes() ?? 0, opened?.lifetimeMinutes ?? 0, this.defaultLifetimeMinutes);
      await this.endedLogins.increment(endedLoginKey(before.userId, before.loginId), endedLoginExpiry(now.getTime(), lifetime));
    }
    const snapshot = session.commit(now);
    const value = await this.sealer.seal(SESSION_COOKIE, compactSnapshot(snapshot));
    if (value.length > COOKIE_WARNING_BYTES) {
      ctx.log.warn('the session cookie is close to the 4 KB browsers keep; store less in the session or use SESSION_DRIVER=database', { bytes: value.length });
    }
    const cookie = SetCookie.make(SESSION_COOKIE, value);
    return snapshot.lifetimeMinutes === null ? cookie : cookie.maxAge(snapshot.lifetimeMinutes * 60);
  }
}
