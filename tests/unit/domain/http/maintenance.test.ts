import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  bypassCookieValid,
  DEFAULT_MAINTENANCE_RETRY_AFTER_SECONDS,
  isSecretPath,
  maintenanceAnswer,
  maintenanceBypassCookie,
  maintenanceMarker,
  parseMaintenanceMarker,
  type MaintenanceMarker,
} from '../../../../domain/http/maintenance/maintenance.js';

const since = new Date('2025-03-01T12:00:00.000Z');
const key = Buffer.alloc(32, 7);
const otherKey = Buffer.alloc(32, 8);
const now = new Date('2025-03-01T12:30:00.000Z');

describe('maintenance marker', () => {
  it.each([
    [{ since }, { secret: null, retryAfterSeconds: null }],
    [{ since, secret: 'let-me-in' }, { secret: 'let-me-in', retryAfterSeconds: null }],
    [{ since, retryAfterSeconds: 120 }, { secret: null, retryAfterSeconds: 120 }],
    [{ since, secret: 'a.B_c~9-', retryAfterSeconds: 0 }, { secret: 'a.B_c~9-', retryAfterSeconds: 0 }],
  ])('%j round-trips', (input, expected) => {
    expect(parseMaintenanceMarker(maintenanceMarker(input))).toEqual({ kind: 'down', since, damaged: false, ...expected });
  });

  it('is JSON', () => {
    expect(JSON.parse(maintenanceMarker({ since, secret: 's3cret', retryAfterSeconds: 60 }))).toEqual({
      since: '2025-03-01T12:00:00.000Z',
      secret: 's3cret',
      retryAfterSeconds: 60,
    });
  });

  it.each([
    [{ since: new Date(Number.NaN) }, /since/u],
    [{ since, secret: '' }, /secret/u],
    [{ since, secret: 'has/slash' }, /secret/u],
    [{ since, secret: 'has space' }, /secret/u],
    [{ since, secret: '..' }, /secret/u],
    [{ since, secret: 'x'.repeat(201) }, /secret/u],
    [{ since, retryAfterSeconds: -1 }, /retryAfterSeconds/u],
    [{ since, retryAfterSeconds: 1.5 }, /retryAfterSeconds/u],
  ])('%j is a TypeError', (input, message) => {
    expect(() => maintenanceMarker(input)).toThrow(TypeError);
    expect(() => maintenanceMarker(input)).toThrow(message);
  });

  const damaged = { kind: 'down', secret: null, retryAfterSeconds: null, since: null, damaged: true };
  it.each([
    ['an empty file', '', damaged],
    ['a half-written file', '{"since":"2025-03-01T12:00:00.000Z","secr', damaged],
    ['not an object', '[1,2]', damaged],
    ['null', 'null', damaged],
    ['a number', '42', damaged],
    ['an object without since', '{}', damaged],
    ['a bad since', '{"since":"yesterday","secret":"ok","retryAfterSeconds":5}', { ...damaged, secret: 'ok', retryAfterSeconds: 5 }],
    ['a bad secret', '{"since":"2025-03-01T12:00:00.000Z","secret":"a/b"}', { ...damaged, since }],
    ['a secret of another type', '{"since":"2025-03-01T12:00:00.000Z","secret":7}', { ...damaged, since }],
    ['a bad retry', '{"since":"2025-03-01T12:00:00.000Z","retryAfterSeconds":"soon"}', { ...damaged, since }],
  ])('%s still means down', (_name, text, expected) => {
    expect(parseMaintenanceMarker(text)).toEqual(expected);
  });
});

describe('bypass cookie', () => {
  const cookie = maintenanceBypassCookie({ key, secret: 'let-me-in', now, ttlSeconds: 3600 });

  it('is <expires>.<hmac-hex>', () => {
    expect(cookie).toMatch(/^\d+\.[0-9a-f]{64}$/u);
    expect(cookie.split('.')[0]).toBe(String(now.getTime() / 1000 + 3600));
  });

  it.each<[string, string | undefined, { key: Buffer; secret: string; now: Date }, boolean]>([
    ['the same key, secret and a time before expiry', cookie, { key, secret: 'let-me-in', now }, true],
    ['one second before expiry', cookie, { key, secret: 'let-me-in', now: new Date(now.getTime() + 3599_000) }, true],
    ['at expiry', cookie, { key, secret: 'let-me-in', now: new Date(now.getTime() + 3600_000) }, false],
    ['after expiry', cookie, { key, secret: 'let-me-in', now: new Date(now.getTime() + 7200_000) }, false],
    ['a new secret', cookie, { key, secret: 'new-secret', now }, false],
    ['another key', cookie, { key: otherKey, secret: 'let-me-in', now }, false],
    ['no cookie', undefined, { key, secret: 'let-me-in', now }, false],
    ['an empty cookie', '', { key, secret: 'let-me-in', now }, false],
    ['upper-case hex', cookie.toUpperCase(), { key, secret: 'let-me-in', now }, false],
    ['a leading zero on the expiry', `0${cookie}`, { key, secret: 'let-me-in', now }, false],
    ['a later expiry', cookie.replace(/^\d+/u, (e) => String(Number(e) + 1)), { key, secret: 'let-me-in', now }, false],
    ['a truncated MAC', cookie.slice(0, -2), { key, secret: 'let-me-in', now }, false],
    ['an extra part', `${cookie}.x`, { key, secret: 'let-me-in', now }, false],
    ['an invalid secret', cookie, { key, secret: '', now }, false],
  ])('%s → %s', (_name, value, check, expected) => {
    expect(bypassCookieValid(value, check)).toBe(expected);
  });

  it.each([
    [{ key: Buffer.alloc(8), secret: 's', now, ttlSeconds: 60 }, /key/u],
    [{ key, secret: 'a b', now, ttlSeconds: 60 }, /secret/u],
    [{ key, secret: 's', now: new Date(Number.NaN), ttlSeconds: 60 }, /now/u],
    [{ key, secret: 's', now, ttlSeconds: 0 }, /ttlSeconds/u],
    [{ key, secret: 's', now, ttlSeconds: 1.5 }, /ttlSeconds/u],
  ])('%j is a TypeError', (input, message) => {
    expect(() => maintenanceBypassCookie(input)).toThrow(message);
  });

  it('refuses any change to a valid cookie', () => {
    const alphabet = fc.constantFrom(...'0123456789abcdefABCDEF.-_x '.split(''));
    const mutation = fc.oneof(
      fc.record({ kind: fc.constant('replace' as const), at: fc.nat(), char: alphabet }),
      fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), char: alphabet }),
      fc.record({ kind: fc.constant('delete' as const), at: fc.nat(), char: alphabet }),
    );
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }).filter((s) => /^[A-Za-z0-9_-]+$/u.test(s)), fc.array(mutation, { minLength: 1, maxLength: 3 }), (secret, mutations) => {
        const valid = maintenanceBypassCookie({ key, secret, now, ttlSeconds: 600 });
        let value = valid;
        for (const { kind, at, char } of mutations) {
          const index = at % (value.length + 1);
          if (kind === 'replace') value = value.slice(0, index) + char + value.slice(index + 1);
          if (kind === 'insert') value = value.slice(0, index) + char + value.slice(index);
          if (kind === 'delete') value = value.slice(0, index) + value.slice(index + 1);
        }
        fc.pre(value !== valid);
        expect(bypassCookieValid(value, { key, secret, now })).toBe(false);
      }),
    );
  });
});

describe('secret path', () => {
  it.each<[string, string | null, boolean]>([
    ['/let-me-in', 'let-me-in', true],
    ['/let-me-in/', 'let-me-in', false],
    ['/LET-ME-IN', 'let-me-in', false],
    ['/let-me-i', 'let-me-in', false],
    ['let-me-in', 'let-me-in', false],
    ['//let-me-in', 'let-me-in', false],
    ['/let-me-in?x=1', 'let-me-in', false],
    ['/let%2Dme-in', 'let-me-in', false],
    ['/', 'let-me-in', false],
    ['/null', null, false],
    ['/', null, false],
  ])('%j with secret %j → %s', (path, secret, expected) => {
    expect(isSecretPath(path, secret)).toBe(expected);
  });
});

describe('maintenance answer', () => {
  const down = (secret: string | null, retryAfterSeconds: number | null): MaintenanceMarker => ({
    kind: 'down',
    secret,
    retryAfterSeconds,
    since,
    damaged: false,
  });
  const broken = parseMaintenanceMarker('{"since":');

  it.each<[string, string, boolean, boolean, MaintenanceMarker | null, ReturnType<typeof maintenanceAnswer>]>([
    ['up', '/orders', false, false, null, { kind: 'pass' }],
    ['down', '/orders', false, false, down(null, 30), { kind: 'unavailable', retryAfterSeconds: 30 }],
    ['down without --retry', '/', false, false, down(null, null), { kind: 'unavailable', retryAfterSeconds: DEFAULT_MAINTENANCE_RETRY_AFTER_SECONDS }],
    ['health check', '/health', false, false, down('s', 30), { kind: 'pass' }],
    ['health check, damaged marker', '/health', false, false, broken, { kind: 'pass' }],
    ['a public file', '/css/app.css', true, false, down('s', 30), { kind: 'pass' }],
    ['the secret path', '/s', false, false, down('s', 30), { kind: 'bypass-set' }],
    ['the secret path with a bypass already', '/s', false, true, down('s', 30), { kind: 'bypass-set' }],
    ['the wrong secret', '/t', false, false, down('s', 30), { kind: 'unavailable', retryAfterSeconds: 30 }],
    ['a valid bypass', '/orders', false, true, down('s', 30), { kind: 'pass' }],
    ['/health/ is not /health', '/health/', false, false, down(null, 5), { kind: 'unavailable', retryAfterSeconds: 5 }],
    ['a damaged marker', '/', false, false, broken, { kind: 'unavailable', retryAfterSeconds: DEFAULT_MAINTENANCE_RETRY_AFTER_SECONDS }],
    ['/null on a marker without secret', '/null', false, false, down(null, 5), { kind: 'unavailable', retryAfterSeconds: 5 }],
  ])('%s: %s → %j', (_name, path, isPublicFile, hasValidBypass, marker, expected) => {
    expect(maintenanceAnswer({ path, isPublicFile, hasValidBypass, marker })).toEqual(expected);
  });
});
