import { Session } from '../../../../domain/session/session.js';
import type { SessionSnapshot } from '../../../../domain/session/session.js';

export const T0 = new Date('2024-05-01T10:00:00Z');
export const DEFAULT_LIFETIME = 120;

/** A distinct token of the minimum length for each name. */
export function token(name: string | number = 'a'): string {
  return `token-${name}-`.padEnd(32, 'x');
}

export function minutesAfter(start: Date, minutes: number): Date {
  return new Date(start.getTime() + minutes * 60_000);
}

export function startSession(now: Date = T0): Session {
  return Session.start({ token: token('start'), now });
}

/** What a driver does between two requests: commit, store as JSON text, read back. */
export function store(session: Session, now: Date): unknown {
  return JSON.parse(JSON.stringify(session.commit(now)));
}

export function resumeOrFail(stored: unknown, now: Date, defaultLifetimeMinutes = DEFAULT_LIFETIME): Session {
  const result = Session.resume(stored, { now, defaultLifetimeMinutes });
  if (result.kind !== 'resumed') throw new Error(`expected the session to resume, got ${result.kind}`);
  return result.session;
}

/** Ends this request at `now` and starts the next one a minute later. */
export function nextRequest(session: Session, now: Date = T0): Session {
  return resumeOrFail(store(session, now), minutesAfter(now, 1));
}

/** A well-formed snapshot of a signed-in user, for tables that break one field at a time. */
export function validSnapshot(): SessionSnapshot {
  return {
    v: 1,
    token: token('snap'),
    values: { cart: [1, 2], name: 'Ada', nothing: null },
    flash: { status: 'saved', _old_input: { email: 'ada@example.com' }, _errors: { default: { email: ['is taken'] } } },
    lifetimeMinutes: null,
    userId: 7,
    userEpoch: 2,
    authenticatedAt: T0.getTime() - 60_000,
    loginId: 'bG9naW4tb2YtYWRhLWF0LVQw'.slice(0, 22),
    passwordConfirmedAt: T0.getTime() - 60_000,
    intendedUrl: '/orders/12',
    issuedAt: T0.getTime() - 120_000,
    lastActivityAt: T0.getTime() - 60_000,
  };
}
