import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, View, json, text } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
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
