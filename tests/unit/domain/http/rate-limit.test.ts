import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  Limit,
  currentWindow,
  decide,
  decisionHeaders,
  describeLimit,
  rateLimitHeaders,
  retryAfterSeconds,
} from '../../../../domain/http/rate-limits/rate-limit.js';

// A minute boundary: 1_700_000_040_000 = 28_333_334 × 60_000.
const T0 = 1_700_000_040_000;

describe('Limit constructors', () => {
  it.each([
    ['perMinute(1)', () => Limit.perMinute(1), 1, 60],
    ['perMinute(60)', () => Limit.perMinute(60), 60, 60],
    ['perHour(1)', () => Limit.perHour(1), 1, 3600],
    ['perHour(1000)', () => Limit.perHour(1000), 1000, 3600],
    ['per(1, 1)', () => Limit.per(1, 1), 1, 1],
    ['per(5, 86400)', () => Limit.per(5, 86_400), 5, 86_400],
  ])('%s counts %i per %is', (_label, make, max, perSeconds) => {
    const limit = make();
    expect(limit.max).toBe(max);
    expect(limit.perSeconds).toBe(perSeconds);
    expect(limit.key).toBeNull();
    expect(limit.unlimited).toBe(false);
  });

  it.each([
    ['perMinute(0)', () => Limit.perMinute(0)],
    ['perMinute(-1)', () => Limit.perMinute(-1)],
    ['perMinute(1.5)', () => Limit.perMinute(1.5)],
    ['perMinute(NaN)', () => Limit.perMinute(Number.NaN)],
    ['perHour(Infinity)', () => Limit.perHour(Number.POSITIVE_INFINITY)],
    ['perHour(0)', () => Limit.perHour(0)],
    ['per(0, 60)', () => Limit.per(0, 60)],
    ['per(1, 0)', () => Limit.per(1, 0)],
    ['per(1, -60)', () => Limit.per(1, -60)],
    ['per(1, 0.5)', () => Limit.per(1, 0.5)],
    ['per(1, 1.5)', () => Limit.per(1, 1.5)],
    ['per(1, NaN)', () => Limit.per(1, Number.NaN)],
    ['per(1, MAX_SAFE_INTEGER)', () => Limit.per(1, Number.MAX_SAFE_INTEGER)],
    ['by("")', () => Limit.perMinute(1).by('')],
  ])('%s throws TypeError', (_label, make) => {
    expect(make).toThrow(TypeError);
  });

  it('none() is unlimited and always the same value', () => {
    expect(Limit.none().unlimited).toBe(true);
    expect(Limit.none().max).toBeNull();
    expect(Limit.none()).toBe(Limit.none());
  });

  it('by(key) returns a new limit with the key and leaves the original alone', () => {
    const base = Limit.perMinute(10);
    const keyed = base.by('203.0.113.9');
    expect(keyed).not.toBe(base);
    expect(keyed.key).toBe('203.0.113.9');
    expect([keyed.max, keyed.perSeconds]).toEqual([10, 60]);
    expect(base.key).toBeNull();
    expect(Object.isFrozen(keyed)).toBe(true);
  });

  it.each([
    [Limit.perMinute(60), '60/60s'],
    [Limit.perHour(5), '5/3600s'],
    [Limit.per(3, 10), '3/10s'],
    [Limit.per(3, 10).by('x'), '3/10s'],
    [Limit.none(), 'none'],
  ])('describeLimit(%o) is %s', (limit, label) => {
    expect(describeLimit(limit)).toBe(label);
  });
});

describe('fixed-window decision', () => {
  const limit = Limit.perMinute(3);

  it.each([
    ['first request', 1, T0, { kind: 'allowed', limit: 3, remaining: 2, resetsAt: T0 + 60_000 }],
    ['last allowed', 3, T0 + 59_999, { kind: 'allowed', limit: 3, remaining: 0, resetsAt: T0 + 60_000 }],
    ['first refused', 4, T0 + 20_000, { kind: 'refused', limit: 3, retryAfterSeconds: 40, resetsAt: T0 + 60_000 }],
    ['far past the limit', 1000, T0 + 59_999, { kind: 'refused', limit: 3, retryAfterSeconds: 1, resetsAt: T0 + 60_000 }],
    ['the next window starts afresh', 1, T0 + 60_000, { kind: 'allowed', limit: 3, remaining: 2, resetsAt: T0 + 120_000 }],
  ])('%s (count %i)', (_label, count, now, expected) => {
    expect(decide(limit, { count, now })).toEqual(expected);
  });

  it('accepts a Date as well as epoch milliseconds', () => {
    expect(decide(limit, { count: 4, now: new Date(T0 + 20_000) })).toEqual(decide(limit, { count: 4, now: T0 + 20_000 }));
  });

  it('Limit.none() is never counted', () => {
    expect(decide(Limit.none(), { count: 1_000_000, now: T0 })).toEqual({ kind: 'unlimited' });
  });

  it.each([0, -1, 1.5, Number.NaN])('a count of %d (this request not included) throws TypeError', (count) => {
    expect(() => decide(limit, { count, now: T0 })).toThrow(TypeError);
  });

  it.each([['an invalid Date', new Date(Number.NaN)], ['NaN', Number.NaN]])('%s as now throws TypeError', (_label, now) => {
    expect(() => decide(limit, { count: 1, now })).toThrow(TypeError);
  });

  it('windows are aligned to the epoch and contiguous', () => {
    expect(currentWindow(limit, T0 - 1)).toEqual({ number: 28_333_333, startsAt: T0 - 60_000, resetsAt: T0 });
    expect(currentWindow(limit, T0)).toEqual({ number: 28_333_334, startsAt: T0, resetsAt: T0 + 60_000 });
    expect(() => currentWindow(Limit.none(), T0)).toThrow(TypeError);
  });

  it.each([
    [0, 60],
    [1, 60],
    [999, 60],
    [1000, 59],
    [30_500, 30],
    [58_999, 2],
    [59_000, 1],
    [59_001, 1],
    [59_999, 1],
  ])('Retry-After %i ms into a minute window is %i s (rounded up, at least 1)', (offset, seconds) => {
    expect(retryAfterSeconds(limit, T0 + offset)).toBe(seconds);
  });

  it('Retry-After of a one-second window is always 1', () => {
    expect(retryAfterSeconds(Limit.per(1, 1), T0 + 999)).toBe(1);
    expect(retryAfterSeconds(Limit.per(1, 1), T0)).toBe(1);
  });

  it('never allows more than n requests in one window, and always the first n', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5 }),
        fc.integer({ min: 1, max: 10 }),
        fc.array(fc.integer({ min: 0, max: 60_000 }), { maxLength: 200 }),
        (max, perSeconds, offsets) => {
          const rule = Limit.per(max, perSeconds);
          // An in-memory store: one atomic increment per request on the window's counter.
          const counters = new Map<number, number>();
          const allowed = new Map<number, number>();
          for (const offset of offsets.sort((a, b) => a - b)) {
            const now = T0 + offset;
            const { number } = currentWindow(rule, now);
            const count = (counters.get(number) ?? 0) + 1;
            counters.set(number, count);
            const decision = decide(rule, { count, now });
            if (decision.kind === 'allowed') allowed.set(number, (allowed.get(number) ?? 0) + 1);
            if ((decision.kind === 'allowed') !== count <= max) return false;
          }
          return [...allowed.values()].every((passed) => passed <= max);
        },
      ),
    );
  });
});

describe('rate-limit headers', () => {
  it.each([
    [Limit.perMinute(60), 59, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '59' }],
    [Limit.perMinute(60), 0, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' }],
    [Limit.perMinute(60), -3, { 'x-ratelimit-limit': '60', 'x-ratelimit-remaining': '0' }],
    [Limit.perHour(5).by('k'), 5, { 'x-ratelimit-limit': '5', 'x-ratelimit-remaining': '5' }],
  ])('rateLimitHeaders(%o, %i)', (limit, remaining, headers) => {
    expect(rateLimitHeaders(limit, remaining)).toEqual(headers);
  });

  it('has no headers for Limit.none() and refuses a fractional remaining', () => {
    expect(() => rateLimitHeaders(Limit.none(), 1)).toThrow(TypeError);
    expect(() => rateLimitHeaders(Limit.perMinute(1), 0.5)).toThrow(TypeError);
  });

  it.each([
    [{ kind: 'unlimited' } as const, {}],
    [{ kind: 'allowed', limit: 3, remaining: 1, resetsAt: T0 } as const, { 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '1' }],
    [
      { kind: 'refused', limit: 3, retryAfterSeconds: 17, resetsAt: T0 } as const,
      { 'retry-after': '17', 'x-ratelimit-limit': '3', 'x-ratelimit-remaining': '0' },
    ],
  ])('decisionHeaders(%o)', (decision, headers) => {
    expect(decisionHeaders(decision)).toEqual(headers);
  });
});
