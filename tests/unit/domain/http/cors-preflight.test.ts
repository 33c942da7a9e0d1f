import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isPreflight, preflightAnswer } from '../../../../domain/http/cors/cors-preflight.js';
import { corsLayerPolicy, corsPolicy } from '../../../../domain/http/cors/cors.js';
import type { CorsRequest } from '../../../../domain/http/cors/cors.js';

const listed = corsPolicy(['https://app.example']);
const withCookies = corsLayerPolicy({ origins: ['https://app.example'], credentials: true, headers: ['X-Custom'], maxAgeSeconds: 600 });

const ask = (origin: string, requestMethod = 'PUT', requestHeaders?: string): CorsRequest => ({ method: 'OPTIONS', origin, requestMethod, requestHeaders });

describe('isPreflight', () => {
  it.each<[string, CorsRequest, boolean]>([
    ['OPTIONS with Origin and Access-Control-Request-Method', ask('https://app.example'), true],
    ['lower-case options', { method: 'options', origin: 'https://a.test', requestMethod: 'GET' }, true],
    ['an empty requested method (refused later, not routed)', { method: 'OPTIONS', origin: 'https://a.test', requestMethod: '' }, true],
    ['the null origin', ask('null'), true],
    ['no Access-Control-Request-Method', { method: 'OPTIONS', origin: 'https://a.test' }, false],
    ['no Origin', { method: 'OPTIONS', requestMethod: 'PUT' }, false],
    ['an empty Origin', { method: 'OPTIONS', origin: ' ', requestMethod: 'PUT' }, false],
    ['another method', { method: 'GET', origin: 'https://a.test', requestMethod: 'PUT' }, false],
  ])('%s → %s', (_name, request, expected) => {
    expect(isPreflight(request)).toBe(expected);
  });
});

describe('preflightAnswer', () => {
  it('allows with 204 and the spec headers', () => {
    expect(preflightAnswer([listed], ask('https://app.example', 'POST', 'content-type, x-csrf-token'), true)).toEqual({
      kind: 'allowed',
      status: 204,
      headers: {
        vary: 'Origin',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'Content-Type, Authorization, Accept, X-CSRF-Token',
        'access-control-max-age': '3600',
      },
    });
  });

  it('allows credentials for a listed origin with the layer’s headers and lifetime', () => {
    const answer = preflightAnswer([withCookies], ask('https://app.example', 'DELETE', 'X-Custom'), true);
    expect(answer.kind).toBe('allowed');
    expect(answer.headers['access-control-allow-credentials']).toBe('true');
    expect(answer.headers['access-control-allow-headers']).toBe('X-Custom');
    expect(answer.headers['access-control-max-age']).toBe('600');
  });

  it.each<[string, CorsRequest, boolean, string]>([
    ['an unlisted origin', ask('https://evil.test'), true, 'origin'],
    ['an unlisted origin for a method no route serves', ask('https://evil.test', 'PUT'), false, 'origin'],
    ['a method no route of the path serves', ask('https://app.example', 'PUT'), false, 'method'],
    ['a method outside the list', ask('https://app.example', 'PROPFIND'), true, 'method'],
    ['X-XSRF-TOKEN', ask('https://app.example', 'POST', 'X-XSRF-TOKEN'), true, 'headers'],
    ['a header outside the list', ask('https://app.example', 'POST', 'x-custom'), true, 'headers'],
  ])('refuses %s with 403, Vary and nothing else', (_name, request, served, reason) => {
    expect(preflightAnswer([listed], request, served)).toEqual({ kind: 'refused', status: 403, reason, headers: { vary: 'Origin' } });
  });

  it('refuses null with credentials', () => {
    expect(preflightAnswer([withCookies], ask('null'), true)).toMatchObject({ kind: 'refused', reason: 'origin' });
  });

  it('is only for preflights', () => {
    expect(() => preflightAnswer([listed], { method: 'OPTIONS', origin: 'https://app.example' }, true)).toThrow(TypeError);
  });

  it('a refusal never carries an Access-Control-Allow-* header; an allowance always answers the origin asked', () => {
    const request = fc.record({
      method: fc.constant('OPTIONS'),
      origin: fc.oneof(fc.constantFrom('https://app.example', 'null', 'https://evil.test', 'HTTPS://APP.EXAMPLE:443'), fc.string({ minLength: 1 })),
      requestMethod: fc.oneof(fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'patch', 'DELETE', 'TRACE', ''), fc.string()),
      requestHeaders: fc.option(fc.oneof(fc.constantFrom('content-type', 'X-CSRF-Token, Accept', 'x-xsrf-token', 'x-custom'), fc.string()), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.constantFrom(listed, withCookies, corsPolicy(['*'])), request, fc.boolean(), (policy, req, served) => {
        fc.pre(req.origin.trim() !== '');
        const answer = preflightAnswer([policy], req, served);
        if (answer.kind === 'refused') {
          expect(answer.status).toBe(403);
          expect(Object.keys(answer.headers)).toEqual(['vary']);
          return;
        }
        expect(served).toBe(true);
        expect(answer.status).toBe(204);
        const allowOrigin = answer.headers['access-control-allow-origin'];
        expect(allowOrigin === '*' || allowOrigin === 'https://app.example').toBe(true);
        if (allowOrigin === '*') expect(answer.headers['access-control-allow-credentials']).toBeUndefined();
      }),
    );
  });
});
