import { describe, expect, it } from 'vitest';
import { TWO_FACTOR_OFF, stepUnused, twoFactorRequired, twoFactorState } from '../../../../domain/auth/two-factor.js';
import type { TwoFactorSettings } from '../../../../domain/auth/two-factor.js';
import { TWO_FACTOR_LOCK, twoFactorLockKey, twoFactorLockState } from '../../../../domain/auth/two-factor-lock.js';

const AT = new Date('2026-03-01T12:00:00Z');
const HASH = 'a'.repeat(64);

function settings(overrides: Partial<TwoFactorSettings>): TwoFactorSettings {
  return { ...TWO_FACTOR_OFF, ...overrides };
}

describe('two-factor state', () => {
  it.each<[string, Partial<TwoFactorSettings>, string, boolean]>([
    ['nothing stored', {}, 'off', false],
    ['codes without a secret', { recoveryCodeHashes: [HASH] }, 'off', false],
    ['an empty secret', { sealedSecret: '' }, 'off', false],
    ['a secret not yet confirmed', { sealedSecret: 'v1.x', recoveryCodeHashes: [HASH] }, 'pending', false],
    ['a confirmed secret', { sealedSecret: 'v1.x', confirmedAt: AT }, 'on', true],
    ['confirmed, secret lost (fails closed)', { confirmedAt: AT }, 'on', true],
  ])('%s is %s', (_what, overrides, kind, required) => {
    expect(twoFactorState(settings(overrides)).kind).toBe(kind);
    expect(twoFactorRequired(settings(overrides))).toBe(required);
  });

  it('counts only well-formed recovery code hashes as left', () => {
    const state = twoFactorState(settings({ sealedSecret: 'v1.x', confirmedAt: AT, recoveryCodeHashes: [HASH, 'b'.repeat(64), 'junk'] }));
    expect(state).toEqual({ kind: 'on', sealedSecret: 'v1.x', confirmedAt: AT, recoveryCodesLeft: 2 });
  });

  it.each([
    [null, 5, true],
    [5, 6, true],
    [5, 5, false],
    [5, 4, false],
  ])('after step %j, step %j is unused: %j', (last, step, unused) => {
    expect(stepUnused(settings({ lastUsedStep: last }), step)).toBe(unused);
  });
});

describe('two-factor lock', () => {
  it('allows five answers a minute per user, then waits for the minute to end', () => {
    const now = new Date('2026-03-01T12:00:45Z');
    expect(TWO_FACTOR_LOCK.max).toBe(5);
    expect(twoFactorLockState(4, now)).toEqual({ kind: 'open' });
    expect(twoFactorLockState(5, now)).toEqual({ kind: 'locked', retryAfterSeconds: 15, until: new Date('2026-03-01T12:01:00Z').getTime() });
  });

  it('counts each user apart, and each minute apart', () => {
    const now = new Date('2026-03-01T12:00:45Z');
    expect(twoFactorLockKey(1, now)).not.toBe(twoFactorLockKey(2, now));
    expect(twoFactorLockKey(1, now)).toBe(twoFactorLockKey(1, new Date('2026-03-01T12:00:00Z')));
    expect(twoFactorLockKey(1, now)).not.toBe(twoFactorLockKey(1, new Date('2026-03-01T12:01:00Z')));
  });
});
