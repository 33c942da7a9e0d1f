import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Limit, UNKNOWN_CLIENT_KEY, counterSubject, throttleKey, windowKey } from '../../../../domain/http/rate-limits/rate-limit.js';

const T0 = 1_700_000_040_000;

describe('throttle keys', () => {
  it.each([
    [{ userId: 42, ip: '203.0.113.9' }, 'user:42'],
    [{ userId: 'a1b2', ip: null }, 'user:a1b2'],
    [{ userId: 0 }, 'user:0'],
    [{ userId: null, ip: '203.0.113.9' }, 'ip:203.0.113.9'],
    [{ ip: ' 203.0.113.9 ' }, 'ip:203.0.113.9'],
    [{ ip: '::ffff:203.0.113.9' }, 'ip:203.0.113.9'],
    [{ ip: '::FFFF:cb00:7109' }, 'ip:203.0.113.9'],
    [{ ip: '2001:db8:1:2:3:4:5:6' }, 'ip:2001:db8:1:2::/64'],
    [{ ip: '2001:DB8:1:2::ffff' }, 'ip:2001:db8:1:2::/64'],
    [{ ip: '2001:0db8:0001:0002:0000:0000:0000:0001' }, 'ip:2001:db8:1:2::/64'],
    [{ ip: '[2001:db8:1:2::1]' }, 'ip:2001:db8:1:2::/64'],
    [{ ip: 'fe80::1%eth0' }, 'ip:fe80::/64'],
    [{ ip: '2001:db8:1:3::1' }, 'ip:2001:db8:1:3::/64'],
    [{ ip: null }, UNKNOWN_CLIENT_KEY],
    [{}, UNKNOWN_CLIENT_KEY],
    [{ ip: 'unknown' }, UNKNOWN_CLIENT_KEY],
    [{ ip: '' }, UNKNOWN_CLIENT_KEY],
  ])('%o counts as %s', (subject, key) => {
    expect(throttleKey(subject)).toBe(key);
  });

  it.each([[''], [Number.NaN]])('a user id of %j throws TypeError', (userId) => {
    expect(() => throttleKey({ userId })).toThrow(TypeError);
  });

  it('counts every address of one IPv6 /64 as one client', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 0xffff }), { minLength: 4, maxLength: 4 }), (low) => {
        const ip = `2001:db8:aa:bb:${low.map((group) => group.toString(16)).join(':')}`;
        return throttleKey({ ip }) === 'ip:2001:db8:aa:bb::/64' && throttleKey({ ip: ip.toUpperCase() }) === 'ip:2001:db8:aa:bb::/64';
      }),
    );
  });

  it('a .by(key) limit counts under its own key, apart from user and IP keys', () => {
    expect(counterSubject(Limit.perMinute(5).by('user:1'), { userId: 1 })).toBe('by:user:1');
    expect(counterSubject(Limit.perMinute(5), { userId: 1 })).toBe('user:1');
    expect(counterSubject(Limit.perMinute(5), { ip: '::ffff:10.0.0.1' })).toBe('ip:10.0.0.1');
  });
});

describe('window keys', () => {
  const limit = Limit.perMinute(10);

  it('names the limiter, span, window number and subject', () => {
    expect(windowKey('login', 'ip:2001:db8::/64', limit, T0)).toBe('rate-limit|login|60s|28333334|ip:2001:db8::/64');
  });

  it.each([
    ['the same window', T0 + 59_999, true],
    ['the next window', T0 + 60_000, false],
    ['the previous window', T0 - 1, false],
  ])('%s shares the counter: %s', (_label, now, same) => {
    expect(windowKey('api', 'user:1', limit, now) === windowKey('api', 'user:1', limit, T0)).toBe(same);
  });

  it('keeps limits of different spans apart', () => {
    expect(windowKey('api', 'user:1', Limit.per(10, 60), T0)).not.toBe(windowKey('api', 'user:1', Limit.per(10, 120), T0));
  });

  it('stays unambiguous whatever the name and subject hold', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), fc.string({ minLength: 1 }), (n1, s1, n2, s2) => {
        fc.pre(n1 !== n2 || s1 !== s2);
        return windowKey(n1, s1, limit, T0) !== windowKey(n2, s2, limit, T0);
      }),
    );
    expect(windowKey('a|b', 'c', limit, T0)).not.toBe(windowKey('a', 'b|c', limit, T0));
  });

  it.each([
    ['an empty limiter name', () => windowKey('', 'user:1', limit, T0)],
    ['an empty subject', () => windowKey('api', '', limit, T0)],
    ['Limit.none()', () => windowKey('api', 'user:1', Limit.none(), T0)],
  ])('%s throws TypeError', (_label, make) => {
    expect(make).toThrow(TypeError);
  });
});
