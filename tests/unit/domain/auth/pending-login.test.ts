import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PENDING_LOGIN_TTL_MINUTES, pendingLogin, pendingLoginToJson, readPendingLogin } from '../../../../domain/auth/pending-login.js';

const NOW = new Date('2026-03-01T12:00:00Z');
const stored = { userId: 7, epoch: 2, remember: true, provider: null, startedAt: NOW.getTime() };

describe('pending login', () => {
  it('stores plain JSON and reads back the same login', () => {
    const login = pendingLogin({ userId: 7, epoch: 2, remember: true, provider: 'provider_a', now: NOW });
    const json = pendingLoginToJson(login);
    expect(json).toEqual({ userId: 7, epoch: 2, remember: true, provider: 'provider_a', startedAt: NOW.getTime() });
    expect(readPendingLogin(JSON.parse(JSON.stringify(json)), NOW)).toEqual({ kind: 'pending', login });
  });

  it('refuses to make a login from bad parts (a programmer error)', () => {
    expect(() => pendingLogin({ userId: 0, epoch: 0, remember: false, provider: null, now: NOW })).toThrow(TypeError);
    expect(() => pendingLogin({ userId: 1, epoch: -1, remember: false, provider: null, now: NOW })).toThrow(TypeError);
    expect(() => pendingLogin({ userId: 1, epoch: 0, remember: false, provider: '', now: NOW })).toThrow(TypeError);
  });

  it.each([
    ['just started', 0, 'pending'],
    ['one millisecond short of ten minutes', PENDING_LOGIN_TTL_MINUTES * 60_000 - 1, 'pending'],
    ['exactly ten minutes', PENDING_LOGIN_TTL_MINUTES * 60_000, 'expired'],
    ['a day', 86_400_000, 'expired'],
    ['started a little ahead (another server’s clock)', -60_000, 'pending'],
    ['started far ahead', -60_001, 'invalid'],
  ])('%s old is %s', (_what, ageMs, kind) => {
    expect(readPendingLogin(stored, new Date(NOW.getTime() + ageMs)).kind).toBe(kind);
  });

  it.each<[string, unknown]>([
    ['absent', undefined],
    ['null', null],
  ])('%s is no pending login', (_what, value) => {
    expect(readPendingLogin(value, NOW)).toEqual({ kind: 'none' });
  });

  it.each<[string, unknown]>([
    ['a string', 'pending'],
    ['an array', [stored]],
    ['a user id of 0', { ...stored, userId: 0 }],
    ['a user id as text', { ...stored, userId: '7' }],
    ['a fractional user id', { ...stored, userId: 7.5 }],
    ['a negative epoch', { ...stored, epoch: -1 }],
    ['remember as a number', { ...stored, remember: 1 }],
    ['an empty provider', { ...stored, provider: '' }],
    ['a provider with a slash', { ...stored, provider: 'a/b' }],
    ['the time as an ISO string', { ...stored, startedAt: NOW.toISOString() }],
    ['a missing field', { userId: 7, epoch: 2, remember: true, startedAt: NOW.getTime() }],
    ['an extra field', { ...stored, admin: true }],
  ])('refuses %s', (_what, value) => {
    expect(readPendingLogin(value, NOW)).toEqual({ kind: 'invalid' });
  });

  it('never throws, and never gives a login with a field that was damaged', () => {
    const field = fc.constantFrom('userId', 'epoch', 'remember', 'provider', 'startedAt');
    const junk = fc.oneof(fc.anything(), fc.constant(undefined), fc.double(), fc.string(), fc.integer({ min: -5, max: 0 }));
    fc.assert(
      fc.property(field, junk, (name, value) => {
        const damaged: Record<string, unknown> = { ...stored, [name]: value };
        const read = readPendingLogin(damaged, NOW);
        if (read.kind === 'pending') {
          // Only a value that is itself valid may come through, and then unchanged.
          expect(pendingLoginToJson(read.login)).toEqual(damaged);
        }
      }),
    );
    fc.assert(
      fc.property(fc.anything(), (value) => {
        expect(['none', 'invalid', 'expired', 'pending']).toContain(readPendingLogin(value, NOW).kind);
      }),
    );
  });
});
