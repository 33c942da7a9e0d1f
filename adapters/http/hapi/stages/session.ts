import { Session } from '../../../../domain/session/session.js';
import type { Clock } from '../../../../ports/clock.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import type { CookieSealer } from '../../cookie-sealer.js';
import { SetCookie } from '../../cookies.js';
import { withExtras } from '../../replies.js';
import { cookieValues } from '../../cookie-header.js';
import type { Stage } from '../pipeline.js';

export const SESSION_COOKIE = 'fw_session';

/** Browsers drop cookies over 4 KB; a warning comes a little before, while there is time to act. */
const COOKIE_WARNING_BYTES = 3800;

export interface SessionStageOptions {
  sealer: CookieSealer;
  clock: Clock;
  random: RandomSource;
  lifetimeMinutes: number;
}

export function newToken(random: RandomSource): string {
  return Buffer.from(random.bytes(32)).toString('base64url');
}

/**
 * The cookie session driver: the whole session lives in one cookie, sealed with keys derived
 * from APP_KEY. A tampered, foreign or expired cookie is an empty session, never an error. The
 * cookie is re-sealed on every answer because the inactivity clock restarts with every visit;
 * it lasts until the browser closes, or for the session's own lifetime ('remember me').
 */
export function sessionStage(options: SessionStageOptions): Stage {
  return async (ctx, next) => {
    const now = options.clock.now();
    let session: Session | null = null;
    let lastWritten: number | null = null;
    // Every value sent is tried, first to last: a parent domain's copy or a nameless cookie in
    // front must not log the visitor out (see cookie-header.ts).
    for (const sealed of cookieValues(ctx.headers['cookie'], SESSION_COOKIE)) {
      const snapshot = await options.sealer.unseal(SESSION_COOKIE, sealed);
      if (snapshot !== undefined) {
        const resumed = Session.resume(snapshot, { now, defaultLifetimeMinutes: options.lifetimeMinutes });
        if (resumed.kind === 'resumed') {
          session = resumed.session;
          const stamp = (snapshot as { lastActivityAt?: unknown }).lastActivityAt;
          lastWritten = typeof stamp === 'number' ? stamp : null;
          break;
        }
      }
    }
    session ??= Session.start({ token: newToken(options.random), now });
    ctx.attachSession(session);

    const reply = await next();

    const later = options.clock.now();
    if (lastWritten === null && !ctx.persistNewSession) return reply;
    if (lastWritten !== null && !session.isDirty() && later.getTime() - lastWritten < refreshAfterMs(session.lifetimeMinutes() ?? options.lifetimeMinutes)) {
      // Nothing changed and the cookie was written moments ago: its inactivity clock is close
      // enough, and sealing again would cost a cipher and an HMAC for nothing.
      return reply;
    }
    const snapshot = session.commit(later);
    const value = await options.sealer.seal(SESSION_COOKIE, snapshot);
    if (value.length > COOKIE_WARNING_BYTES) {
      ctx.log.warn('the session cookie is close to the 4 KB browsers keep; store less in the session or use SESSION_DRIVER=database', { bytes: value.length });
    }
    let cookie = SetCookie.make(SESSION_COOKIE, value);
    if (snapshot.lifetimeMinutes !== null) cookie = cookie.maxAge(snapshot.lifetimeMinutes * 60);
    return withExtras(reply, cookie);
  };
}

/**
 * How stale an unchanged session's last-activity time may get before the cookie is written
 * again: a minute, or a quarter of the lifetime for short ones, so a visitor who keeps coming
 * back within the lifetime is never logged out by the saving.
 */
export function refreshAfterMs(lifetimeMinutes: number): number {
  return Math.min(60_000, (lifetimeMinutes * 60_000) / 4);
}
