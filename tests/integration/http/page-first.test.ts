/**
 * Plain page GETs are answered before hapi's request lifecycle (adapters/http/hapi/page-first.ts);
 * what needs hapi's writing (compression, other statuses, errors) is handed to hapi with the
 * page already made. Either way the visitor gets what hapi alone gave: the security headers
 * with the nonce the page was rendered with, the request id, the session cookie, hapi's
 * defaults, the access-log line, and an answer in flight that a stop lets finish.
 */
import { request as httpRequest } from 'node:http';
import { connect } from 'node:net';
import { gunzipSync, inflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Header, Routes, View, combine, html, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-page-first-');

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

function get(url: string, headers: Record<string, string> = {}): Promise<Raw> {
  return new Promise((resolve, reject) => {
    httpRequest(url, { headers }, (incoming) => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.on('end', () => resolve({ status: incoming.statusCode ?? 0, headers: incoming.headers, body: Buffer.concat(chunks) }));
      incoming.on('error', reject);
    })
      .on('error', reject)
      .end();
  });
}

/** What the server sends back on one connection for `text`, written at once, until it closes or `waitMs` pass. */
function exchange(url: string, text: string, waitMs = 1000): Promise<string> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    const socket = connect(Number(port), hostname, () => socket.write(text));
    const done = (): void => {
      clearTimeout(timer);
      socket.destroy();
      resolve(Buffer.concat(chunks).toString('latin1'));
    };
    const timer = setTimeout(done, waitMs);
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('close', done);
    socket.on('error', done);
  });
}

function nonceOf(raw: Raw): string {
  return /'nonce-([^']+)'/u.exec(String(raw.headers['content-security-policy']))?.[1] ?? 'no nonce in the policy';
}

describe('page GETs answered before hapi', () => {
  let app: TestApp;
  let server: TestServer;
  let releaseWait: () => void = () => undefined;
  let waiting: Promise<void> = Promise.resolve();
  let releaseGone: () => void = () => undefined;
  const goneWait = new Promise<void>((resolve) => {
    releaseGone = resolve;
  });

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'page-first',
          routes: new Routes()
            .get('/page', () => View.make('fw/home.html'))
            .get('/small', () => json({ small: true }))
            .get('/cookie', () => combine(html('<p>cookie</p>'), Header.make('Set-Cookie', 'app_cookie=1; Path=/')))
            .get('/gone', async () => {
              await goneWait;
              return json({ late: true });
            })
            .get('/wait', async () => {
              await waiting;
              return json({ waited: true });
            }),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('sends a page with the security headers of its own nonce, the request id, the session cookie and hapi defaults, and logs it', async () => {
    const page = await get(`${server.url}/page`);
    expect(page.status).toBe(200);
    const nonce = nonceOf(page);
    expect(page.body.toString()).toContain(`nonce="${nonce}"`);
    expect(page.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/u);
    expect(page.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers['accept-ranges']).toBe('bytes');
    expect(page.headers['content-length']).toBe(String(page.body.length));
    expect(page.body.length).toBeGreaterThanOrEqual(1024);
    expect(String(page.headers['vary'])).toMatch(/accept-encoding/u);
    expect(String(page.headers['set-cookie'])).toMatch(/^fw_session=Fe26\.2\*/u);
    expect(app.logs.some((line) => line.message === 'request' && line.fields['path'] === '/page' && line.fields['status'] === 200 && line.fields['requestId'] === page.headers['x-request-id'])).toBe(true);
  });

  it('sends a small answer without the compression Vary, as hapi does', async () => {
    const small = await get(`${server.url}/small`, { 'accept-encoding': 'gzip' });
    expect(small.status).toBe(200);
    expect(JSON.parse(small.body.toString())).toEqual({ small: true });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(String(small.headers['vary'] ?? '')).not.toMatch(/accept-encoding/u);
    expect(small.headers['x-request-id']).toMatch(/^[0-9a-f]{32}$/u);
  });

  // gzip as a browser asks for it is done before hapi; weighted choices and deflate by hapi,
  // with the nonce and request id the page was made with.
  it.each([
    ['gzip, deflate, br', 'gzip'],
    ['gzip;q=0.5, deflate', 'deflate'],
    ['deflate', 'deflate'],
  ])('compresses a page for Accept-Encoding: %s with %s', async (accept, encoding) => {
    const page = await get(`${server.url}/page`, { 'accept-encoding': accept });
    expect(page.status).toBe(200);
    expect(page.headers['content-encoding']).toBe(encoding);
    expect(String(page.headers['vary'])).toMatch(/accept-encoding/u);
    expect(page.headers['accept-ranges']).toBeUndefined();
    const body = (encoding === 'gzip' ? gunzipSync(page.body) : inflateSync(page.body)).toString();
    expect(body).toContain(`nonce="${nonceOf(page)}"`);
    expect(app.logs.filter((line) => line.message === 'request' && line.fields['requestId'] === page.headers['x-request-id'])).toHaveLength(1);
  });

  it('sends a page as it is to a client that takes no gzip or deflate', async () => {
    const page = await get(`${server.url}/page`, { 'accept-encoding': 'br' });
    expect(page.headers['content-encoding']).toBeUndefined();
    expect(page.body.toString()).toContain(`nonce="${nonceOf(page)}"`);
  });

  // hapi's clientError listener ends the request it keeps for the socket with `_reply`: a page in
  // flight there once crashed the process (a TypeError in an event listener).
  it.each([
    ['a malformed header line', 'Bad Header Line\r\n'],
    ['headers past the size limit', `X-Big: ${'a'.repeat(20000)}\r\n`],
  ])('answers a page followed on its connection by a request with %s with hapi\'s 400, and keeps running', async (_, line) => {
    const plain = 'GET /small HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n';
    const answer = await exchange(server.url, `${plain}GET /small HTTP/1.1\r\nHost: 127.0.0.1\r\n${line}\r\n`);
    expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/u);
    expect(answer).toMatch(/\r\nx-request-id: [0-9a-f]{32}\r\n/u);
    // The same as hapi gives when it has the first request itself (a conditional header sends it to hapi).
    const viaHapi = await exchange(server.url, `${plain.replace('\r\n\r\n', '\r\nIf-Modified-Since: x\r\n\r\n')}GET /small HTTP/1.1\r\nHost: 127.0.0.1\r\n${line}\r\n`);
    const statusAndNames = (raw: string): string[] => raw.split('\r\n\r\n')[0]!.split('\r\n').map((header) => header.replace(/:.*/u, ''));
    expect(statusAndNames(answer)).toEqual(statusAndNames(viaHapi));
    const after = await get(`${server.url}/small`);
    expect(after.status).toBe(200);
  });

  it('sends a Set-Cookie header of the app besides the session cookie, in the order hapi does', async () => {
    const page = await get(`${server.url}/cookie`);
    expect(page.status).toBe(200);
    const cookies = page.headers['set-cookie'] ?? [];
    expect(cookies).toHaveLength(2);
    expect(cookies[0]).toBe('app_cookie=1; Path=/');
    expect(cookies[1]).toMatch(/^fw_session=Fe26\.2\*/u);
  });

  it("logs hapi's 499 for a page whose client went away before it was written", async () => {
    await exchange(server.url, 'GET /gone HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n', 200);
    // The server has seen the connection close before the page is ready.
    await new Promise((resolve) => setTimeout(resolve, 200));
    releaseGone();
    await new Promise((resolve) => setTimeout(resolve, 200));
    const lines = app.logs.filter((line) => line.message === 'request' && line.fields['path'] === '/gone');
    expect(lines.map((line) => line.fields['status'])).toEqual([499]);
  });

  it('still sends a compressed page when the access log throws', async () => {
    const push = app.logs.push.bind(app.logs);
    app.logs.push = (...lines) => {
      if (lines.some((line) => line.message === 'request')) throw new Error('the log is down');
      return push(...lines);
    };
    try {
      const page = await get(`${server.url}/page`, { 'accept-encoding': 'gzip' });
      expect(page.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(page.body).toString()).toContain(`nonce="${nonceOf(page)}"`);
      // An uncaught exception from gzip's callback would fail the run around here.
      await new Promise((resolve) => setTimeout(resolve, 100));
    } finally {
      app.logs.push = push;
    }
  });

  it('lets an answer in flight finish when the server stops', async () => {
    waiting = new Promise((resolve) => {
      releaseWait = resolve;
    });
    const answer = get(`${server.url}/wait`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    const stopped = server.stop();
    await new Promise((resolve) => setTimeout(resolve, 100));
    releaseWait();
    const response = await answer;
    await stopped;
    expect(response.status).toBe(200);
    expect(JSON.parse(response.body.toString())).toEqual({ waited: true });
  });
});
