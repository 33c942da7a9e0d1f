import { Session } from '../../../../domain/session/session.js';
import type { Clock } from '../../../../ports/clock.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import { bearerToken } from '../../../../domain/http/bearer.js';
import { cookieValues } from '../cookie-header.js';
import { headerText } from '../context.js';
import { withExtras } from '../replies.js';
import type { Stage } from '../pipeline.js';
import { SESSION_COOKIE } from '../session/session-driver.js';
import type { OpenedSession, SessionDriver } from '../session/session-driver.js';
import type { KernelContext } from '../context.js';
import type { Reply } from '../replies.js';
import { newSessionToken } from '../../../../application/auth/session-login.js';
import { LIVE_VALIDATION_HEADER } from '../live-validation.js';

export interface SessionStageOptions {
  driver: SessionDriver;
  clock: Clock;
  random: RandomSource;
}

/**
 * Stage 5, 'session': opens the visitor's session through the driver (a tampered, foreign or
 * expired one is a fresh session, never an error), and stores it after the answer is made.
 * A new session is kept only when the answer is worth it (not for a 404 to a scanner, a
 * webhook's caller or a bearer-token client), and a live-validation check stores none.
 */
export function sessionStage(options: SessionStageOptions): Stage {
  const { driver } = options;
  const run = async (ctx: KernelContext, next: () => Promise<Reply>, opened: OpenedSession | null): Promise<Reply> => {
    const session = opened?.session ?? Session.start({ token: newSessionToken(options.random), now: options.clock.now() });
    ctx.attachSession(session, driver);

    const reply = await next();

    // A live-validation check is not a step the visitor took: storing its session would age the
    // flash (the toast of a save whose page is loading now) or overwrite what that save stored.
    if (ctx.headers[LIVE_VALIDATION_HEADER] !== undefined) return reply;
    // A client that signs in with a bearer token keeps no cookies: a session it starts is not sent.
    if (opened === null && (!ctx.traits.keepsNewSession || bearerToken(headerText(ctx.headers['authorization'])) !== null)) return reply;
    const cookie = await driver.save(ctx, session, opened, options.clock.now());
    return cookie === null ? reply : withExtras(reply, cookie);
  };
  return (ctx, next) => {
    const values = cookieValues(ctx.headers['cookie'], SESSION_COOKIE);
    // A visitor without a session cookie (a first visit, a crawler) has nothing to open: no
    // promise to wait for.
    return values.length === 0 ? run(ctx, next, null) : driver.open(values, options.clock.now()).then((opened) => run(ctx, next, opened));
  };
}
