import { mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, View, json, text } from '../../../composition/index.js';
import type { App, AppOptions } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

/** Routes of every shape a random request may stumble into: parameters, bodies, views, public files. */
function targetApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/items/{id}', (ctx) => json({ id: ctx.params.int('id') }))
    .name('items.show')
    .post('/items', (ctx) => json({ received: ctx.body() ?? null }))
    .put('/items/{id}', (ctx) => json({ id: ctx.params.int('id'), received: ctx.body() ?? null }))
    .patch('/items/{id}', (ctx) => json({ id: ctx.params.int('id') }))
    .delete('/items/{id}', (ctx) => text(`deleted ${ctx.params.string('id')}`))
    .post('/echo', (ctx) => json({ query: ctx.query, page: ctx.page, received: ctx.body() ?? null }))
    .get('/files/{*rest}', (ctx) => json({ rest: ctx.params.string('rest') }))
    .get('/page', () => View.make('fw/home.html'))
    .get('/session', (ctx) => json({ count: ctx.session.increment('count'), hx: ctx.hx, api: ctx.isApiClient }))
    .get('/cookies', async (ctx) => json({ plain: ctx.cookies.get('theme') ?? null, sealed: (await ctx.cookies.getEncrypted('prefs')) ?? null }));
  return createDefaultApp(options).module({ name: 'bad-input', routes });
}

interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Node's HTTP parser refuses some requests Node's client sends (raw bytes 0x80-0xff in the
 * path, for one) before hapi or the app sees them; hapi then writes a fixed
 * `HTTP/1.1 400 Bad Request` with no header at all and closes. Nothing the app can add to.
 */
function refusedByParser(answer: Answer): boolean {
  return answer.status === 400 && Object.keys(answer.headers).length === 0;
}

/** A thrown error from building the request: what Node's client refuses to send. */
class Unsendable extends Error {}

const agent = new Agent({ keepAlive: false });

function send(base: URL, method: string, path: string, headers: Record<string, string>, body: Uint8Array | null): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let outgoing;
    try {
      outgoing = httpRequest({ host: base.hostname, port: base.port, method, path, headers, agent, timeout: 5000 });
    } catch (error) {
      reject(new Unsendable(String(error)));
      return;
    }
    outgoing.on('response', (incoming) => {
      incoming.resume();
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers }));
      incoming.on('error', reject);
    });
    outgoing.on('timeout', () => outgoing.destroy(new Error(`no answer within 5 s to ${method} ${path.slice(0, 200)}`)));
    outgoing.on('error', reject);
    outgoing.end(body ?? undefined);
  });
}

// ---- Generators ------------------------------------------------------------------------------

const hex = (byte: number) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`;

/** Characters Node's client puts in a request line as they are (0x80-0xff rarely: the parser refuses them). */
const rawPathChar = fc.oneof(
  { weight: 80, arbitrary: fc.integer({ min: 0x21, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.integer({ min: 0x80, max: 0xff }).map((code) => String.fromCharCode(code)) },
);

const segment = fc.oneof(
  { weight: 3, arbitrary: fc.string({ unit: rawPathChar, maxLength: 12 }) },
  { weight: 2, arbitrary: fc.uint8Array({ maxLength: 12 }).map((bytes) => [...bytes].map(hex).join('')) },
  { weight: 2, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }).map((text) => encodeURIComponent(text)) },
  { weight: 2, arbitrary: fc.constantFrom('..', '.', '', '%2e%2e', '%2F', '%00', '%', '%zz', '%E0%A4%A', '%C0%AF', '~', 'items', '12', '-1', '99999999999999999999', 'files', 'css', 'health') },
  { weight: 1, arbitrary: fc.tuple(fc.integer({ min: 500, max: 8000 }), rawPathChar).map(([length, char]) => char.repeat(length)) },
);

const path = fc
  .tuple(fc.array(segment, { minLength: 0, maxLength: 6 }), fc.option(fc.string({ unit: rawPathChar, maxLength: 40 }), { nil: undefined }))
  .map(([segments, query]) => {
    const joined = `/${segments.join('/')}`.slice(0, 9000);
    return query === undefined ? joined : `${joined}?${query}`;
  });

/** Header values Node's client sends: tab, printable ASCII, and bytes 0x80-0xff. */
const headerChar = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)) },
  { weight: 1, arbitrary: fc.constantFrom('\t', 'é', '\u00ff', '\u0080') },
);
const headerValue = fc.oneof(
  fc.string({ unit: headerChar, maxLength: 60 }),
  fc.constantFrom('', ' ', 'application/json', 'text/html', 'true', '*/*', 'Bearer x', '[::1]', 'a b', '[', 'bytes=0-1', 'bytes=9-1,x', 'W/"x"', '0', 'for=unknown', 'fw_session=Fe26.2**x', 'x'.repeat(1500)),
);
const headerName = fc.constantFrom(
  'host',
  'accept',
  'accept-language',
  'accept-encoding',
  'cookie',
  'referer',
  'origin',
  'x-request-id',
  'x-forwarded-for',
  'forwarded',
  'x-http-method-override',
  'authorization',
  'hx-request',
  'hx-target',
  'hx-current-url',
  'if-none-match',
  'if-modified-since',
  'range',
  'user-agent',
  'x-csrf-token',
);
const headers = fc.dictionary(headerName, headerValue, { maxKeys: 5 });

/** llhttp's methods, unusual ones included (CONNECT is left to the raw-socket test). */
const method = fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'PROPFIND', 'PROPPATCH', 'MKCOL', 'COPY', 'MOVE', 'LOCK', 'UNLOCK', 'SEARCH', 'REPORT', 'PURGE');

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A body and a Content-Type that often disagree with each other. */
const body = fc.oneof(
  fc.constant({ contentType: null, body: null }),
  fc.string({ maxLength: 200 }).map((text) => ({ contentType: 'application/json', body: utf8(`{${text}`) })),
  fc.json({ maxDepth: 3 }).map((text) => ({ contentType: 'application/json; charset=utf-8', body: utf8(text) })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ contentType: 'multipart/form-data', body: bytes })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ contentType: 'multipart/form-data; boundary=----fw', body: bytes })),
  fc.uint8Array({ maxLength: 300 }).map((bytes) => ({ contentType: 'application/x-www-form-urlencoded', body: bytes })),
  fc
    .tuple(fc.constantFrom('PUT', 'DELETE', 'PATCH', 'GET', 'HEAD', 'propfind', ''), fc.string({ maxLength: 20 }))
    .map(([override, rest]) => ({ contentType: 'application/x-www-form-urlencoded', body: utf8(`_method=${override}&${rest}`) })),
  fc
    .tuple(fc.constantFrom('application/x-unknown', 'text/plain', 'application/octet-stream', 'image/png', 'foo', 'application/json-patch+json', ';;;', 'multipart/mixed'), fc.uint8Array({ maxLength: 200 }))
    .map(([contentType, bytes]) => ({ contentType, body: bytes })),
  fc.uint8Array({ minLength: 1, maxLength: 200 }).map((bytes) => ({ contentType: null, body: bytes })),
);

const badRequest = fc.record({ method, path, headers, body });

// ---- Raw sockets -----------------------------------------------------------------------------

/** Writes `text` on a fresh connection and reads until the server closes it or 3 s pass. */
function rawExchange(port: number, text: string): Promise<{ head: string; closed: boolean }> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    let done = false;
    const finish = (closed: boolean) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      socket.destroy();
      resolve({ head: data.split('\r\n\r\n')[0] ?? '', closed });
    };
    const timer = setTimeout(() => finish(false), 3000);
    socket.on('data', (chunk: Buffer) => {
      data += chunk.toString('latin1');
      // A whole answer head is enough: keep-alive connections are not waited out.
      if (data.includes('\r\n\r\n')) finish(false);
    });
    socket.on('close', () => finish(true));
    socket.on('error', () => finish(true));
    socket.write(text);
  });
}

const dir = useTempDir('fw-bad-input-');

describe('random and malformed requests', () => {
  let app: TestApp;
  let server: TestServer;
  let base: URL;

  beforeAll(async () => {
    mkdirSync(join(dir(), 'public', 'css'), { recursive: true });
    writeFileSync(join(dir(), 'public', 'css', 'app.css'), 'body {}\n');
    mkdirSync(join(dir(), 'resources', 'views'), { recursive: true });
    app = TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, UPLOAD_MAX_SIZE: '64KB' }, root: dir(), build: targetApp });
    server = await app.serve();
    base = new URL(server.url);
  });
  afterAll(async () => {
    agent.destroy();
    await server.stop();
  });

  it('answers every random request below 500, with nosniff, and stays up', async () => {
    let reached = 0;
    let refused = 0;
    await fc.assert(
      fc.asyncProperty(badRequest, async (input) => {
        const requestHeaders: Record<string, string> = { ...input.headers };
        if (input.body.contentType !== null) requestHeaders['content-type'] = input.body.contentType;
        // Node's client frames a GET, HEAD, DELETE, OPTIONS or TRACE body only with an explicit length.
        if (input.body.body !== null) requestHeaders['content-length'] = String(input.body.body.length);
        let answer: Answer;
        try {
          answer = await send(base, input.method, input.path, requestHeaders, input.body.body);
        } catch (error) {
          if (error instanceof Unsendable) return; // Node's client refuses to send it: nothing to test
          throw error;
        }
        if (refusedByParser(answer)) {
          refused += 1;
          return;
        }
        reached += 1;
        expect(answer.status, `${input.method} ${input.path.slice(0, 120)}`).toBeGreaterThanOrEqual(200);
        expect(answer.status, `${input.method} ${input.path.slice(0, 120)}`).toBeLessThan(500);
        expect(answer.headers['x-content-type-options']).toBe('nosniff');
      }),
      { numRuns: 150 },
    );
    // Most requests must get past Node's parser, or the property tests little of the app.
    expect(reached).toBeGreaterThan(100);
    expect(reached + refused).toBeGreaterThan(140);
    const health = await server.client().get('/health');
    expect(health.status).toBe(200);
    expect(app.logs.filter((line) => line.level === 'error' || line.level === 'fatal')).toEqual([]);
  });

  it('answers a Host header that is not a host with 400', async () => {
    for (const host of ['a b', '[', 'x:99999', 'exa mple.test:80']) {
      const response = await server.client().get('/page', { headers: { host } });
      expect(response.status, host).toBe(400);
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    }
    expect((await server.client().get('/health', { headers: { host: 'a b' } })).status).toBe(200);
  });

  it('ignores a Range it cannot serve, and serves a file in parts', async () => {
    for (const [path, range] of [
      ['/page', 'garbage'],
      ['/page', 'bytes=999999-'],
      ['/page', 'bytes=9-1'],
      ['/health', 'bytes=999999-'],
      ['/robots.txt', 'bytes=999999-'],
      ['/css/app.css', 'bytes=999999-'],
      ['/css/app.css', 'bytes=-0'],
      ['/css/app.css', 'lines=1-2'],
    ] as const) {
      const response = await server.client().get(path, { headers: { range } });
      expect(response.status, `${path} ${range}`).toBe(200);
      expect(response.headers.get('x-content-type-options'), `${path} ${range}`).toBe('nosniff');
    }
    const part = await server.client().get('/css/app.css', { headers: { range: 'bytes=0-3' } });
    expect(part.status).toBe(206);
    expect(part.text).toBe('body');
    expect(part.headers.get('content-range')).toBe('bytes 0-3/8');
    expect(part.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it.each([
    ['an unknown HTTP version', 'GET / HTTP/9.9\r\nHost: x\r\n\r\n'],
    ['HTTP/1.2', 'GET / HTTP/1.2\r\nHost: x\r\n\r\n'],
    ['a header line without a colon', 'GET / HTTP/1.1\r\nHost: x\r\nNoColonHere\r\n\r\n'],
    ['a 20 KB header', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20 * 1024)}\r\n\r\n`],
    ['a 20 KB request line', `GET /${'a'.repeat(20 * 1024)} HTTP/1.1\r\nHost: x\r\n\r\n`],
    ['an unknown method', 'BREW /pot HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['CONNECT', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
    ['a control character in the path', 'GET /a\x01b HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a space in the path', 'GET /a b HTTP/1.1\r\nHost: x\r\n\r\n'],
    ['a NUL in a header value', 'GET / HTTP/1.1\r\nHost: x\r\nX-A: a\x00b\r\n\r\n'],
    ['both Content-Length and Transfer-Encoding', 'POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['a Content-Length that is not a number', 'POST /items HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n'],
    ['bare LF line endings', 'GET / HTTP/1.1\nHost: x\n\n'],
    ['no Host header', 'GET / HTTP/1.1\r\n\r\n'],
    ['a Host that is not a host', 'GET /page HTTP/1.1\r\nHost: a b\r\nConnection: close\r\n\r\n'],
    ['an absolute URI with a broken host', 'GET http://[/ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
    ['an asterisk target', 'OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'],
  ])('answers %s with a 4xx or a closed connection', async (_name, request) => {
    const answer = await rawExchange(Number(base.port), request);
    const status = /^HTTP\/1\.[01] (\d{3})/u.exec(answer.head)?.[1];
    if (status === undefined) {
      expect(answer.head).toBe('');
      expect(answer.closed).toBe(true);
    } else {
      expect(Number(status)).toBeGreaterThanOrEqual(400);
      expect(Number(status)).toBeLessThan(500);
    }
    expect((await server.client().get('/health')).status).toBe(200);
  });
});
