import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { deriveAppKeys } from '../../../../domain/security/app-keys.js';
import { overriddenMethod } from '../../../../domain/http/method-override.js';
import { acceptRequestId, newRequestId } from '../../../../domain/http/request-id.js';
import { securityHeaders } from '../../../../domain/http/security-headers.js';

describe('request ids', () => {
  it.each([
    ['abcdefgh', true],
    ['a'.repeat(64), true],
    ['req-1234.abc_DEF', true],
    ['abcdefg', false],
    ['a'.repeat(65), false],
    ['has space1', false],
    ['line\nbreak1', false],
    ['quote"quote', false],
    ['', false],
  ])('%j kept: %s', (incoming, kept) => {
    expect(acceptRequestId(incoming)).toBe(kept ? incoming : null);
  });

  it('keeps exactly the ids of 8 to 64 allowed characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 80 }), (text) => {
        const ok = /^[A-Za-z0-9._-]{8,64}$/u.test(text);
        return (acceptRequestId(text) === text) === ok && (ok || acceptRequestId(text) === null);
      }),
    );
  });

  it('makes new ids that it would keep', () => {
    expect(acceptRequestId(newRequestId(new Uint8Array(16).fill(171)))).toBe('ab'.repeat(16));
  });
});

describe('method override', () => {
  it.each([
    ['POST', { field: 'PUT' }, 'PUT'],
    ['POST', { field: 'patch' }, 'PATCH'],
    ['POST', { field: ' delete ' }, 'DELETE'],
    ['POST', { header: 'DELETE' }, 'DELETE'],
    ['POST', { field: 'PUT', header: 'DELETE' }, 'PUT'],
    ['POST', { field: 'GET' }, 'POST'],
    ['POST', { field: 'CONNECT' }, 'POST'],
    ['POST', { field: ['PUT'] }, 'POST'],
    ['GET', { field: 'DELETE', header: 'DELETE' }, 'GET'],
    ['put', {}, 'PUT'],
  ] as const)('%s with %j is routed as %s', (method, override, expected) => {
    expect(overriddenMethod(method, override)).toBe(expected);
  });
});

describe('security headers', () => {
  const nonce = 'bm9uY2Utbm9uY2Utbm9uY2U=';

  it('always sends nosniff, a referrer policy, frame options and a CSP with the nonce', () => {
    const headers = securityHeaders({ https: false, nonce });
    expect(headers).toMatchObject({ 'x-content-type-options': 'nosniff', 'x-frame-options': 'SAMEORIGIN' });
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(headers['content-security-policy']).toContain(`script-src 'self' 'nonce-${nonce}'`);
    expect(headers['content-security-policy']).toContain("object-src 'none'");
    expect(headers['strict-transport-security']).toBeUndefined();
  });

  it('adds HSTS only when APP_URL is https', () => {
    expect(securityHeaders({ https: true, nonce })['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('refuses a nonce that could break out of the header', () => {
    expect(() => securityHeaders({ https: false, nonce: "x' 'unsafe-inline" })).toThrow(TypeError);
  });
});

describe('keys derived from APP_KEY', () => {
  it('gives every purpose its own 32-byte key, the same for the same APP_KEY', () => {
    const keys = deriveAppKeys(Buffer.alloc(32, 1));
    const values = Object.values(keys).map((key: Buffer) => key.toString('hex'));
    expect(new Set(values).size).toBe(Object.keys(keys).length);
    for (const key of Object.values(keys) as Buffer[]) expect(key).toHaveLength(32);
    expect(deriveAppKeys(Buffer.alloc(32, 1)).signedUrls.equals(keys.signedUrls)).toBe(true);
    expect(deriveAppKeys(Buffer.alloc(32, 2)).signedUrls.equals(keys.signedUrls)).toBe(false);
  });

  it('refuses a key of the wrong size', () => {
    expect(() => deriveAppKeys(Buffer.alloc(16))).toThrow(TypeError);
  });
});
