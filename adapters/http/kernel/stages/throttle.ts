import { currentWindow, counterSubject, decide, decisionHeaders, windowKey } from '../../../../domain/http/rate-limits/rate-limit.js';
import type { Limit } from '../../../../domain/http/rate-limits/rate-limit.js';
import type { CacheStore } from '../../../../ports/cache-store.js';
import type { Clock } from '../../../../ports/clock.js';
import { HttpAbort } from '../http-error.js';
import { Header, withExtras } from '../replies.js';
import type { AuthUser } from '../auth-user.js';
import type { RequestContext, Middleware } from '../request-context.js';

/** What a named limiter's rule sees (`App.rateLimiter(name, rule)`). */
export interface LimiterRequest {
  /** The signed-in user (session or bearer token), or null for a guest. */
  user: AuthUser | null;
  ip: string | null;
  method: string;
  path: string;
  headers: Readonly<Record<string, string | string[] | undefined>>;
}

export type LimiterRule = (request: LimiterRequest) => Limit;

export interface ThrottleOptions {
  store: CacheStore;
  clock: Clock;
  /** The counter's namespace: the route (for `.throttle`) or the limiter's name (`.throttleBy`). */
  name: string;
  limit: (ctx: RequestContext) => Limit;
}

/**
 * A route layer of `.throttle(max, per)` or `.throttleBy(name)`: counts per logged-in user, per
 * client (IPv6 /64) for guests, on the shared counters of CACHE_STORE. Over the limit: 429 with
 * `Retry-After`; allowed answers carry `X-RateLimit-Limit` and `X-RateLimit-Remaining`.
 */
export function throttleMiddleware(options: ThrottleOptions): Middleware {
  return async (ctx, next) => {
    const limit = options.limit(ctx);
    const now = options.clock.now();
    if (limit.unlimited) return next();
    const subject = counterSubject(limit, { userId: ctx.user?.id ?? null, ip: ctx.ip });
    const count = await options.store.increment(windowKey(options.name, subject, limit, now), new Date(currentWindow(limit, now).resetsAt));
    const decision = decide(limit, { count, now });
    const headers = decisionHeaders(decision);
    if (decision.kind === 'refused') throw new HttpAbort(429, 'Too many requests. Please wait before trying again.', { ...headers });
    const reply = await next();
    return withExtras(reply, ...Object.entries(headers).map(([name, value]) => Header.make(name, value)));
  };
}
