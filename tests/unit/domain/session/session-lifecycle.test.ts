import { describe, expect, it } from 'vitest';
import { REMEMBER_LIFETIME_DEFAULT_MINUTES } from '../../../../domain/session/lifetime.js';
import { Session, sessionExpiresAt } from '../../../../domain/session/session.js';
import { DEFAULT_LIFETIME, T0, minutesAfter, resumeOrFail, startSession, store, token, validSnapshot } from './support.js';

const DAY = 24 * 60;

function resume(stored: unknown, now: Date, defaultLifetimeMinutes = DEFAULT_LIFETIME): string {
  return Session.resume(stored, { now, defaultLifetimeMinutes }).kind;
}

describe('the session table of the spec', () => {
  it('any state, visit: the inactivity clock restarts', () => {
    // Five visits 100 minutes apart: 400 minutes in all, never 120 without a visit.
    let session = startSession();
    let at = T0;
    for (let visit = 1; visit <= 5; visit += 1) {
      session.increment('visits');
      const stored = store(session, at);
      at = minutesAfter(at, 100);
      session = resumeOrFail(stored, at);
    }
    expect(session.get('visits')).toBe(5);
  });

  it.each<[string, number, string]>([
    ['one minute less than the lifetime: resumed', (DEFAULT_LIFETIME - 1) * 60_000, 'resumed'],
    ['exactly the lifetime: resumed', DEFAULT_LIFETIME * 60_000, 'resumed'],
    ['one millisecond more than the lifetime: expired', DEFAULT_LIFETIME * 60_000 + 1, 'expired'],
    ['a day: expired', DAY * 60_000, 'expired'],
  ])('active, no visit for %s', (_name, idleMs, kind) => {
    const stored = store(startSession(), T0);
    expect(resume(stored, new Date(T0.getTime() + idleMs))).toBe(kind);
  });

  it('an old copy of the session dies of inactivity even when a newer copy lives on', () => {
    const first = startSession();
    const oldCopy = store(first, T0);
    // The visitor keeps coming back; the old copy (a stolen cookie) is replayed later.
    let session = resumeOrFail(oldCopy, minutesAfter(T0, 60));
    const later = store(session, minutesAfter(T0, 60));
    session = resumeOrFail(later, minutesAfter(T0, 150));
    expect(session.token()).toBe(token('start'));
    expect(resume(oldCopy, minutesAfter(T0, 150))).toBe('expired');
  });

  it('active, login: a new CSRF token, the user set, a new id requested', () => {
    const session = startSession();
    session.login(7, { epoch: 0, now: T0, newToken: token('login') });
    expect([session.token(), session.userId(), session.needsNewId()]).toEqual([token('login'), 7, true]);
    const next = resumeOrFail(store(session, T0), minutesAfter(T0, 1));
    expect([next.token(), next.userId()]).toEqual([token('login'), 7]);
  });

  it('names each login for its whole life: distinct for two logins at the same moment, kept when the token changes', () => {
    const first = startSession();
    const second = startSession();
    first.login(7, { epoch: 0, now: T0, newToken: token('first') });
    second.login(7, { epoch: 0, now: T0, newToken: token('second') });
    expect(first.loginId()).toMatch(/^[A-Za-z0-9_-]{22}$/u);
    expect(first.loginId()).not.toBe(second.loginId());
    const id = first.loginId();
    first.regenerateToken(token('rotated'));
    const next = resumeOrFail(store(first, T0), minutesAfter(T0, 1));
    expect(next.loginId()).toBe(id);
    next.logout(token('out'));
    expect(next.loginId()).toBeNull();
  });

  it('active, login with remember me: set_lifetime(REMEMBER_LIFETIME) outlives SESSION_LIFETIME', () => {
    const session = startSession();
    session.login(7, { epoch: 0, now: T0, newToken: token('login') });
    session.setLifetime(REMEMBER_LIFETIME_DEFAULT_MINUTES);
    const stored = store(session, T0);
    expect(resume(stored, minutesAfter(T0, 3 * DAY))).toBe('resumed');
    expect(resume(stored, minutesAfter(T0, 30 * DAY))).toBe('resumed');
    expect(resume(stored, minutesAfter(T0, 30 * DAY + 1))).toBe('expired');
    expect(resumeOrFail(stored, minutesAfter(T0, 3 * DAY)).userId()).toBe(7);
  });

  it('without remember me the same login ends after SESSION_LIFETIME', () => {
    const session = startSession();
    session.login(7, { epoch: 0, now: T0, newToken: token('login') });
    expect(resume(store(session, T0), minutesAfter(T0, 3 * DAY))).toBe('expired');
  });

  it('active, logout: active for the guest, a new token, the user gone', () => {
    const session = startSession();
    session.login(7, { epoch: 0, now: T0, newToken: token('login') });
    session.setLifetime(REMEMBER_LIFETIME_DEFAULT_MINUTES);
    const signedIn = resumeOrFail(store(session, T0), minutesAfter(T0, 1));
    signedIn.logout(token('logout'));
    const guest = resumeOrFail(store(signedIn, minutesAfter(T0, 1)), minutesAfter(T0, 2));
    expect([guest.userId(), guest.token(), guest.lifetimeMinutes()]).toEqual([null, token('logout'), null]);
    // Back to SESSION_LIFETIME: the remember-me lifetime went with the user.
    expect(resume(store(guest, minutesAfter(T0, 2)), minutesAfter(T0, 2 + DEFAULT_LIFETIME + 1))).toBe('expired');
  });

  it('the user epoch is kept for the check against the user record', () => {
    const session = startSession();
    session.login(7, { epoch: 4, now: T0, newToken: token('login') });
    expect(resumeOrFail(store(session, T0), T0).userEpoch()).toBe(4);
  });
});

describe('resume', () => {
  it('uses the default lifetime given by the app', () => {
    const stored = store(startSession(), T0);
    expect(resume(stored, minutesAfter(T0, 30), 20)).toBe('expired');
    expect(resume(stored, minutesAfter(T0, 30), 40)).toBe('resumed');
  });

  it('a lifetime set on the session wins over the default', () => {
    const session = startSession();
    session.setLifetime(10);
    expect(resume(store(session, T0), minutesAfter(T0, 11), 120)).toBe('expired');
  });

  it('tolerates a clock behind the last activity (another server)', () => {
    expect(resume(store(startSession(), T0), minutesAfter(T0, -5))).toBe('resumed');
  });

  it.each<[string, Date, number]>([
    ['an invalid now', new Date(Number.NaN), 120],
    ['a zero default lifetime', T0, 0],
    ['a fractional default lifetime', T0, 1.5],
    ['a NaN default lifetime', T0, Number.NaN],
  ])('throws a TypeError for %s (a programmer error, not bad input)', (_name, now, defaultLifetimeMinutes) => {
    expect(() => Session.resume(validSnapshot(), { now, defaultLifetimeMinutes })).toThrow(TypeError);
  });

  it('keeps issuedAt and moves lastActivityAt', () => {
    const first = startSession(T0);
    const second = resumeOrFail(store(first, minutesAfter(T0, 1)), minutesAfter(T0, 5));
    const snapshot = second.commit(minutesAfter(T0, 6));
    expect([snapshot.issuedAt, snapshot.lastActivityAt]).toEqual([T0.getTime(), minutesAfter(T0, 6).getTime()]);
  });
});

describe('sessionExpiresAt', () => {
  it.each<[string, number | null, number, number]>([
    ['the default lifetime', null, 120, 120],
    ['another default lifetime', null, 15, 15],
    ['the session lifetime', 43_200, 120, 43_200],
    ['a one-minute session lifetime', 1, 120, 1],
  ])('adds %s to the last activity', (_name, lifetimeMinutes, defaultLifetime, minutes) => {
    const snapshot = { ...validSnapshot(), lifetimeMinutes };
    expect(sessionExpiresAt(snapshot, defaultLifetime)).toBe(snapshot.lastActivityAt + minutes * 60_000);
  });

  it('agrees with resume: alive at the moment, expired one millisecond later', () => {
    const snapshot = validSnapshot();
    const at = sessionExpiresAt(snapshot, 120);
    expect(resume(snapshot, new Date(at))).toBe('resumed');
    expect(resume(snapshot, new Date(at + 1))).toBe('expired');
  });

  it('refuses a bad default lifetime', () => {
    expect(() => sessionExpiresAt({ ...validSnapshot(), lifetimeMinutes: null }, 0)).toThrow(TypeError);
  });
});
