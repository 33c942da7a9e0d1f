import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../../../domain/session/json.js';
import { Session } from '../../../../domain/session/session.js';
import type { SessionSnapshot } from '../../../../domain/session/session.js';
import { compactSnapshot, parseSnapshot } from '../../../../domain/session/snapshot.js';
import { DEFAULT_LIFETIME, T0, minutesAfter, resumeOrFail, startSession, store, token, validSnapshot } from './support.js';

function resumeKind(input: unknown): string {
  return Session.resume(input, { now: T0, defaultLifetimeMinutes: DEFAULT_LIFETIME }).kind;
}

/** The valid snapshot with one field replaced (or removed, for `undefined`). */
function withField(field: string, value: unknown): Record<string, unknown> {
  const snapshot: Record<string, unknown> = { ...validSnapshot() };
  if (value === undefined) delete snapshot[field];
  else snapshot[field] = value;
  return snapshot;
}

function deepList(depth: number): unknown {
  let value: unknown = 0;
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

describe('resuming a snapshot', () => {
  it('resumes the well-formed sample, with every field read back', () => {
    const result = Session.resume(validSnapshot(), { now: T0, defaultLifetimeMinutes: DEFAULT_LIFETIME });
    if (result.kind !== 'resumed') throw new Error(result.kind);
    const s = result.session;
    expect(s.get('cart')).toEqual([1, 2]);
    expect(s.get('nothing')).toBeNull();
    expect(s.get('status')).toBe('saved');
    expect(s.old('email')).toBe('ada@example.com');
    expect(s.errors()).toEqual({ email: ['is taken'] });
    expect([s.token(), s.userId(), s.userEpoch(), s.intendedUrl()]).toEqual([token('snap'), 7, 2, '/orders/12']);
  });

  it.each<[string, unknown]>([
    ['null', null],
    ['a string', 'session'],
    ['a number', 42],
    ['an array', []],
    ['an array holding a snapshot', [validSnapshot()]],
    ['an empty object', {}],
    ['a class instance', new (class Snapshot {})()],
    ['a Date', new Date(0)],
    ['version 2', withField('v', 2)],
    ['version "1"', withField('v', '1')],
    ['no version', withField('v', undefined)],
    ['a short token', withField('token', 'short')],
    ['a numeric token', withField('token', 1234567890123456)],
    ['a null token', withField('token', null)],
    ['no token', withField('token', undefined)],
    ['values as an array', withField('values', [1, 2])],
    ['values as null', withField('values', null)],
    ['values as a string', withField('values', '{}')],
    ['no values', withField('values', undefined)],
    ['a value that is not JSON', withField('values', { when: new Date(0) })],
    ['a value nested too deep', withField('values', { deep: deepList(JSON_MAX_DEPTH + 1) })],
    ['flash as an array', withField('flash', [])],
    ['flash as null', withField('flash', null)],
    ['no flash', withField('flash', undefined)],
    ['old input that is not a record', withField('flash', { _old_input: ['email'] })],
    ['errors that are not bags', withField('flash', { _errors: { default: { email: 'is taken' } } })],
    ['errors as a list', withField('flash', { _errors: [] })],
    ['error messages that are not strings', withField('flash', { _errors: { default: { email: [1] } } })],
    ['a lifetime of 0', withField('lifetimeMinutes', 0)],
    ['a fractional lifetime', withField('lifetimeMinutes', 1.5)],
    ['a negative lifetime', withField('lifetimeMinutes', -5)],
    ['a lifetime as text', withField('lifetimeMinutes', '120')],
    ['no lifetime', withField('lifetimeMinutes', undefined)],
    ['user id 0', withField('userId', 0)],
    ['a fractional user id', withField('userId', 1.5)],
    ['a user id as text', withField('userId', '7')],
    ['a user without an epoch', withField('userEpoch', null)],
    ['a negative epoch', withField('userEpoch', -1)],
    ['a user without a login time', withField('authenticatedAt', null)],
    ['a login time as text', withField('authenticatedAt', '2024-05-01T10:00:00Z')],
    ['a password confirmation as text', withField('passwordConfirmedAt', 'yesterday')],
    ['a guest with an epoch', { ...validSnapshot(), userId: null, authenticatedAt: null, loginId: null, passwordConfirmedAt: null }],
    ['a guest with a login time', { ...validSnapshot(), userId: null, userEpoch: null, loginId: null, passwordConfirmedAt: null }],
    ['a guest with a password confirmation', { ...validSnapshot(), userId: null, userEpoch: null, authenticatedAt: null, loginId: null }],
    ['a guest with a login id', { ...validSnapshot(), userId: null, userEpoch: null, authenticatedAt: null, passwordConfirmedAt: null }],
    ['a user without a login id', withField('loginId', null)],
    ['a login id of another shape', withField('loginId', 'short')],
    ['an empty intended URL', withField('intendedUrl', '')],
    ['an intended URL as a number', withField('intendedUrl', 12)],
    ['issuedAt as text', withField('issuedAt', '1714557600000')],
    ['a fractional issuedAt', withField('issuedAt', 1.5)],
    ['no issuedAt', withField('issuedAt', undefined)],
    ['lastActivityAt as null', withField('lastActivityAt', null)],
    ['lastActivityAt past the safe integers', withField('lastActivityAt', 2 ** 60)],
    ['no lastActivityAt', withField('lastActivityAt', undefined)],
    ['an unknown field', withField('extra', true)],
    ['fields as an array of pairs', Object.entries(validSnapshot())],
  ])('%s is invalid', (_name, input) => {
    expect(resumeKind(input)).toBe('invalid');
  });

  it.each<[string, Partial<SessionSnapshot>]>([
    ['a guest', { userId: null, userEpoch: null, authenticatedAt: null, loginId: null, passwordConfirmedAt: null }],
    ['a user who has not confirmed the password since', { passwordConfirmedAt: null }],
    ['an empty session', { values: {}, flash: {}, intendedUrl: null }],
    ['a lifetime override', { lifetimeMinutes: 43_200 }],
    ['a __proto__ key among the values', { values: JSON.parse('{"__proto__": 1}') as Record<string, number> }],
  ])('%s is valid', (_name, change) => {
    expect(resumeKind({ ...validSnapshot(), ...change })).toBe('resumed');
  });

  it('checks validity before expiry', () => {
    const stale = { ...validSnapshot(), lastActivityAt: 0 };
    expect(resumeKind(stale)).toBe('expired');
    expect(resumeKind({ ...stale, v: 2 })).toBe('invalid');
  });

  it('does not share objects with its input', () => {
    const input = validSnapshot();
    const session = resumeOrFail(input, T0);
    (input.values['cart'] as number[]).push(3);
    expect(session.get('cart')).toEqual([1, 2]);
  });
});

describe('parseSnapshot', () => {
  it('returns an equal copy of a well-formed snapshot', () => {
    expect(parseSnapshot(validSnapshot())).toEqual(validSnapshot());
  });
});

describe('the compact snapshot (format 2, what the cookie driver seals)', () => {
  it("leaves out a new guest session's defaults: v, token and the two times only", () => {
    const compact = compactSnapshot(startSession().commit(T0));
    expect(Object.keys(compact).sort()).toEqual(['issuedAt', 'lastActivityAt', 'token', 'v']);
    expect(compact['v']).toBe(2);
    // The full form of the same session is more than twice as long: the cookie's size.
    expect(JSON.stringify(compact).length * 2).toBeLessThan(JSON.stringify(startSession().commit(T0)).length);
  });

  it('keeps every field that holds something else', () => {
    const compact = compactSnapshot(validSnapshot());
    // Every field of the sample but its lifetime, which is null (the app's SESSION_LIFETIME).
    expect(Object.keys(compact).sort()).toEqual(Object.keys(validSnapshot()).filter((field) => field !== 'lifetimeMinutes').sort());
    expect(parseSnapshot(JSON.parse(JSON.stringify(compact)))).toEqual(validSnapshot());
  });

  it.each([
    ['an unknown field', { extra: 1 }],
    ['a default written out (one value, one spelling)', { userId: null }],
    ['an empty record written out', { values: {} }],
    ['half a user', { userId: 7 }],
    ['no token', { token: undefined }],
    ['a bad time', { issuedAt: 'yesterday' }],
  ])('refuses %s', (_name, change) => {
    const compact: Record<string, unknown> = { ...compactSnapshot(startSession().commit(T0)), ...change };
    for (const [key, value] of Object.entries(change)) if (value === undefined) delete compact[key];
    expect(parseSnapshot(compact)).toBeNull();
  });

  it('format 1 (cookies sealed before) still opens', () => {
    const full = startSession().commit(T0);
    expect(parseSnapshot(JSON.parse(JSON.stringify(full)))).toEqual(full);
  });
});

/** Keys and values as arbitrary JSON text gives them, including keys like `__proto__`. */
const values = fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), fc.jsonValue({ maxDepth: 4 }), { maxKeys: 6 });

describe('snapshot properties', () => {
  it('commit → JSON → resume gives back every stored value', () => {
    fc.assert(
      fc.property(values, (stored) => {
        const session = startSession();
        for (const [key, value] of Object.entries(stored)) session.put(key, value);
        const resumed = resumeOrFail(store(session, T0), minutesAfter(T0, 1));
        for (const [key, value] of Object.entries(stored)) {
          expect(resumed.get(key)).toEqual(JSON.parse(JSON.stringify(value)));
          expect(resumed.get(key)).toEqual(session.get(key));
        }
      }),
    );
  });

  it('a resumed session commits to the same snapshot, but for the aged flash', () => {
    const snapshotOf = fc.record({
      values,
      flash: values,
      lifetimeMinutes: fc.option(fc.integer({ min: 1, max: 60 * 24 * 400 }), { nil: null }),
      login: fc.option(fc.record({ userId: fc.integer({ min: 1, max: 2 ** 31 }), epoch: fc.nat() }), { nil: null }),
      intendedUrl: fc.option(fc.webPath().filter((p) => p !== ''), { nil: null }),
    });
    fc.assert(
      fc.property(snapshotOf, (s) => {
        const session = startSession();
        for (const [key, value] of Object.entries(s.values)) session.put(key, value);
        for (const [key, value] of Object.entries(s.flash)) if (!key.startsWith('_')) session.flash(key, value);
        if (s.lifetimeMinutes !== null) session.setLifetime(s.lifetimeMinutes);
        if (s.login !== null) session.login(s.login.userId, { epoch: s.login.epoch, now: T0, newToken: token('login') });
        if (s.intendedUrl !== null) session.setIntendedUrl(s.intendedUrl);
        const first = session.commit(T0);
        const second = resumeOrFail(JSON.parse(JSON.stringify(first)), T0).commit(T0);
        expect(second).toEqual({ ...first, flash: {} });
        // The compact form the cookie driver seals reads back to the same snapshot.
        expect(parseSnapshot(JSON.parse(JSON.stringify(compactSnapshot(first))))).toEqual(first);
      }),
    );
  });

  it('resume never throws for arbitrary JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (input) => {
        expect(['invalid', 'expired', 'resumed']).toContain(resumeKind(input));
      }),
    );
  });

  it('resume never throws for arbitrary JavaScript values', () => {
    fc.assert(
      fc.property(fc.anything({ withDate: true, withMap: true, withSet: true, withNullPrototype: true, withSparseArray: true }), (input) => {
        expect(['invalid', 'expired', 'resumed']).toContain(resumeKind(input));
      }),
    );
  });

  it('a snapshot with one field replaced by arbitrary JSON is refused or resumes into a valid session', () => {
    const fields = Object.keys(validSnapshot());
    fc.assert(
      fc.property(fc.constantFrom(...fields), fc.jsonValue(), (field, value) => {
        const input = withField(field, value);
        const result = Session.resume(input, { now: T0, defaultLifetimeMinutes: DEFAULT_LIFETIME });
        if (result.kind === 'resumed') expect(parseSnapshot(JSON.parse(JSON.stringify(result.session.commit(T0))))).not.toBeNull();
      }),
    );
  });

  it('resume never throws for JSON nested far beyond the depth limit', () => {
    const deep = JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`) as unknown;
    expect(resumeKind(withField('values', { deep }))).toBe('invalid');
    expect(resumeKind(deep)).toBe('invalid');
  });
});
