import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { normalizeOrigin } from '../../../../domain/http/cors/cors-origin.js';
import { corsDecision, corsDecisionAmong, corsLayerPolicy, corsPolicy, mergeVary } from '../../../../domain/http/cors/cors.js';
import type { CorsPolicy, CorsRequest } from '../../../../domain/http/cors/cors.js';

const partner = corsLayerPolicy({ origins: ['https://partner.test'], credentials: true, exposedHeaders: ['X-Total-Count'] });
const anyone = corsPolicy(['*']);
const app = corsPolicy(['https://app.example']);

describe('several cors layers over one route', () => {
  it.each<[string, CorsPolicy[], CorsRequest, string, Record<string, string>]>([
    [
      'the nearest layer allows: its headers',
      [partner, anyone],
      { method: 'GET', origin: 'https://partner.test' },
      'actual',
      { vary: 'Origin', 'access-control-allow-origin': 'https://partner.test', 'access-control-allow-credentials': 'true', 'access-control-expose-headers': 'X-Total-Count' },
    ],
    ['a farther layer allows: its headers alone', [partner, anyone], { method: 'GET', origin: 'https://other.test' }, 'actual', { vary: 'Origin', 'access-control-allow-origin': '*' }],
    ['none allows: the first refusal', [partner, app], { method: 'GET', origin: 'https://evil.test' }, 'origin-refused', { vary: 'Origin' }],
    ['null through "*" and a credentials layer: refused', [partner, anyone], { method: 'GET', origin: 'null' }, 'origin-refused', { vary: 'Origin' }],
    ['no Origin', [partner, anyone], { method: 'GET' }, 'not-cors', { vary: 'Origin' }],
    [
      'a preflight one layer refuses for its headers and another allows',
      [corsPolicy(['https://app.example']), corsLayerPolicy({ origins: ['https://app.example'], headers: ['X-Custom'] })],
      { method: 'OPTIONS', origin: 'https://app.example', requestMethod: 'PUT', requestHeaders: 'x-custom' },
      'preflight',
      {
        vary: 'Origin',
        'access-control-allow-origin': 'https://app.example',
        'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS',
        'access-control-allow-headers': 'X-Custom',
        'access-control-max-age': '3600',
      },
    ],
  ])('%s', (_name, policies, request, kind, headers) => {
    const decision = corsDecisionAmong(policies, request);
    expect(decision.kind).toBe(kind);
    expect(decision.headers).toEqual(headers);
  });

  it('needs at least one policy', () => {
    expect(() => corsDecisionAmong([], { method: 'GET', origin: 'https://app.example' })).toThrow(TypeError);
  });

  it('with one policy is that policy’s decision', () => {
    const request = fc.record({
      method: fc.constantFrom('GET', 'POST', 'OPTIONS'),
      origin: fc.option(fc.constantFrom('https://app.example', 'https://evil.test', 'null', '', 'app.example'), { nil: undefined }),
      requestMethod: fc.option(fc.constantFrom('GET', 'PUT', 'TRACE'), { nil: undefined }),
      requestHeaders: fc.option(fc.constantFrom('content-type', 'x-xsrf-token', 'x-custom'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.constantFrom(partner, anyone, app), request, (policy, req) => {
        expect(corsDecisionAmong([policy], req)).toEqual(corsDecision(policy, req));
      }),
    );
  });

  it('answers with one policy whole: credentials only for origins that policy lists by name', () => {
    const origins = fc.constantFrom('*', 'null', 'https://app.example', 'https://partner.test', 'http://localhost:3000');
    const options = fc.record({ origins: fc.array(origins, { minLength: 1, maxLength: 3 }), credentials: fc.boolean() });
    const policy = options.filter((o) => !(o.credentials && (o.origins.includes('*') || o.origins.includes('null')))).map((o) => corsLayerPolicy(o));
    const request = fc.record({
      method: fc.constantFrom('GET', 'OPTIONS'),
      origin: fc.option(fc.oneof(origins, fc.domain().map((host) => new URL(`https://${host}`).origin)), { nil: undefined }),
      requestMethod: fc.option(fc.constantFrom('GET', 'DELETE', 'PROPFIND'), { nil: undefined }),
    });
    fc.assert(
      fc.property(fc.array(policy, { minLength: 1, maxLength: 3 }), request, (policies, req) => {
        const { headers } = corsDecisionAmong(policies, req);
        expect(headers['vary']).toBe('Origin');
        const allowOrigin = headers['access-control-allow-origin'];
        if (allowOrigin === undefined) {
          expect(headers['access-control-allow-credentials']).toBeUndefined();
          return;
        }
        expect([normalizeOrigin(req.origin ?? ''), '*']).toContain(allowOrigin);
        if (headers['access-control-allow-credentials'] === 'true') {
          expect(policies.some((p) => p.credentials && p.origins.has(allowOrigin))).toBe(true);
          expect(['*', 'null']).not.toContain(allowOrigin);
        }
      }),
    );
  });
});

describe('mergeVary', () => {
  it.each<[(string | undefined)[], string]>([
    [[undefined, 'Origin'], 'Origin'],
    [['Accept', 'Origin'], 'Accept, Origin'],
    [['Accept, origin', 'Origin'], 'Accept, origin'],
    [[' Accept ,, Cookie ', 'Origin'], 'Accept, Cookie, Origin'],
    [['*', 'Origin'], '*'],
    [['Accept', 'Accept-Encoding, *'], '*'],
    [['', undefined], ''],
  ])('%j → %j', (values, expected) => {
    expect(mergeVary(...values)).toBe(expected);
  });

  it('keeps every name once and loses none', () => {
    const name = fc.constantFrom('Origin', 'origin', 'Accept', 'Accept-Encoding', 'Cookie', 'X-Tenant');
    const value = fc.array(name, { maxLength: 4 }).map((names) => names.join(', '));
    fc.assert(
      fc.property(fc.array(value, { maxLength: 4 }), (values) => {
        const merged = mergeVary(...values);
        const out = merged === '' ? [] : merged.split(', ');
        const lower = out.map((n) => n.toLowerCase());
        expect(new Set(lower).size).toBe(lower.length);
        const wanted = new Set(values.flatMap((v) => v.split(',')).map((n) => n.trim().toLowerCase()).filter((n) => n !== ''));
        expect(new Set(lower)).toEqual(wanted);
      }),
    );
  });
});
