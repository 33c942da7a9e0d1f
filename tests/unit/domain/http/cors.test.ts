import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from '../../../../domain/http/cors/cors-origin.js';
import { corsDecision, corsLayerPolicy, corsPolicy, type CorsRequest } from '../../../../domain/http/cors/cors.js';

const listed = corsPolicy(['https://app.example', 'HTTP://Localhost:3000/', 'null']);
const any = corsPolicy(['*']);
const withCookies = corsLayerPolicy({
  origins: ['https://app.example'],
  headers: ['X-Custom', 'content-type'],
  exposedHeaders: ['X-Total-Count'],
  credentials: true,
  maxAgeSeconds: 600,
});

const preflight = (origin: string, requestMethod = 'PUT', requestHeaders?: string): CorsRequest => ({
  method: 'OPTIONS',
  origin,
  requestMethod,
  requestHeaders,
});

describe('CORS policy construction', () => {
  it('has the spec defaults', () => {
    expect(listed.methods).toEqual(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
    expect(listed.allowedHeaders).toEqual(['Content-Type', 'Authorization', 'Accept', 'X-CSRF-Token']);
    expect(listed.allowedHeaders.map((h) => h.toLowerCase())).not.toContain('x-xsrf-token');
    expect(listed.credentials).toBe(false);
    expect(listed.maxAgeSeconds).toBe(3600);
    expect([...listed.origins]).toEqual(['https://app.example', 'http://localhost:3000', 'null']);
  });

  it.each([
    [{ origins: ['*'], credentials: true }, /"\*"/u],
    [{ origins: ['https://a.test', '*'], credentials: true }, /"\*"/u],
    [{ origins: ['null'], credentials: true }, /"null"/u],
    [{ origins: [] }, /at least one origin/u],
    [{ origins: ['https://a.test/path'] }, /scheme:\/\/host/u],
    [{ origins: ['a.test'] }, /scheme:\/\/host/u],
    [{ origins: ['https://user@a.test'] }, /scheme:\/\/host/u],
    [{ origins: ['https://a.test'], headers: ['X Bad'] }, /not a header/u],
    [{ origins: ['https://a.test'], headers: ['*'] }, /not a header/u],
    [{ origins: ['https://a.test'], methods: ['GE T'] }, /not a header or method/u],
    [{ origins: ['https://a.test'], maxAgeSeconds: -1 }, /maxAgeSeconds/u],
    [{ origins: ['https://a.test'], maxAgeSeconds: 1.5 }, /maxAgeSeconds/u],
  ])('%j is a TypeError', (options, message) => {
    expect(() => corsLayerPolicy(options)).toThrow(TypeError);
    expect(() => corsLayerPolicy(options)).toThrow(message);
  });

  it('upper-cases methods and drops duplicate names', () => {
    const policy = corsLayerPolicy({ origins: ['https://a.test'], methods: ['get', 'GET', 'patch'], headers: ['X-A', 'x-a'] });
    expect(policy.methods).toEqual(['GET', 'PATCH']);
    expect(policy.allowedHeaders).toEqual(['X-A']);
  });
});

describe('origin normalisation', () => {
  it.each([
    ['https://app.example', 'https://app.example'],
    ['HTTPS://APP.Example:443/', 'https://app.example'],
    ['http://app.example:80', 'http://app.example'],
    ['http://app.example:8080', 'http://app.example:8080'],
    ['https://[::1]:443', 'https://[::1]'],
    ['https://bücher.example', null],
    ['https://xn--bcher-kva.example', 'https://xn--bcher-kva.example'],
    ['Chrome-Extension://AbC', 'chrome-extension://abc'],
    ['null', 'null'],
    ['NULL', 'null'],
    ['https://app.example/x', null],
    ['https://app.example?x', null],
    ['https://app.example\r\nSet-Cookie: a=1', null],
    ['//app.example', null],
    ['', null],
    ['*', null],
  ])('%j → %j', (origin, expected) => {
    expect(normalizeOrigin(origin)).toBe(expected);
  });
});

describe('CORS decisions', () => {
  it.each<[string, CorsRequest, string, Record<string, string>]>([
    ['no Origin', { method: 'GET' }, 'not-cors', { vary: 'Origin' }],
    ['empty Origin', { method: 'GET', origin: ' ' }, 'not-cors', { vary: 'Origin' }],
    [
      'a listed origin',
      { method: 'GET', origin: 'https://app.example' },
      'actual',
      { vary: 'Origin', 'access-control-allow-origin': 'https://app.example' },
    ],
    [
      'a listed origin spelt differently',
      { method: 'POST', origin: 'http://localhost:3000' },
      'actual',
      { vary: 'Origin', 'access-control-allow-origin': 'http://localhost:3000' },
    ],
    ['the explicitly listed null origin', { method: 'GET', origin: 'null' }, 'actual', { vary: 'Origin', 'access-control-allow-origin': 'null' }],
    ['another origin', { method: 'GET', origin: 'https://evil.test' }, 'origin-refused', { vary: 'Origin' }],
    ['a look-alike origin', { method: 'GET', origin: 'https://app.example.evil.test' }, 'origin-refused', { vary: 'Origin' }],
    ['another port', { method: 'GET', origin: 'https://app.example:8443' }, 'origin-refused', { vary: 'Origin' }],
    ['another scheme', { method: 'GET', origin: 'http://app.example' }, 'origin-refused', { vary: 'Origin' }],
    ['a malformed Origin', { method: 'GET', origin: 'app.example' }, 'origin-refused', { vary: 'Origin' }],
    ['a real OPTIONS request', { method: 'OPTIONS', origin: 'https://app.example' }, 'actual', { vary: 'Origin', 'access-control-allow-origin': 'https://app.example' }],
  ])('listed origins, %s', (_name, request, kind, headers) => {
    const decision = corsDecision(listed, request);
    expect(decision.kind).toBe(kind);
    expect(decision.headers).toEqual(headers);
  });

  it.each<[string, CorsRequest, string, string | undefined]>([
    ['any https origin', { method: 'GET', origin: 'https://anyone.test' }, 'actual', '*'],
    ['a preflight', preflight('https://anyone.test', 'DELETE', 'content-type,x-csrf-token'), 'preflight', '*'],
    ['the null origin (never through "*")', { method: 'GET', origin: 'null' }, 'origin-refused', undefined],
    ['a null preflight', preflight('null'), 'preflight-refused', undefined],
  ])('"*", %s', (_name, request, kind, allowOrigin) => {
    const decision = corsDecision(any, request);
    expect(decision.kind).toBe(kind);
    expect(decision.headers['access-control-allow-origin']).toBe(allowOrigin);
    expect(decision.headers['vary']).toBe('Origin');
    expect(decision.headers['access-control-allow-credentials']).toBeUndefined();
  });

  it('answers an allowed preflight with the spec headers', () => {
    expect(corsDecision(listed, preflight('https://app.example', 'PATCH', 'Content-Type, X-CSRF-Token'))).toEqual({
      kind: 'preflight',
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Authorization, Accept, X-CSRF-Token',
        'access-control-max-age': '3600',
      },
    });
  });

  it.each<[string, CorsRequest, string]>([
    ['a listed method and headers in any case', preflight('https://app.example', 'DELETE', 'AUTHORIZATION,accept'), 'preflight'],
    ['no requested headers', preflight('https://app.example', 'PUT'), 'preflight'],
    ['an empty header list', preflight('https://app.example', 'PUT', ' , '), 'preflight'],
    ['a safelisted method not listed', preflight('https://app.example', 'HEAD'), 'preflight'],
    ['lower-case options', { method: 'options', origin: 'https://app.example', requestMethod: 'GET' }, 'preflight'],
    ['X-XSRF-TOKEN', preflight('https://app.example', 'POST', 'x-xsrf-token'), 'preflight-refused'],
    ['an unlisted header', preflight('https://app.example', 'POST', 'content-type, x-other'), 'preflight-refused'],
    ['a malformed header list', preflight('https://app.example', 'POST', 'content type'), 'preflight-refused'],
    ['an unlisted method', preflight('https://app.example', 'PROPFIND'), 'preflight-refused'],
    ['a lower-case patch (browsers send it as typed)', preflight('https://app.example', 'patch'), 'preflight-refused'],
    ['an empty method', preflight('https://app.example', ''), 'preflight-refused'],
    ['an unlisted origin', preflight('https://evil.test'), 'preflight-refused'],
  ])('preflight with %s → %s', (_name, request, kind) => {
    const decision = corsDecision(listed, request);
    expect(decision.kind).toBe(kind);
    if (decision.kind === 'preflight-refused') expect(decision.headers).toEqual({ vary: 'Origin' });
  });

  it.each<[CorsRequest, string]>([
    [preflight('https://evil.test'), 'origin'],
    [preflight('https://app.example', 'TRACE'), 'method'],
    [preflight('https://app.example', 'GET', 'x-xsrf-token'), 'headers'],
  ])('a refused preflight says why: %j → %s', (request, reason) => {
    expect(corsDecision(listed, request)).toMatchObject({ kind: 'preflight-refused', reason });
  });

  it('a credentials layer allows cookies, its own headers and exposed headers', () => {
    expect(corsDecision(withCookies, { method: 'GET', origin: 'https://app.example' })).toEqual({
      kind: 'actual',
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-credentials': 'true',
        'access-control-expose-headers': 'X-Total-Count',
      },
    });
    expect(corsDecision(withCookies, preflight('https://app.example', 'PUT', 'x-custom, Content-Type'))).toEqual({
      kind: 'preflight',
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-credentials': 'true',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'X-Custom, content-type',
        'access-control-max-age': '600',
      },
    });
    expect(corsDecision(withCookies, preflight('https://app.example', 'PUT', 'authorization')).kind).toBe('preflight-refused');
    expect(corsDecision(withCookies, { method: 'GET', origin: 'null' }).kind).toBe('origin-refused');
  });

  it('never allows credentials together with a "*" or "null" origin', () => {
    const origin = fc.oneof(
      fc.constantFrom('null', 'NULL', '*', 'https://app.example', 'http://localhost:3000', ''),
      fc.webUrl().map((url) => new URL(url).origin),
      fc.string(),
    );
    const options = fc.record({
      origins: fc.array(fc.constantFrom('*', 'null', 'https://app.example', 'http://localhost:3000'), { minLength: 1, maxLength: 3 }),
      credentials: fc.boolean(),
    });
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'OPTIONS', 'options'),
      origin: fc.option(origin, { nil: undefined }),
      requestMethod: fc.option(fc.constantFrom('GET', 'PUT', 'patch', 'TRACE', ''), { nil: undefined }),
      requestHeaders: fc.option(fc.string(), { nil: undefined }),
    });
    fc.assert(
      fc.property(options, request, (opts, req) => {
        let policy;
        try {
          policy = corsLayerPolicy(opts);
        } catch (error) {
          expect(error).toBeInstanceOf(TypeError);
          expect(opts.credentials).toBe(true);
          return;
        }
        const { headers } = corsDecision(policy, req);
        expect(headers['vary']).toBe('Origin');
        const allowOrigin = headers['access-control-allow-origin'];
        if (headers['access-control-allow-credentials'] === 'true') {
          expect(allowOrigin).not.toBe('*');
          expect(allowOrigin).not.toBe('null');
        }
        if (allowOrigin === 'null') expect(policy.origins.has('null')).toBe(true);
      }),
    );
  });

  it('answers a browser’s origin with itself or "*", never with another listed origin', () => {
    // Browsers send origins serialised (lower case, no default port), as these are.
    const origin = fc.oneof(fc.constantFrom('https://app.example', 'http://localhost:3000', 'null', 'https://evil.test'), fc.webUrl().map((url) => new URL(url).origin));
    const options = fc.record({
      origins: fc.array(fc.constantFrom('*', 'null', 'https://app.example', 'HTTP://Localhost:3000/'), { minLength: 1, maxLength: 4 }),
      credentials: fc.constant(false),
    });
    fc.assert(
      fc.property(options, origin, fc.constantFrom('GET', 'OPTIONS'), fc.option(fc.constantFrom('GET', 'PUT'), { nil: undefined }), (opts, requestOrigin, method, requestMethod) => {
        const policy = corsLayerPolicy(opts);
        const allowOrigin = corsDecision(policy, { method, origin: requestOrigin, requestMethod }).headers['access-control-allow-origin'];
        if (allowOrigin === undefined) return;
        if (allowOrigin === '*') expect(policy.anyOrigin).toBe(true);
        else expect(allowOrigin).toBe(requestOrigin);
      }),
    );
  });
});
