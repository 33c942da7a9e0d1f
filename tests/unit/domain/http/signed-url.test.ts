import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { expiresAfter, signPath, signUrl, verifySignedPath, verifySignedUrl } from '../../../../domain/http/signed-urls/signed-url.js';

const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const EXPIRES = 1_700_000_000;
const signed = signPath('/files/report%2Fq1.pdf', { expiresAt: EXPIRES, key });
const [path = '', query = ''] = signed.split('?');
const signature = /signature=([0-9a-f]+)/u.exec(signed)?.[1] ?? '';

const verify = (target: string, now = EXPIRES - 60, withKey = key) => verifySignedPath(target, { now, key: withKey });

describe('signPath', () => {
  it('appends expires and an HMAC-SHA256 of "<path>\\n<expires>"', () => {
    const expected = createHmac('sha256', key).update(`/files/report%2Fq1.pdf\n${EXPIRES}`).digest('hex');
    expect(signed).toBe(`/files/report%2Fq1.pdf?expires=${EXPIRES}&signature=${expected}`);
  });

  it('writes percent escapes with upper-case hex, as they are signed', () => {
    expect(signPath('/a%2fb', { expiresAt: EXPIRES, key })).toBe(signPath('/a%2Fb', { expiresAt: EXPIRES, key }));
    expect(signPath('/a%2fb', { expiresAt: EXPIRES, key })).toMatch(/^\/a%2Fb\?/u);
  });

  it.each([
    ['a query string', '/files/1?download=1'],
    ['an empty query string', '/files/1?'],
    ['a fragment', '/files/1#top'],
    ['no leading slash', 'files/1'],
    ['nothing', ''],
    ['a scheme-relative start', '//evil.test/files'],
    ['a space', '/my file'],
    ['non-ASCII text', '/café'],
    ['a backslash', '/a\\b'],
    ['a bad escape', '/a%zz'],
    ['a truncated escape', '/a%2'],
    ['a .. segment', '/a/../b'],
    ['a . segment', '/a/./b'],
    ['an escaped .. segment', '/a/%2e%2E/b'],
    ['a half-escaped .. segment', '/a/.%2E'],
    ['a newline', '/a\nb'],
  ])('refuses a path with %s (TypeError)', (_label, badPath) => {
    expect(() => signPath(badPath, { expiresAt: EXPIRES, key })).toThrow(TypeError);
  });

  it.each([
    ['a short key', { expiresAt: EXPIRES, key: Buffer.alloc(16) }],
    ['a negative expiry', { expiresAt: -1, key }],
    ['a fractional expiry', { expiresAt: EXPIRES + 0.5, key }],
    ['a NaN expiry', { expiresAt: Number.NaN, key }],
  ])('refuses %s (TypeError)', (_label, options) => {
    expect(() => signPath('/files/1', options)).toThrow(TypeError);
  });

  it.each([['/'], ['/a/b/'], ["/~user/a-b_c.d!$&'()*+,;=:@"], ['/a//b'], ['/.well-known/x'], ['/a/...']])(
    'signs %s as written',
    (good) => {
      expect(signPath(good, { expiresAt: EXPIRES, key }).startsWith(`${good}?expires=`)).toBe(true);
    },
  );
});

describe('verifySignedPath', () => {
  it.each([
    ['a fresh link', signed, EXPIRES - 60, 'valid'],
    ['one second before expiry', signed, EXPIRES - 1, 'valid'],
    ['a fraction of a second before expiry', signed, EXPIRES - 0.001, 'valid'],
    // `expires` is the first second at which the link no longer works.
    ['at the exact expiry second', signed, EXPIRES, 'expired'],
    ['after expiry', signed, EXPIRES + 3600, 'expired'],
    ['lower-case hex in an escape (the same path)', `/files/report%2fq1.pdf?${query}`, EXPIRES - 60, 'valid'],
    ['a changed path', `/files/report%2Fq2.pdf?${query}`, EXPIRES - 60, 'tampered'],
    ['a decoded escape', `/files/report/q1.pdf?${query}`, EXPIRES - 60, 'tampered'],
    ['an escaped character', `/files/%72eport%2Fq1.pdf?${query}`, EXPIRES - 60, 'tampered'],
    ['a later expiry', `${path}?expires=${EXPIRES + 86_400}&signature=${signature}`, EXPIRES - 60, 'tampered'],
    ['a tampered and expired link', `${path}?expires=${EXPIRES - 100}&signature=${signature}`, EXPIRES, 'tampered'],
    ['a changed signature', `${path}?expires=${EXPIRES}&signature=${signature.slice(0, -1)}${signature.endsWith('0') ? '1' : '0'}`, EXPIRES - 60, 'tampered'],
    ['an upper-case signature', `${path}?expires=${EXPIRES}&signature=${signature.toUpperCase()}`, EXPIRES - 60, 'malformed'],
    ['a short signature', `${path}?expires=${EXPIRES}&signature=${signature.slice(1)}`, EXPIRES - 60, 'malformed'],
    ['an expiry with a leading zero', `${path}?expires=0${EXPIRES}&signature=${signature}`, EXPIRES - 60, 'malformed'],
    ['a signed expiry past 2^53', `${path}?expires=99999999999999999999&signature=${signature}`, EXPIRES - 60, 'malformed'],
    ['an extra parameter after', `${signed}&download=1`, EXPIRES - 60, 'malformed'],
    ['an extra parameter before', `${path}?download=1&${query}`, EXPIRES - 60, 'malformed'],
    ['a repeated parameter', `${signed}&expires=${EXPIRES + 86_400}`, EXPIRES - 60, 'malformed'],
    ['reordered parameters', `${path}?signature=${signature}&expires=${EXPIRES}`, EXPIRES - 60, 'malformed'],
    ['a fragment', `${signed}#top`, EXPIRES - 60, 'malformed'],
    ['a .. segment', `/files/../files/report%2Fq1.pdf?${query}`, EXPIRES - 60, 'malformed'],
    ['no signature', `${path}?expires=${EXPIRES}`, EXPIRES - 60, 'missing'],
    ['no expiry', `${path}?signature=${signature}`, EXPIRES - 60, 'missing'],
    ['no query string', path, EXPIRES - 60, 'missing'],
    ['an empty query string', `${path}?`, EXPIRES - 60, 'missing'],
  ])('%s → %s', (_label, target, now, expected) => {
    const verdict = verify(target, now);
    expect(verdict.kind === 'valid' ? 'valid' : verdict.reason).toBe(expected);
  });

  it('refuses a link signed with another key (APP_KEY rotated)', () => {
    expect(verify(signed, EXPIRES - 60, otherKey)).toEqual({ kind: 'invalid', reason: 'tampered' });
  });

  it('refuses a short key and a NaN now (TypeError)', () => {
    expect(() => verifySignedPath(signed, { now: EXPIRES - 60, key: Buffer.alloc(31) })).toThrow(TypeError);
    expect(() => verifySignedPath(signed, { now: Number.NaN, key })).toThrow(TypeError);
  });
});

describe('expiresAfter', () => {
  it.each([
    [EXPIRES, 60, EXPIRES + 60],
    [EXPIRES + 0.999, 60, EXPIRES + 60],
    [0, 1, 1],
  ])('expiresAfter(%d, %i) is %i', (now, ttl, expected) => {
    expect(expiresAfter(now, ttl)).toBe(expected);
  });

  it.each([
    [EXPIRES, 0],
    [EXPIRES, 1.5],
    [EXPIRES, -60],
    [Number.NaN, 60],
    [-1, 60],
  ])('expiresAfter(%d, %d) throws TypeError', (now, ttl) => {
    expect(() => expiresAfter(now, ttl)).toThrow(TypeError);
  });

  it('a link with a ttl of 60 works for exactly 60 whole seconds', () => {
    const link = signPath('/x', { expiresAt: expiresAfter(EXPIRES, 60), key });
    expect(verify(link, EXPIRES + 59).kind).toBe('valid');
    expect(verify(link, EXPIRES + 60).kind).toBe('invalid');
  });
});

describe('signed absolute URLs', () => {
  const options = { expiresAt: EXPIRES, key };
  const now = { now: EXPIRES - 60, key };

  it.each([
    ['https://app.example', 'https://app.example/files/1?expires='],
    ['https://app.example/', 'https://app.example/files/1?expires='],
    ['http://localhost:3000', 'http://localhost:3000/files/1?expires='],
    ['https://app.example/app', 'https://app.example/app/files/1?expires='],
  ])('signUrl(%s, /files/1) starts with %s', (base, start) => {
    const url = signUrl(base, '/files/1', options);
    expect(url.startsWith(start)).toBe(true);
    expect(url.endsWith(signPath('/files/1', options))).toBe(true);
  });

  it.each([['ftp://app.example'], ['app.example'], ['https://app.example/?x=1'], ['https://app.example#top'], ['/relative']])(
    'signUrl refuses the base %s (TypeError)',
    (base) => {
      expect(() => signUrl(base, '/files/1', options)).toThrow(TypeError);
    },
  );

  it('signUrl refuses a path with a query string (TypeError)', () => {
    expect(() => signUrl('https://app.example', '/files/1?x=1', options)).toThrow(TypeError);
  });

  const url = signUrl('https://app.example', '/files/1', options);
  const rootUrl = signUrl('https://app.example', '/', options);
  const baseUrl = signUrl('https://app.example/app', '/files/1', options);

  it.each([
    ['the signed URL', url, {}, true],
    ['the same path on another host (the origin is not signed)', url.replace('https://app.example', 'http://10.0.0.5:8080'), {}, true],
    ['the path alone', signPath('/files/1', options), {}, true],
    ['the root path without its slash', rootUrl.replace('example/?', 'example?'), {}, true],
    ['a base path, named', baseUrl, { basePath: '/app' }, true],
    ['a base path, not named', baseUrl, {}, false],
    ['a missing base path', url, { basePath: '/app' }, false],
    ['a tampered path', url.replace('/files/1', '/files/2'), {}, false],
    ['an extra parameter', `${url}&x=1`, {}, false],
    ['a non-http scheme', url.replace('https:', 'ftp:'), {}, false],
    ['a scheme-relative URL', url.replace('https:', ''), {}, false],
    ['a relative path', url.replace('https://app.example/', ''), {}, false],
    ['garbage', 'not a url', {}, false],
  ])('verifySignedUrl: %s → %s', (_label, target, extra, expected) => {
    expect(verifySignedUrl(target, { ...now, ...extra })).toBe(expected);
  });

  it('refuses an expired absolute URL', () => {
    expect(verifySignedUrl(url, { now: EXPIRES, key })).toBe(false);
  });

  it.each([['app'], ['/app/'], ['/']])('verifySignedUrl refuses the basePath %j (TypeError)', (basePath) => {
    expect(() => verifySignedUrl(url, { ...now, basePath })).toThrow(TypeError);
  });
});
