import { createHmac } from 'node:crypto';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { hapiPath } from '../../../../adapters/http/kernel/webhook-routes.js';
import { parseBody } from '../../../../adapters/http/kernel/body.js';
import { HttpAbort } from '../../../../adapters/http/kernel/http-error.js';
import { hmacSha256Webhook } from '../../../../adapters/http/webhooks.js';
import type { WebhookRequest } from '../../../../adapters/http/webhooks.js';
import { parsePathPattern } from '../../../../domain/http/routing/path-pattern.js';
import { hmacSha256Matches } from '../../../../domain/webhooks/webhook-signature.js';

const request = (body: string | Buffer, headers: WebhookRequest['headers']): WebhookRequest => ({ method: 'POST', path: '/hooks', headers, body: Buffer.from(body) });

describe('hmacSha256Matches', () => {
  // GitHub's documented example delivery (docs: "Validating webhook deliveries").
  const github = { body: Buffer.from('Hello, World!'), secret: "It's a Secret to Everybody", prefix: 'sha256=', encoding: 'hex' as const };
  const digest = '757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17';

  it.each<[string, string | undefined, boolean]>([
    ['the documented signature', `sha256=${digest}`, true],
    ['upper-case hex', `sha256=${digest.toUpperCase()}`, true],
    ['no header', undefined, false],
    ['no prefix', digest, false],
    ['another prefix', `sha1=${digest}`, false],
    ['a digest one character short', `sha256=${digest.slice(0, -1)}`, false],
    ['a digest one character long', `sha256=${digest}0`, false],
    ['one wrong character', `sha256=${digest.slice(0, -1)}f`, false],
    ['not hex', `sha256=${'z'.repeat(64)}`, false],
    ['an empty value', '', false],
    ['two signatures', `sha256=${digest}, sha256=${digest}`, false],
  ])('%s → %s', (_case, presented, expected) => {
    expect(hmacSha256Matches({ ...github, presented })).toBe(expected);
  });

  it('accepts base64 digests', () => {
    const presented = createHmac('sha256', 'k').update('body').digest('base64');
    expect(hmacSha256Matches({ body: Buffer.from('body'), secret: 'k', presented, prefix: '', encoding: 'base64' })).toBe(true);
    expect(hmacSha256Matches({ body: Buffer.from('body!'), secret: 'k', presented, prefix: '', encoding: 'base64' })).toBe(false);
    expect(hmacSha256Matches({ body: Buffer.from('body'), secret: 'k', presented: presented.replace('=', ''), prefix: '', encoding: 'base64' })).toBe(false);
  });

  it('accepts exactly the signature of these bytes with this secret', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.string({ minLength: 1 }), fc.nat(), (bytes, secret, at) => {
        const body = Buffer.from(bytes);
        const presented = createHmac('sha256', secret).update(body).digest('hex');
        const check = { body, secret, presented, prefix: '', encoding: 'hex' as const };
        if (!hmacSha256Matches(check)) return false;
        if (body.length > 0) {
          const altered = Buffer.from(body);
          altered[at % body.length] = (altered[at % body.length] ?? 0) ^ 1;
          if (hmacSha256Matches({ ...check, body: altered })) return false;
        }
        return !hmacSha256Matches({ ...check, secret: `${secret}x` });
      }),
    );
  });
});

describe('hmacSha256Webhook', () => {
  const verify = hmacSha256Webhook({ header: 'X-Signature', secret: 'shh', prefix: 'sha256=' });
  const signature = `sha256=${createHmac('sha256', 'shh').update('{"a":1}').digest('hex')}`;

  it('reads the header by its lower-case name', async () => {
    expect(await verify(request('{"a":1}', { 'x-signature': signature }))).toBe(true);
    expect(await verify(request('{"a":2}', { 'x-signature': signature }))).toBe(false);
    expect(await verify(request('{"a":1}', {}))).toBe(false);
  });

  it('refuses a header sent as several values', async () => {
    expect(await verify(request('{"a":1}', { 'x-signature': [signature, signature] }))).toBe(false);
  });

  it('needs a header name and a secret', () => {
    expect(() => hmacSha256Webhook({ header: ' ', secret: 'shh' })).toThrow(TypeError);
    expect(() => hmacSha256Webhook({ header: 'X-Signature', secret: '' })).toThrow(TypeError);
  });
});

describe('parseBody: a raw body parsed as hapi would', () => {
  it.each<[string, string | undefined, string, unknown]>([
    ['JSON', 'application/json', '{"a":[1,2]}', { a: [1, 2] }],
    ['JSON with a charset', 'application/json; charset=utf-8', '{"a":1}', { a: 1 }],
    ['a +json type', 'application/vnd.api+json', '{"a":1}', { a: 1 }],
    ['empty JSON', 'application/json', '', null],
    ['a form', 'application/x-www-form-urlencoded', 'a=1&b=x&b=y', { a: '1', b: ['x', 'y'] }],
    ['an empty form', 'application/x-www-form-urlencoded', '', {}],
    ['text', 'text/plain', 'héllo', 'héllo'],
    ['no type and no body', undefined, '', null],
  ])('%s', (_case, type, body, expected) => {
    expect(parseBody(Buffer.from(body), type)).toEqual(expected);
  });

  it('gives the bytes of other types', () => {
    expect(parseBody(Buffer.from('abc'), 'application/octet-stream')).toEqual(Buffer.from('abc'));
    expect(parseBody(Buffer.from('abc'), 'application/xml')).toEqual(Buffer.from('abc'));
  });

  it.each(['{oops', '{"__proto__": {"admin": true}}', '{"a": {"__proto__": 1}}'])('refuses %s with 400', (body) => {
    expect(() => parseBody(Buffer.from(body), 'application/json')).toThrow(HttpAbort);
  });
});

describe('hapiPath', () => {
  it.each([
    ['/', '/'],
    ['/webhooks/github', '/webhooks/github'],
    ['/hooks/{provider}', '/hooks/{p1}'],
    ['/hooks/{provider}/events/{*rest}', '/hooks/{p1}/events/{p3*}'],
    ['/café/{id}', '/{p0}/{p1}'],
    ["/a:b/c+d/e'f", "/a:b/c+d/e'f"],
  ])('%s → %s', (pattern, expected) => {
    expect(hapiPath(parsePathPattern(pattern))).toBe(expected);
  });

  it('gives patterns of one shape one path, whatever their parameter names', () => {
    expect(hapiPath(parsePathPattern('/hooks/{a}'))).toBe(hapiPath(parsePathPattern('/hooks/{b}')));
  });
});
