/**
 * `app.fetch(request)` called directly, without a socket: what a Hono-style host or a test
 * does. (Spec 001's tables run on this transport over node:http in spec-001-tables.fetch.test.ts.)
 */
import { Readable } from 'node:stream';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, Routes } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import { kernelTestApp } from './kernel-app.js';

describe('app.fetch', () => {
  let app: TestApp;
  const fetch = (path: string, init?: RequestInit, remoteAddress?: string): Promise<Response> =>
    app.app.fetch(new Request(new URL(path, 'http://localhost'), init), remoteAddress === undefined ? undefined : { remoteAddress });

  beforeAll(() => {
    app = TestApp.create({ build: kernelTestApp });
  });
  afterAll(() => app.close());

  it('refuses a compressed body that inflates past UPLOAD_MAX_SIZE, without inflating it all (a gzip bomb)', async () => {
    // 64 MB of zeros gzip to about 64 KB: under the limit as sent, far over it once inflated.
    const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024));
    expect(bomb.length).toBeLessThan(200_000);
    const answer = await fetch('/json', { method: 'POST', body: bomb, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' } });
    expect(answer.status).toBe(413);
    const form = await fetch('/json', { method: 'POST', body: gzipSync(Buffer.from(`a=${'x'.repeat(3 * 1024 * 1024)}`)), headers: { 'content-type': 'application/x-www-form-urlencoded', 'content-encoding': 'gzip' } });
    expect(form.status).toBe(400);
    expect(await form.text()).toContain('The form is too large.');
  });

  it('answers /health with the security headers and a request id', async () => {
    const response = await fetch('/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('content-security-policy')).toContain("'nonce-");
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/u);
  });

  it('runs the app routes through the kernel: parameters, JSON bodies, the client address', async () => {
    expect(await (await fetch('/items/42')).json()).toEqual({ id: 42 });
    expect((await fetch('/items/x')).status).toBe(404);
    expect(await (await fetch('/ip', undefined, '127.0.0.9')).json()).toEqual({ ip: '127.0.0.9' });
    expect(await (await fetch('/ip')).json()).toEqual({ ip: null });
  });

  it('opens a session with a sealed cookie and refuses a form post without its CSRF token (419)', async () => {
    const page = await fetch('/page');
    expect(page.status).toBe(200);
    const cookies = page.headers.getSetCookie();
    expect(cookies.some((line) => /^fw_session=[^;]+; .*HttpOnly; SameSite=Lax; Path=\//u.test(line))).toBe(true);
    const html = await page.text();
    const token = /<meta name="csrf-token" content="([^"]+)"/u.exec(html)?.[1];
    expect(token).toBeDefined();
    const cookie = cookies.map((line) => line.split(';')[0]).join('; ');
    const post = (headers: Record<string, string>) =>
      fetch('/json', { method: 'POST', body: JSON.stringify({ a: 1 }), headers: { 'content-type': 'application/json', accept: 'application/json', cookie, ...headers } });
    expect((await post({})).status).toBe(419);
    const accepted = await post({ 'x-csrf-token': token ?? '' });
    expect([accepted.status, await accepted.json()]).toEqual([200, { received: { a: 1 } }]);
  });

  it('answers HEAD without a body, and a body that is not JSON with 400', async () => {
    const head = await fetch('/items/7', { method: 'HEAD' });
    expect([head.status, await head.text()]).toEqual([200, '']);
    const broken = await fetch('/json', { method: 'POST', body: '{', headers: { 'content-type': 'application/json', accept: 'application/json' } });
    expect([broken.status, await broken.json()]).toEqual([400, { message: 'Invalid request payload JSON format' }]);
  });

  it("answers a conditional GET for a public/ file (the framework's fw/fw.css) with 304, an unconditional one with the file", async () => {
    const first = await fetch('/fw/fw.css');
    const etag = first.headers.get('etag') ?? '';
    const modified = first.headers.get('last-modified') ?? '';
    expect(first.status).toBe(200);
    expect(etag).toMatch(/^"[0-9a-f]+-[0-9a-f]+"$/u);
    expect((await first.text()).length).toBeGreaterThan(0);
    const again = await fetch('/fw/fw.css', { headers: { 'if-none-match': etag } });
    expect([again.status, await again.text(), again.headers.get('content-length'), again.headers.get('etag'), again.headers.get('last-modified')]).toEqual([304, '', null, etag, modified]);
    expect((await fetch('/fw/fw.css', { headers: { 'if-modified-since': modified } })).status).toBe(304);
    expect((await fetch('/fw/fw.css', { headers: { 'if-none-match': '"other"', 'if-modified-since': modified } })).status).toBe(200);
    // RFC 9110 §13.1.2: `*` matches any current file (hapi's own check compares it as a tag: 200 there).
    expect((await fetch('/fw/fw.css', { headers: { 'if-none-match': '*' } })).status).toBe(304);
    expect((await fetch('/fw/fw.css', { method: 'POST', headers: { 'if-none-match': etag } })).status).not.toBe(304);
  });
});

describe('app.fetch answering HEAD with a stream', () => {
  it('closes the stream a reply opened instead of leaving it open (a stored object, Download.stream)', async () => {
    const opened: Readable[] = [];
    const app = TestApp.create({
      build: (options) =>
        createDefaultApp(options).module({
          name: 'head-stream',
          routes: new Routes().get('/stream', () => {
            const stream = Readable.from(['bytes']);
            opened.push(stream);
            return Download.stream(stream, 'a.txt', 'text/plain');
          }),
        }),
    });
    try {
      const head = await app.app.fetch(new Request('http://localhost/stream', { method: 'HEAD' }));
      expect([head.status, await head.text()]).toEqual([200, '']);
      expect(opened.map((stream) => stream.destroyed)).toEqual([true]);
      const get = await app.app.fetch(new Request('http://localhost/stream'));
      expect([get.status, await get.text()]).toEqual([200, 'bytes']);
    } finally {
      await app.close();
    }
  });
});
