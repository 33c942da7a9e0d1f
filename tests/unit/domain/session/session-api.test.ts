import { describe, expect, it } from 'vitest';
import { JSON_MAX_DEPTH } from '../../../../domain/session/json.js';
import { PASSWORD_CONFIRMATION_MINUTES, REMEMBER_LIFETIME_DEFAULT_MINUTES } from '../../../../domain/session/lifetime.js';
import { Session } from '../../../../domain/session/session.js';
import { T0, minutesAfter, nextRequest, startSession, token } from './support.js';

function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let i = 0; i < depth; i += 1) value = [value];
  return value;
}

class Point {
  constructor(readonly x: number) {}
}

describe('put, get and has', () => {
  it.each<[string, unknown]>([
    ['a string', 'Ada'],
    ['an empty string', ''],
    ['a number', 42.5],
    ['zero', 0],
    ['false', false],
    ['null', null],
    ['an empty list', []],
    ['a list', [1, 'two', null, [3]]],
    ['an empty object', {}],
    ['a nested object', { user: { name: 'Ada', tags: ['a', 'b'] }, count: 3 }],
    ['an object with a __proto__ key', JSON.parse('{"__proto__": {"polluted": true}}')],
    [`a value nested ${JSON_MAX_DEPTH} levels deep`, nested(JSON_MAX_DEPTH)],
  ])('stores %s', (_name, value) => {
    const session = startSession();
    session.put('k', value);
    expect(session.get('k')).toEqual(value);
    expect(session.has('k')).toBe(true);
  });

  it.each<[string, unknown, unknown]>([
    ['-0 as 0', -0, 0],
    ['undefined object properties left out, as JSON does', { a: 1, b: undefined }, { a: 1 }],
  ])('normalises %s', (_name, value, expected) => {
    const session = startSession();
    session.put('k', value);
    expect(session.get('k')).toStrictEqual(expected);
  });

  it.each<[string, unknown]>([
    ['undefined', undefined],
    ['NaN', Number.NaN],
    ['Infinity', Number.POSITIVE_INFINITY],
    ['a function', () => 1],
    ['a bigint', 10n],
    ['a symbol', Symbol('s')],
    ['a Date', new Date(0)],
    ['a Map', new Map([[1, 2]])],
    ['a class instance', new Point(1)],
    ['a list with undefined', [1, undefined]],
    // eslint-disable-next-line no-sparse-arrays
    ['a list with a hole', [1, , 3]],
    ['an object holding a function', { f: () => 1 }],
    ['a circular object', ((): unknown => { const o: Record<string, unknown> = {}; o['self'] = o; return o; })()],
    [`a value nested ${JSON_MAX_DEPTH + 1} levels deep`, nested(JSON_MAX_DEPTH + 1)],
  ])('refuses %s with a TypeError', (_name, value) => {
    const session = startSession();
    expect(() => session.put('k', value)).toThrow(TypeError);
    expect(session.has('k')).toBe(false);
  });

  it('names the part that is not JSON', () => {
    expect(() => startSession().put('cart', { items: [{ added: new Date(0) }] })).toThrow('put("cart").items[0].added is a Date');
  });

  it.each<[string, (s: Session) => void, boolean]>([
    ['a stored null: true', (s) => s.put('k', null), true],
    ['a stored false: true', (s) => s.put('k', false), true],
    ['a flashed value: true', (s) => s.flash('k', 1), true],
    ['a flashNow value: true', (s) => s.flashNow('k', 1), true],
    ['nothing: false', () => undefined, false],
    ['a removed value: false', (s) => { s.put('k', 1); s.remove('k'); }, false],
  ])('has() for %s', (_name, arrange, expected) => {
    const session = startSession();
    arrange(session);
    expect(session.has('k')).toBe(expected);
  });

  it('gives frozen values: a change outside the session neither leaks in nor out', () => {
    const session = startSession();
    const cart = { items: ['a'] };
    session.put('cart', cart);
    cart.items.push('b');
    expect(session.get('cart')).toEqual({ items: ['a'] });
    const read = session.get('cart') as { items: string[] };
    expect(() => read.items.push('c')).toThrow(TypeError);
  });

  it.each([[''], [undefined as unknown as string], [3 as unknown as string]])('refuses the key %j', (key) => {
    expect(() => startSession().put(key, 1)).toThrow(TypeError);
  });
});

describe('push', () => {
  it.each<[string, unknown, unknown, unknown[]]>([
    ['a missing key', undefined, 'x', ['x']],
    ['an empty list', [], 'x', ['x']],
    ['a list', [1, 2], 3, [1, 2, 3]],
    ['a list, pushing a list', ['a'], ['b'], ['a', ['b']]],
  ])('appends to %s', (_name, before, value, after) => {
    const session = startSession();
    if (before !== undefined) session.put('list', before);
    session.push('list', value);
    expect(session.get('list')).toEqual(after);
  });

  it.each<[string, unknown]>([
    ['a string', 'abc'],
    ['a number', 1],
    ['an object', { 0: 'a' }],
    ['null', null],
  ])('refuses to append to %s', (_name, before) => {
    const session = startSession();
    session.put('list', before);
    expect(() => session.push('list', 'x')).toThrow(TypeError);
    expect(session.get('list')).toEqual(before);
  });

  it('refuses a value that is not JSON, leaving the list as it was', () => {
    const session = startSession();
    session.put('list', [1]);
    expect(() => session.push('list', new Date(0))).toThrow(TypeError);
    expect(session.get('list')).toEqual([1]);
  });

  it('appends to the stored list, not to a flashed value of the same key', () => {
    const session = startSession();
    session.flash('list', 'flashed');
    session.push('list', 1);
    expect(session.pull('list')).toEqual([1]);
  });
});

describe('increment', () => {
  it.each<[string, number | undefined, number | undefined, number]>([
    ['a missing key by the default 1', undefined, undefined, 1],
    ['a missing key by 5', undefined, 5, 5],
    ['5 by 2', 5, 2, 7],
    ['5 by -7', 5, -7, -2],
    ['0.5 by 0.25', 0.5, 0.25, 0.75],
    ['-0 by -0 (stored as 0)', -0, -0, 0],
  ])('adds to %s', (_name, before, by, total) => {
    const session = startSession();
    if (before !== undefined) session.put('n', before);
    const result = by === undefined ? session.increment('n') : session.increment('n', by);
    expect(result).toBe(total);
    expect(session.get('n')).toBe(total);
  });

  it.each<[string, unknown, number]>([
    ['a string', '5', 1],
    ['null', null, 1],
    ['a list', [5], 1],
    ['a number by NaN', 5, Number.NaN],
    ['a number by Infinity', 5, Number.POSITIVE_INFINITY],
    ['a number past the largest double', Number.MAX_VALUE, Number.MAX_VALUE],
  ])('refuses %s', (_name, before, by) => {
    const session = startSession();
    session.put('n', before);
    expect(() => session.increment('n', by)).toThrow(TypeError);
    expect(session.get('n')).toEqual(before);
  });

  it('counts across requests', () => {
    let session = startSession();
    session.increment('visits');
    session = nextRequest(session);
    expect(session.increment('visits')).toBe(2);
  });
});

describe('remove and pull touch stored values only', () => {
  type Arrange = (s: Session) => void;
  const stored: Arrange = (s) => s.put('k', 'stored');
  const flashed: Arrange = (s) => s.flash('k', 'flashed');
  const both: Arrange = (s) => { s.put('k', 'stored'); s.flash('k', 'flashed'); };

  it.each<[string, Arrange, unknown, unknown]>([
    ['a stored value', stored, 'stored', undefined],
    ['a flashed value', flashed, undefined, 'flashed'],
    ['a stored and a flashed value', both, 'stored', 'flashed'],
    ['nothing', () => undefined, undefined, undefined],
  ])('pull on %s returns the stored value and leaves the flashed one', (_name, arrange, pulled, after) => {
    const session = startSession();
    arrange(session);
    expect(session.pull('k')).toBe(pulled);
    expect(session.get('k')).toBe(after);
    expect(session.pull('k')).toBeUndefined();
  });

  it.each<[string, Arrange, unknown]>([
    ['a stored value', stored, undefined],
    ['a flashed value', flashed, 'flashed'],
    ['a stored and a flashed value', both, 'flashed'],
  ])('remove on %s leaves the flashed value', (_name, arrange, after) => {
    const session = startSession();
    arrange(session);
    session.remove('k');
    expect(session.get('k')).toBe(after);
  });

  it('leaves a flashed value of the previous request too', () => {
    const first = startSession();
    first.flash('k', 'flashed');
    const second = nextRequest(first);
    second.remove('k');
    expect(second.pull('k')).toBeUndefined();
    expect(second.get('k')).toBe('flashed');
  });

  it('a stored null is pulled as null, not as missing', () => {
    const session = startSession();
    session.put('k', null);
    expect(session.pull('k')).toBeNull();
    expect(session.has('k')).toBe(false);
  });
});

describe('reading order: flashNow, then flash, then stored values', () => {
  it.each<[string, (s: Session) => void, unknown]>([
    ['stored only', (s) => s.put('k', 'stored'), 'stored'],
    ['flash over stored', (s) => { s.put('k', 'stored'); s.flash('k', 'flash'); }, 'flash'],
    ['stored written after flash', (s) => { s.flash('k', 'flash'); s.put('k', 'stored'); }, 'flash'],
    ['flashNow over flash', (s) => { s.flash('k', 'flash'); s.flashNow('k', 'now'); }, 'now'],
    ['flash written after flashNow', (s) => { s.flashNow('k', 'now'); s.flash('k', 'flash'); }, 'flash'],
  ])('%s', (_name, arrange, expected) => {
    const session = startSession();
    arrange(session);
    expect(session.get('k')).toBe(expected);
  });
});

describe('lifetime', () => {
  it.each([
    [0.1, 1],
    [1, 1],
    [2.5, 3],
    [0, 1],
    [-0, 1],
    [119.0001, 120],
    [120, 120],
    [REMEMBER_LIFETIME_DEFAULT_MINUTES, 43_200],
  ])('setLifetime(%d) uses %i minutes', (minutes, expected) => {
    const session = startSession();
    session.setLifetime(minutes);
    expect(session.lifetimeMinutes()).toBe(expected);
  });

  it.each([[-1], [-0.1], [Number.NaN], [Number.POSITIVE_INFINITY], [Number.NEGATIVE_INFINITY], [Number.MAX_VALUE]])(
    'setLifetime(%d) is a TypeError',
    (minutes) => {
      const session = startSession();
      expect(() => session.setLifetime(minutes)).toThrow(TypeError);
      expect(session.lifetimeMinutes()).toBeNull();
    },
  );

  it('is null (the app default) until set, and survives the next request', () => {
    const session = startSession();
    expect(session.lifetimeMinutes()).toBeNull();
    session.setLifetime(30);
    expect(nextRequest(session).lifetimeMinutes()).toBe(30);
  });
});

describe('token', () => {
  it.each<[string, string, boolean]>([
    ['31 characters is refused', 'x'.repeat(31), false],
    ['32 characters is accepted', 'x'.repeat(32), true],
    ['64 characters is accepted', 'y'.repeat(64), true],
    ['0 characters is refused', '', false],
  ])('a token of %s', (_name, candidate, accepted) => {
    const session = startSession();
    if (accepted) {
      session.regenerateToken(candidate);
      expect(session.token()).toBe(candidate);
      expect(Session.start({ token: candidate, now: T0 }).token()).toBe(candidate);
    } else {
      expect(() => session.regenerateToken(candidate)).toThrow(TypeError);
      expect(session.token()).toBe(token('start'));
      expect(() => Session.start({ token: candidate, now: T0 })).toThrow(TypeError);
    }
  });

  it('survives flush and the next request', () => {
    const session = startSession();
    session.put('a', 1);
    session.flush();
    expect(session.token()).toBe(token('start'));
    expect(nextRequest(session).token()).toBe(token('start'));
  });

  it('refuses an invalid start time', () => {
    expect(() => Session.start({ token: token(), now: new Date(Number.NaN) })).toThrow(TypeError);
  });
});

describe('flush', () => {
  it('empties stored values, flashed values of every layer and the intended URL', () => {
    const first = startSession();
    first.flash('old', 1);
    const session = nextRequest(first);
    session.put('a', 1);
    session.flash('new', 2);
    session.flashNow('now', 3);
    session.flashInput({ email: 'ada@example.com' });
    session.setIntendedUrl('/orders');
    session.flush();
    for (const key of ['a', 'old', 'new', 'now']) expect(session.has(key)).toBe(false);
    expect(session.flashed()).toEqual([]);
    expect(session.hasOldInput()).toBe(false);
    expect(session.intendedUrl()).toBeNull();
    expect(nextRequest(session).flashed()).toEqual([]);
  });

  it('keeps the user and the lifetime (logout is the way to forget them)', () => {
    const session = startSession();
    session.login(7, { epoch: 0, now: T0, newToken: token('login') });
    session.setLifetime(60);
    session.flush();
    expect(session.userId()).toBe(7);
    expect(session.lifetimeMinutes()).toBe(60);
  });
});

describe('login and logout', () => {
  const LOGIN_AT = minutesAfter(T0, 5);

  function signedIn(): Session {
    const session = startSession();
    session.put('cart', ['book']);
    session.setIntendedUrl('/orders');
    session.login(7, { epoch: 3, now: LOGIN_AT, newToken: token('login') });
    return session;
  }

  it.each<[string, (s: Session) => unknown, unknown]>([
    ['userId', (s) => s.userId(), 7],
    ['userEpoch', (s) => s.userEpoch(), 3],
    ['token', (s) => s.token(), token('login')],
    ['authenticatedAt', (s) => s.authenticatedAt(), LOGIN_AT],
    ['passwordConfirmedAt (typing the password confirms it)', (s) => s.passwordConfirmedAt(), LOGIN_AT],
    ['stored values (kept)', (s) => s.get('cart'), ['book']],
    ['intended URL (kept for the redirect)', (s) => s.intendedUrl(), '/orders'],
    ['needsNewId', (s) => s.needsNewId(), true],
  ])('after login: %s, also in the next request', (name, read, expected) => {
    expect(read(signedIn())).toEqual(expected);
    // The new id is a request's business: the next request keeps the id it was given.
    expect(read(nextRequest(signedIn(), LOGIN_AT))).toEqual(name === 'needsNewId' ? false : expected);
  });

  it.each<[string, (s: Session) => unknown, unknown]>([
    ['userId', (s) => s.userId(), null],
    ['userEpoch', (s) => s.userEpoch(), null],
    ['token', (s) => s.token(), token('logout')],
    ['authenticatedAt', (s) => s.authenticatedAt(), null],
    ['passwordConfirmedAt', (s) => s.passwordConfirmedAt(), null],
    ['stored values', (s) => s.get('cart'), undefined],
    ['flashed values', (s) => s.flashed(), []],
    ['intended URL', (s) => s.intendedUrl(), null],
    ['lifetime (a remember-me lifetime ends with the user)', (s) => s.lifetimeMinutes(), null],
    ['needsNewId', (s) => s.needsNewId(), true],
  ])('after logout: %s', (_name, read, expected) => {
    const session = signedIn();
    session.flash('status', 'hello');
    session.setLifetime(REMEMBER_LIFETIME_DEFAULT_MINUTES);
    session.logout(token('logout'));
    expect(read(session)).toEqual(expected);
  });

  it('a value flashed after logout reaches the next request', () => {
    const session = signedIn();
    session.logout(token('logout'));
    session.flash('status', 'You are signed out');
    expect(nextRequest(session).get('status')).toBe('You are signed out');
  });

  it('a login as another user replaces the first', () => {
    const session = signedIn();
    session.login(8, { epoch: 0, now: LOGIN_AT, newToken: token('again') });
    expect([session.userId(), session.userEpoch(), session.token()]).toEqual([8, 0, token('again')]);
  });

  it.each<[string, number, { epoch: number; now: Date; newToken: string }]>([
    ['user id 0', 0, { epoch: 0, now: T0, newToken: token() }],
    ['a negative user id', -1, { epoch: 0, now: T0, newToken: token() }],
    ['a fractional user id', 1.5, { epoch: 0, now: T0, newToken: token() }],
    ['a NaN user id', Number.NaN, { epoch: 0, now: T0, newToken: token() }],
    ['a negative epoch', 1, { epoch: -1, now: T0, newToken: token() }],
    ['a fractional epoch', 1, { epoch: 0.5, now: T0, newToken: token() }],
    ['an invalid date', 1, { epoch: 0, now: new Date(Number.NaN), newToken: token() }],
    ['a short token', 1, { epoch: 0, now: T0, newToken: 'short' }],
  ])('login with %s is a TypeError and changes nothing', (_name, userId, options) => {
    const session = startSession();
    expect(() => session.login(userId, options)).toThrow(TypeError);
    expect(session.userId()).toBeNull();
    expect(session.token()).toBe(token('start'));
  });

  it('logout with a short token is a TypeError and changes nothing', () => {
    const session = signedIn();
    expect(() => session.logout('short')).toThrow(TypeError);
    expect(session.userId()).toBe(7);
    expect(session.get('cart')).toEqual(['book']);
  });
});

describe('password confirmation', () => {
  it.each<[string, number, boolean]>([
    ['right now: recent', 0, true],
    ['one minute before the limit: recent', PASSWORD_CONFIRMATION_MINUTES - 1, true],
    ['exactly at the limit: recent', PASSWORD_CONFIRMATION_MINUTES, true],
    ['one minute past the limit: not recent', PASSWORD_CONFIRMATION_MINUTES + 1, false],
  ])('typed %s', (_name, minutes, recent) => {
    const session = startSession();
    session.login(1, { epoch: 0, now: T0, newToken: token() });
    expect(session.passwordRecentlyConfirmed(minutesAfter(T0, minutes))).toBe(recent);
  });

  it('confirmPassword restarts the three hours', () => {
    const session = startSession();
    session.login(1, { epoch: 0, now: T0, newToken: token() });
    const later = minutesAfter(T0, 200);
    expect(session.passwordRecentlyConfirmed(later)).toBe(false);
    session.confirmPassword(later);
    expect(session.passwordConfirmedAt()).toEqual(later);
    expect(nextRequest(session, later).passwordRecentlyConfirmed(minutesAfter(later, 60))).toBe(true);
  });

  it('a guest has nothing to confirm', () => {
    const session = startSession();
    expect(session.passwordRecentlyConfirmed(T0)).toBe(false);
    expect(() => session.confirmPassword(T0)).toThrow(TypeError);
  });
});

describe('intended URL', () => {
  it('is read once by pullIntendedUrl, across requests', () => {
    const first = startSession();
    first.setIntendedUrl('/orders?page=2');
    const session = nextRequest(first);
    expect(session.intendedUrl()).toBe('/orders?page=2');
    expect(session.pullIntendedUrl()).toBe('/orders?page=2');
    expect(session.pullIntendedUrl()).toBeNull();
    expect(nextRequest(session).intendedUrl()).toBeNull();
  });

  it('refuses an empty URL', () => {
    expect(() => startSession().setIntendedUrl('')).toThrow(TypeError);
  });
});

describe('isDirty', () => {
  const resumedClean = (): Session => nextRequest(startSession());

  it('is true for a new session (it must be stored for its token to count)', () => {
    expect(startSession().isDirty()).toBe(true);
  });

  it('is false for a resumed session nothing changed in', () => {
    expect(resumedClean().isDirty()).toBe(false);
  });

  it.each<[string, (s: Session) => void, boolean]>([
    ['get, has, flashed, old, errors: clean', (s) => { s.get('a'); s.has('a'); s.flashed(); s.old('a'); s.errors(); }, false],
    ['flashNow (never stored): clean', (s) => s.flashNow('a', 1), false],
    ['remove of a missing key: clean', (s) => s.remove('a'), false],
    ['pull of a missing key: clean', (s) => s.pull('a'), false],
    ['pullIntendedUrl without one: clean', (s) => s.pullIntendedUrl(), false],
    ['flush of an empty session: clean', (s) => s.flush(), false],
    ['reflash with nothing flashed: clean', (s) => s.reflash(), false],
    ['put: dirty', (s) => s.put('a', 1), true],
    ['push: dirty', (s) => s.push('a', 1), true],
    ['increment: dirty', (s) => s.increment('a'), true],
    ['flash: dirty', (s) => s.flash('a', 1), true],
    ['flashInput: dirty', (s) => s.flashInput({ a: '1' }), true],
    ['flashErrors: dirty', (s) => s.flashErrors({ a: ['bad'] }), true],
    ['setLifetime: dirty', (s) => s.setLifetime(5), true],
    ['regenerateToken: dirty', (s) => s.regenerateToken(token('new')), true],
    ['login: dirty', (s) => s.login(1, { epoch: 0, now: T0, newToken: token('new') }), true],
    ['logout: dirty', (s) => s.logout(token('new')), true],
    ['setIntendedUrl: dirty', (s) => s.setIntendedUrl('/x'), true],
  ])('after %s', (_name, act, dirty) => {
    const session = resumedClean();
    act(session);
    expect(session.isDirty()).toBe(dirty);
  });

  it('is true when the previous request flashed something (aging drops it)', () => {
    const first = startSession();
    first.flash('a', 1);
    const second = nextRequest(first);
    expect(second.isDirty()).toBe(true);
    expect(nextRequest(second).isDirty()).toBe(false);
  });

  it('is false after setting the lifetime it already has', () => {
    const first = startSession();
    first.setLifetime(30);
    const session = nextRequest(first);
    session.setLifetime(29.5);
    expect(session.isDirty()).toBe(false);
  });
});

describe('commit', () => {
  it.each<[string, (s: Session) => void]>([
    ['put', (s) => s.put('a', 1)],
    ['flash', (s) => s.flash('a', 1)],
    ['flashNow', (s) => s.flashNow('a', 1)],
    ['login', (s) => s.login(1, { epoch: 0, now: T0, newToken: token() })],
    ['regenerateToken', (s) => s.regenerateToken(token('new'))],
    ['commit', (s) => s.commit(T0)],
  ])('refuses %s afterwards: the change would be lost', (_name, act) => {
    const session = startSession();
    session.commit(T0);
    expect(() => act(session)).toThrow(TypeError);
  });

  it('leaves the session readable, without its flashNow values', () => {
    const session = startSession();
    session.put('a', 1);
    session.flashNow('n', 2);
    session.commit(T0);
    expect(session.get('a')).toBe(1);
    expect(session.has('n')).toBe(false);
  });

  it('records the moment of the visit', () => {
    const session = startSession();
    expect(session.commit(minutesAfter(T0, 3)).lastActivityAt).toBe(minutesAfter(T0, 3).getTime());
  });
});
