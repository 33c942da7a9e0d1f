import type { Limit } from './rate-limit.js';
import { MisuseError } from '../../shared/errors.js';

/**
 * The decision over a counter. The window is FIXED and aligned to the epoch: window number
 * `floor(now / span)`. Every request costs one atomic "increment, expiring with the window"
 * on the key from `windowKey`, which memory, SQL and Redis stores all do in one step, so
 * counters can be shared between servers without locks or a log of request times. The known
 * edge of a fixed window: up to 2n requests can pass within one span that straddles a
 * boundary (n at the end of one window, n at the start of the next). `Retry-After` is the
 * number of seconds until the current window resets, rounded up, at least 1.
 */

/** A counted limit's numbers; `Limit.none()` has no window, so asking for one is a programmer error. */
function bounds(limit: Limit, what: string): { max: number; spanMs: number } {
  if (limit.max === null || limit.perSeconds === null) throw new MisuseError('rate-limit.no-limit', `${what} needs a limit, not Limit.none()`);
  return { max: limit.max, spanMs: limit.perSeconds * 1000 };
}

/** Time as given by the caller: a Date or epoch milliseconds. */
export type Instant = Date | number;

function epochMs(now: Instant): number {
  const ms = typeof now === 'number' ? now : now.getTime();
  if (!Number.isFinite(ms)) throw new MisuseError('rate-limit.bad-time', `now must be a valid time, got ${String(now)}`);
  return ms;
}

export interface RateWindow {
  /** `floor(now / span)`: the same for every request in the window, on every server. */
  readonly number: number;
  /** Epoch milliseconds. */
  readonly startsAt: number;
  /** Epoch milliseconds; the counter may expire then. */
  readonly resetsAt: number;
}

export function currentWindow(limit: Limit, now: Instant): RateWindow {
  const { spanMs } = bounds(limit, 'currentWindow');
  const number = Math.floor(epochMs(now) / spanMs);
  return { number, startsAt: number * spanMs, resetsAt: (number + 1) * spanMs };
}

/** Seconds until the window resets, rounded up, at least 1 (a `Retry-After` of 0 invites a retry storm). */
export function retryAfterSeconds(limit: Limit, now: Instant): number {
  const { resetsAt } = currentWindow(limit, now);
  return Math.max(1, Math.ceil((resetsAt - epochMs(now)) / 1000));
}

export type RateLimitDecision =
  | { readonly kind: 'unlimited' }
  | { readonly kind: 'allowed'; readonly limit: number; readonly remaining: number; readonly resetsAt: number }
  | { readonly kind: 'refused'; readonly limit: number; readonly retryAfterSeconds: number; readonly resetsAt: number };

export interface CounterState {
  /** The window's count after this request's increment, so this request included (at least 1). */
  readonly count: number;
  readonly now: Instant;
}

/** Allowed while the window's count, this request included, is at most the limit. */
export function decide(limit: Limit, { count, now }: CounterState): RateLimitDecision {
  if (limit.unlimited) return { kind: 'unlimited' };
  const { max } = bounds(limit, 'decide');
  if (!Number.isSafeInteger(count) || count < 1) {
    throw new MisuseError('rate-limit.bad-count', `count must include this request (a whole number of at least 1), got ${count}`);
  }
  const { resetsAt } = currentWindow(limit, now);
  if (count <= max) return { kind: 'allowed', limit: max, remaining: max - count, resetsAt };
  return { kind: 'refused', limit: max, retryAfterSeconds: retryAfterSeconds(limit, now), resetsAt };
}

export interface RateLimitHeaders {
  readonly 'x-ratelimit-limit': string;
  readonly 'x-ratelimit-remaining': string;
}

/** The headers of an allowed answer. A negative `remaining` (counts past the limit) shows as 0. */
export function rateLimitHeaders(limit: Limit, remaining: number): RateLimitHeaders {
  const { max } = bounds(limit, 'rateLimitHeaders');
  if (!Number.isSafeInteger(remaining)) throw new MisuseError('rate-limit.bad-count', `remaining must be a whole number, got ${remaining}`);
  return { 'x-ratelimit-limit': String(max), 'x-ratelimit-remaining': String(Math.min(max, Math.max(0, remaining))) };
}

/**
 * The headers for a decision: none when unlimited; the limit and remaining count when
 * allowed; `Retry-After` for the 429, which also says the limit and that nothing remains.
 */
export function decisionHeaders(decision: RateLimitDecision): Readonly<Record<string, string>> {
  switch (decision.kind) {
    case 'unlimited':
      return {};
    case 'allowed':
      return { 'x-ratelimit-limit': String(decision.limit), 'x-ratelimit-remaining': String(decision.remaining) };
    case 'refused':
      return {
        'retry-after': String(decision.retryAfterSeconds),
        'x-ratelimit-limit': String(decision.limit),
        'x-ratelimit-remaining': '0',
      };
  }
}
