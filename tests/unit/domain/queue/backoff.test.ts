import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoffs, backoffDelay } from '../../../../domain/queue/backoff.js';
import { decideAfterFailure } from '../../../../domain/queue/retry.js';

describe('backoffDelay', () => {
  it.each([
    ['fixed, first failure', Backoffs.fixed(5000), 1, 0.99, 5000],
    ['fixed, fifth failure', Backoffs.fixed(5000), 5, 0, 5000],
    ['exponential without jitter, 1st', Backoffs.exponential(1000, { jitter: 0 }), 1, 0.5, 1000],
    ['exponential without jitter, 2nd', Backoffs.exponential(1000, { jitter: 0 }), 2, 0.5, 2000],
    ['exponential without jitter, 4th', Backoffs.exponential(1000, { jitter: 0 }), 4, 0.5, 8000],
    ['exponential capped', Backoffs.exponential(1000, { maxMs: 5000, jitter: 0 }), 10, 0.5, 5000],
    ['exponential, huge attempt stays capped', Backoffs.exponential(1000, { maxMs: 5000, jitter: 0 }), 5000, 0, 5000],
    ['full jitter at random 0 keeps the whole wait', Backoffs.exponential(1000, { jitter: 1 }), 3, 0, 4000],
    ['jitter 0.5 at random 0.5 takes a quarter off', Backoffs.exponential(1000, { jitter: 0.5 }), 3, 0.5, 3000],
  ])('%s', (_name, backoff, failures, random, expected) => {
    expect(backoffDelay(backoff, failures, random)).toBe(expected);
  });

  it('stays within [cap × (1 − jitter), cap] and never grows past maxMs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 100_000 }),
        fc.integer({ min: 0, max: 10_000_000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.integer({ min: 1, max: 200 }),
        fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
        (base, extra, jitter, failures, random) => {
          const backoff = Backoffs.exponential(base, { maxMs: base + extra, jitter });
          const cap = Math.min(base + extra, base * 2 ** (failures - 1));
          const delay = backoffDelay(backoff, failures, random);
          expect(delay).toBeLessThanOrEqual(cap);
          expect(delay).toBeGreaterThanOrEqual(Math.floor(cap * (1 - jitter)));
        },
      ),
    );
  });

  it('grows (never shrinks) with the failures when there is no jitter', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000 }), fc.integer({ min: 1, max: 60 }), (base, failures) => {
        const backoff = Backoffs.exponential(base, { jitter: 0 });
        expect(backoffDelay(backoff, failures + 1, 0)).toBeGreaterThanOrEqual(backoffDelay(backoff, failures, 0));
      }),
    );
  });

  it.each([
    ['a random number of 1', () => backoffDelay(Backoffs.fixed(1), 1, 1)],
    ['zero failures', () => backoffDelay(Backoffs.fixed(1), 0, 0)],
    ['a negative delay', () => Backoffs.fixed(-1)],
    ['a cap below the base', () => Backoffs.exponential(1000, { maxMs: 10 })],
    ['a jitter above 1', () => Backoffs.exponential(1000, { jitter: 1.5 })],
  ])('refuses %s', (_name, call) => {
    expect(call).toThrow(TypeError);
  });
});

describe('decideAfterFailure', () => {
  const now = new Date('2026-11-24T10:00:00Z');
  const backoff = Backoffs.fixed(30_000);
  it.each([
    ['retries while tries remain', 1, 3, true, { kind: 'retry', at: new Date('2026-11-24T10:00:30Z'), delayMs: 30_000 }],
    ['retries on the last but one', 2, 3, true, { kind: 'retry', at: new Date('2026-11-24T10:00:30Z'), delayMs: 30_000 }],
    ['fails once the tries are spent', 3, 3, true, { kind: 'fail', reason: 'tries-exhausted' }],
    ['fails a single-try job at once', 1, 1, true, { kind: 'fail', reason: 'tries-exhausted' }],
    ['fails a permanent error at once', 1, 5, false, { kind: 'fail', reason: 'not-retryable' }],
  ])('%s', (_name, attempts, tries, retryable, expected) => {
    expect(decideAfterFailure({ attempts, tries, backoff, retryable, now, random: 0.3 })).toEqual(expected);
  });
});
