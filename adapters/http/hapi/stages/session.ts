import { Session } from '../../../../domain/session/session.js';
import type { Clock } from '../../../../ports/clock.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import type { CookieSealer } from '../../cookie-sealer.js';
import { SetCookie } from '../../cookies.js';
import { Combined } from '../../replies.js';
import type { Reply } from '../../replies.js';
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
    // Every value sent is tried, first to last: a parent domain's copy or a nameless cookie in
    // front must not log the visitor out (see cookie-header.ts).
    for (const sealed of cookieValues(ctx.headers['cookie'], SESSION_COOKIE)) {
      const snapshot = await options.sealer.unseal(SESSION_COOKIE, sealed);
      if (snapshot !== undefined) {
        const resumed = Session.resume(snapshot, { now, defaultLifetimeMinutes: options.lifetimeMinutes });
        if (resumed.kind === 'resumed') {
          session = resumed.session;
          break;
        }
      }
    }
    session ??= Session.start({ token: newToken(options.random), now });
    ctx.attachSession(session);

    const reply = await next();

    const snapshot = session.commit(options.clock.now());
    const value = await options.sealer.seal(SESSION_COOKIE, snapshot);
    if (value.length > COOKIE_WARNING_BYTES) {
      ctx.log.warn('the session cookie is close to the 4 KB browsers keep; store less in the session or use SESSION_DRIVER=database', { bytes: value.length });
    }
    let cookie = SetCookie.make(SESSION_COOKIE, value);
    if (snapshot.lifetimeMinutes !== null) cookie = cookie.maxAge(snapshot.lifetimeMinutes * 60);
    return withExtras(reply, cookie);
  };
}

export function withExtras(reply: Reply, ...extras: Combined['extras']): Reply {
  return reply instanceof Combined ? new Combined(reply.primary, [...reply.extras, ...extras]) : new Combined(reply, extras);
}
