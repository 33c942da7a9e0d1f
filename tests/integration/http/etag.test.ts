import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, View, json, text } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestResponse, TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-etag-');

describe('.etag()', () => {
  let server: TestServer;
  let version = 1;

  beforeAll(async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'etag',
          routes: new Routes()
            .get('/page', () => View.make('fw/home.html'))
            .get('/data', () => json({ version }))
            .get('/huge', () => text('x'.repeat(2 * 1024 * 1024 + 1)))
            .post('/data', () => json({ version }))
            .etag()
            .get('/plain', () => json({ version })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  // One visitor: the page carries the session's CSRF token, so another visitor's page differs.
  it('gives a page one ETag although every answer has a fresh CSP nonce, and 304 when it matches', async () => {
    const visitor = server.client();
    const first = await visitor.get('/page');
    const second = await visitor.get('/page');
    const etag = first.headers.get('etag');
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/u);
    expect(first.headers.get('content-security-policy')).not.toBe(second.headers.get('content-security-policy'));
    expect(second.headers.get('etag')).toBe(etag);

    const cached = await visitor.get('/page', { headers: { 'if-none-match': etag ?? '' } });
    expect(cached.status).toBe(304);
    expect(cached.text).toBe('');
    expect(cached.headers.get('etag')).toBe(etag);
    expect(cached.headers.get('content-security-policy')).toBeNull();
    expect(cached.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('changes the ETag with the body, and matches weak and listed tags', async () => {
    const before = (await server.client().get('/data')).headers.get('etag') ?? '';
    version = 2;
    const after = (await server.client().get('/data')).headers.get('etag') ?? '';
    expect(after).not.toBe(before);
    expect((await server.client().get('/data', { headers: { 'if-none-match': before } })).status).toBe(200);
    expect((await server.client().get('/data', { headers: { 'if-none-match': `"other", W/${after}` } })).status).toBe(304);
  });

  it('leaves out POST answers, bodies over 2 MB, errors and routes not under .etag()', async () => {
    expect((await server.client().post('/data')).headers.get('etag')).toBeNull();
    expect((await server.client().get('/huge')).headers.get('etag')).toBeNull();
    expect((await server.client().get('/nope')).headers.get('etag')).toBeNull();
    expect((await server.client().get('/plain')).headers.get('etag')).toBeNull();
  });
});

/**
 * A page that prints `csp_nonce()` (an inline script and style, as `fw_head()` and the UI kit
 * do): its body differs on every request, yet it must keep one ETag, and a 304 must never pair
 * a browser's cached body (holding an old nonce) with a new nonce in a fresh CSP header.
 */
describe('.etag() on a page that prints csp_nonce()', () => {
  let server: TestServer;
  let version = 1;

  beforeAll(async () => {
    mkdirSync(join(dir(), 'nonce', 'resources', 'views'), { recursive: true });
    writeFileSync(
      join(dir(), 'nonce', 'resources', 'views', 'nonce.html'),
      [
        '<!doctype html><html><head>',
        '<style nonce="{{ csp_nonce() }}">p { color: teal; }</style>',
        '</head><body><p>version {{ version }}</p>',
        '<script nonce="{{ csp_nonce() }}">document.body.dataset.ready = "1";</script>',
        '</body></html>',
      ].join('\n'),
    );
    const app = TestApp.create({
      root: join(dir(), 'nonce'),
      environment: { DATABASE_URL: `sqlite:${dir()}/nonce.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'etag-nonce',
          routes: new Routes().get('/nonce-page', () => View.make('nonce.html', { version })).etag(),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  /** The nonces the body prints, and the one its CSP header allows scripts with. */
  function nonces(page: TestResponse): { printed: string[]; allowed: string | null } {
    const printed = [...page.text.matchAll(/nonce="([^"]+)"/gu)].map((match) => match[1] ?? '');
    const allowed = /script-src [^;]*'nonce-([^']+)'/u.exec(page.headers.get('content-security-policy') ?? '')?.[1] ?? null;
    return { printed, allowed };
  }

  it('prints a fresh nonce on each answer, the one its own CSP header allows, under one ETag', async () => {
    const visitor = server.client();
    const first = await visitor.get('/nonce-page');
    const second = await visitor.get('/nonce-page');
    for (const page of [first, second]) {
      expect(page.status).toBe(200);
      const { printed, allowed } = nonces(page);
      expect(printed).toHaveLength(2);
      expect(allowed).toMatch(/^[A-Za-z0-9+/_=-]{16,}$/u);
      expect(printed).toEqual([allowed, allowed]);
    }
    expect(nonces(first).allowed).not.toBe(nonces(second).allowed);
    expect(first.headers.get('etag')).toMatch(/^"[A-Za-z0-9_-]{22}"$/u);
    expect(second.headers.get('etag')).toBe(first.headers.get('etag'));
  });

  it('answers a matching If-None-Match with 304, no body and no CSP header, so the cached page keeps its own nonce', async () => {
    const visitor = server.client();
    const cachedPage = await visitor.get('/nonce-page');
    const etag = cachedPage.headers.get('etag') ?? '';
    const revalidated = await visitor.get('/nonce-page', { headers: { 'if-none-match': etag } });
    expect(revalidated.status).toBe(304);
    expect(revalidated.text).toBe('');
    expect(revalidated.headers.get('etag')).toBe(etag);
    // A CSP header on a 304 replaces the cached one: its new nonce would block the cached body's scripts.
    expect(revalidated.headers.get('content-security-policy')).toBeNull();
  });

  it('sends the whole page with a fresh nonce once the page changed, never the cached one', async () => {
    const visitor = server.client();
    const before = await visitor.get('/nonce-page');
    const stale = before.headers.get('etag') ?? '';
    version += 1;
    const changed = await visitor.get('/nonce-page', { headers: { 'if-none-match': stale } });
    expect(changed.status).toBe(200);
    expect(changed.text).toContain(`version ${version}`);
    expect(changed.headers.get('etag')).not.toBe(stale);
    const { printed, allowed } = nonces(changed);
    expect(printed).toEqual([allowed, allowed]);
    expect(allowed).not.toBe(nonces(before).allowed);
  });
});
