import { randomBytes } from 'node:crypto';
import { mkdirSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, Routes, TOKENS, View, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { startS3Server } from '../../support/s3-server.js';
import type { S3TestServer } from '../../support/s3-server.js';
import { signPath } from '../../../domain/http/signed-urls/signed-url.js';
import { deriveAppKeys } from '../../../domain/security/app-keys.js';

const dir = useTempDir('fw-storage-http-');

/** The path and query of an absolute link, opened on the test server (APP_URL names port 0 in tests). */
function onServer(server: TestServer, link: string): string {
  const url = new URL(link);
  return `${server.url}${url.pathname}${url.search}`;
}

// Both transports serve the storage routes from the same decisions (adapters/http/storage/storage-serving.ts).
describe.each(['hapi', 'fetch'] as const)('storage over a real socket (%s transport): public files, storage_url, temporary links, Download.fromStorage', (transport) => {
  const appKey = randomBytes(32);
  /** A link to `path` signed with the app's key, expiring at `expiresAt` (epoch seconds). */
  const signed = (path: string, expiresAt = Math.floor(Date.now() / 1000) + 60): string => signPath(path, { expiresAt, key: deriveAppKeys(appKey).signedUrls });
  let server: TestServer;
  let testApp: TestApp;
  let s3: S3TestServer;
  let root = '';

  beforeAll(async () => {
    root = dir();
    s3 = await startS3Server();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'avatar.html'), '<img src="{{ storage_url(key) }}"><a href="{{ storage_url(key, \'s3\') }}">cdn</a>');
    testApp = TestApp.create({
      root,
      environment: {
        DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`,
        APP_KEY: `base64:${appKey.toString('base64')}`,
        HTTP_TRANSPORT: transport,
        S3_BUCKET: s3.bucket,
        S3_ENDPOINT: s3.endpoint,
        S3_ACCESS_KEY_ID: s3.accessKeyId,
        S3_SECRET_ACCESS_KEY: s3.secretAccessKey,
        S3_URL: 'https://cdn.example.com/files',
      },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'storage-test',
          routes: new Routes()
            .get('/put/{disk}', async (ctx) => {
              const disk = ctx.service(TOKENS.storage).disk(ctx.params.string('disk'));
              await disk.put('reports/Bericht März.txt', 'figures of march', { contentType: 'text/plain' });
              await disk.put('avatars/a b.txt', 'avatar bytes');
              await disk.put('pages/evil.html', '<script>alert(1)</script>');
              await disk.put('pages/evil.svg', '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
              if (disk.name === 'local') await disk.put('secret/only-local.txt', 'private');
              return json({ ok: true });
            })
            .get('/reports/{disk}/{name}', (ctx) => Download.fromStorage(ctx.service(TOKENS.storage).disk(ctx.params.string('disk')), `reports/${ctx.params.string('name')}`))
            .get('/default/{name}', (ctx) => Download.fromStorage(ctx.service(TOKENS.storage), `reports/${ctx.params.string('name')}`, { filename: 'chosen.txt', contentType: 'text/plain' }).then((download) => download.inline()))
            .get('/link/{disk}', async (ctx) => json({ url: await ctx.service(TOKENS.storage).disk(ctx.params.string('disk')).temporaryUrl('reports/Bericht März.txt', 60) }))
            .get('/avatar', () => View.make('avatar.html', { key: 'avatars/a b.txt' })),
        }),
    });
    server = await testApp.serve();
    for (const disk of ['local', 'public', 's3']) expect((await server.client().get(`/put/${disk}`)).status).toBe(200);
    // A hidden file in the public disk's folder (a write in progress is one): never served.
    writeFileSync(join(root, 'storage', 'app', 'public', 'avatars', '.hidden'), 'hidden bytes');
  });
  afterAll(async () => {
    await server.stop();
    await s3.close();
  });

  it('serves the local public disk under /storage, with its own type and a revalidating cache', async () => {
    const response = await server.client().get('/storage/avatars/a%20b.txt');
    expect([response.status, response.text]).toEqual([200, 'avatar bytes']);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/u);
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('downloads an HTML file from the public disk instead of showing it on the site (stored XSS)', async () => {
    const response = await server.client().get('/storage/pages/evil.html');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toBe('attachment');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('downloads an SVG file from the public disk too, with its bytes and type', async () => {
    const response = await server.client().get('/storage/pages/evil.svg');
    expect([response.status, response.text]).toEqual([200, '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>']);
    expect(response.headers.get('content-type')).toMatch(/^image\/svg\+xml/u);
    expect(response.headers.get('content-disposition')).toBe('attachment');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('answers a byte range of a public disk file with 206 and those bytes', async () => {
    const response = await server.client().get('/storage/avatars/a%20b.txt', { headers: { range: 'bytes=7-11' } });
    expect([response.status, response.text]).toEqual([206, 'bytes']);
    expect(response.headers.get('content-range')).toBe('bytes 7-11/12');
    expect(response.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
    // A range past the end gets the whole file, not a 416 without the framework's headers.
    const past = await server.client().get('/storage/avatars/a%20b.txt', { headers: { range: 'bytes=500-' } });
    expect([past.status, past.text]).toEqual([200, 'avatar bytes']);
  });

  it('never serves a hidden file of the public disk', async () => {
    const response = await server.client().get('/storage/avatars/.hidden');
    expect(response.status).toBe(404);
    expect(response.text).not.toContain('hidden bytes');
  });

  it.each(['/storage/../db.sqlite', '/storage/%2e%2e/db.sqlite', '/storage/..%2fdb.sqlite', '/storage/reports', '/storage/nope.txt', '/storage/avatars/.hidden'])(
    'the public disk answers 404 for %s, never a file outside it',
    async (path) => {
      const response = await server.client().get(path);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('figures');
    },
  );

  it.each(['/storage/a%ZZ.txt', '/storage/%E0%A4%A', '/_fw/storage/local/a%ZZ.txt'])('a storage path with a malformed escape (%s) is a bad request', async (path) => {
    expect((await fetch(`${server.url}${path}`)).status).toBe(400);
  });

  it('the local private disk is not served under /storage', async () => {
    expect((await server.client().get('/storage/secret/only-local.txt')).status).toBe(404);
  });

  it('storage_url(key) is the public disk URL, storage_url(key, disk) the named one', async () => {
    const page = await server.client().get('/avatar');
    expect(page.text).toContain('<img src="/storage/avatars/a%20b.txt">');
    expect(page.text).toContain('href="https://cdn.example.com/files/avatars/a%20b.txt"');
  });

  it('Download.fromStorage streams a stored file with a safe filename, from each disk', async () => {
    for (const disk of ['local', 'public', 's3']) {
      const response = await server.client().get(`/reports/${disk}/Bericht%20M%C3%A4rz.txt`);
      expect([disk, response.status, response.text]).toEqual([disk, 200, 'figures of march']);
      expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Bericht M_rz.txt"; filename*=UTF-8''Bericht%20M%C3%A4rz.txt`);
    }
  });

  it('Download.fromStorage(storage, key) reads the default disk (FILESYSTEM_DISK), with a chosen name and type', async () => {
    const response = await server.client().get('/default/Bericht%20M%C3%A4rz.txt');
    expect([response.status, response.text, response.headers.get('content-type')]).toEqual([200, 'figures of march', 'text/plain; charset=utf-8']);
    expect(response.headers.get('content-disposition')).toBe(`inline; filename="chosen.txt"; filename*=UTF-8''chosen.txt`);
    expect((await server.client().get('/default/nope.txt')).status).toBe(404);
  });

  it('Download.fromStorage answers 404 for a missing key, and for a key that would leave the disk', async () => {
    for (const disk of ['local', 's3']) {
      expect((await server.client().get(`/reports/${disk}/nope.txt`)).status).toBe(404);
      expect((await server.client().get(`/reports/${disk}/..%2F..%2Fdb.sqlite`)).status).toBe(404);
    }
  });

  it('a local temporary link is a signed URL served by the framework; altered or expired-looking ones get 403', async () => {
    const { url } = (await server.client().get('/link/local')).json<{ url: string }>();
    expect(url).toMatch(/\/_fw\/storage\/local\/reports\/Bericht%20M%C3%A4rz\.txt\?expires=\d+&signature=[0-9a-f]{64}$/u);
    const opened = await fetch(onServer(server, url));
    expect([opened.status, await opened.text()]).toEqual([200, 'figures of march']);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(opened.headers.get('content-disposition')).toContain('filename*=UTF-8\'\'Bericht%20M%C3%A4rz.txt');
    const tampered = await fetch(onServer(server, url.replace(/expires=(\d+)/u, (_all, at: string) => `expires=${Number(at) + 1000}`)));
    expect(tampered.status).toBe(403);
    expect(await tampered.text()).toContain('This link is invalid or has expired.');
    const otherDisk = await fetch(onServer(server, url.replace('/local/', '/public/')));
    expect(otherDisk.status).toBe(403);
    const unsigned = await fetch(`${server.url}/_fw/storage/local/reports/Bericht%20M%C3%A4rz.txt`);
    expect(unsigned.status).toBe(403);
  });

  it('a temporary link streams the object with its type and length, before sessions', async () => {
    const opened = await fetch(`${server.url}${signed('/_fw/storage/local/reports/Bericht%20M%C3%A4rz.txt')}`);
    expect(opened.status).toBe(200);
    expect(Buffer.from(await opened.arrayBuffer()).toString()).toBe('figures of march');
    // A local disk keeps no type: the object goes as bytes, and as a download.
    expect(opened.headers.get('content-type')).toBe('application/octet-stream');
    expect(opened.headers.get('content-length')).toBe('16');
    expect(opened.headers.get('content-disposition')).toBe(`attachment; filename="Bericht M_rz.txt"; filename*=UTF-8''Bericht%20M%C3%A4rz.txt`);
    expect(opened.headers.get('cache-control')).toBe('private, no-store');
    expect(opened.headers.get('set-cookie')).toBeNull();
  });

  it('answers HEAD on a temporary link and a public disk file with their lengths and no body', async () => {
    const link = await fetch(`${server.url}${signed('/_fw/storage/local/reports/Bericht%20M%C3%A4rz.txt')}`, { method: 'HEAD' });
    expect([link.status, link.headers.get('content-length'), await link.text()]).toEqual([200, '16', '']);
    const file = await fetch(`${server.url}/storage/avatars/a%20b.txt`, { method: 'HEAD' });
    expect([file.status, file.headers.get('content-length'), await file.text()]).toEqual([200, '12', '']);
  });

  it('app.fetch called directly (no request target from a host) serves a temporary link and a public disk file', async () => {
    const opened = await testApp.app.fetch(new Request(`http://localhost${signed('/_fw/storage/local/reports/Bericht%20M%C3%A4rz.txt')}`));
    expect([opened.status, await opened.text(), opened.headers.get('cache-control')]).toEqual([200, 'figures of march', 'private, no-store']);
    const file = await testApp.app.fetch(new Request('http://localhost/storage/pages/evil.html'));
    expect([file.status, await file.text(), file.headers.get('content-disposition')]).toEqual([200, '<script>alert(1)</script>', 'attachment']);
    const missing = await testApp.app.fetch(new Request(`http://localhost${signed('/_fw/storage/nope/reports/x.txt')}`));
    expect(missing.status).toBe(404);
  });

  it('an expired temporary link gets 403', async () => {
    const expired = await fetch(`${server.url}${signed('/_fw/storage/local/reports/Bericht%20M%C3%A4rz.txt', Math.floor(Date.now() / 1000) - 1)}`);
    expect(expired.status).toBe(403);
    const text = await expired.text();
    expect(text).toContain('This link is invalid or has expired.');
    expect(text).not.toContain('figures');
  });

  it.each([
    ['an unknown disk', '/_fw/storage/nope/reports/Bericht%20M%C3%A4rz.txt'],
    ['a key that would leave the disk', '/_fw/storage/local/..%2F..%2Fdb.sqlite'],
    ['a missing object', '/_fw/storage/local/reports/nope.txt'],
    ['no key', '/_fw/storage/local'],
  ])('a signed temporary link to %s gets 404', async (_what, path) => {
    const response = await fetch(`${server.url}${signed(path)}`);
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('figures');
  });

  it('an S3 temporary link is a presigned URL to the bucket', async () => {
    const { url } = (await server.client().get('/link/s3')).json<{ url: string }>();
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/reports/`)).toBe(true);
    expect(url).toContain('X-Amz-Expires=60');
    const opened = await fetch(url);
    expect([opened.status, await opened.text()]).toEqual([200, 'figures of march']);
  });
});

// hapi answers conditional requests for files through @hapi/inert; the fetch transport through
// domain/http/etag.ts (fileNotModified). Their ETags differ (inert hashes the content, the fetch
// transport names size and mtime), so these tests carry a tag from one answer to the next.
describe.each(['hapi', 'fetch'] as const)('conditional requests for files over a real socket (%s transport)', (transport) => {
  let server: TestServer;
  let root = '';

  beforeAll(async () => {
    root = dir();
    mkdirSync(join(root, 'public'), { recursive: true });
    writeFileSync(join(root, 'public', 'app.css'), 'body { color: teal }');
    writeFileSync(join(root, 'public', 'changes.css'), 'first version');
    const testApp = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, HTTP_TRANSPORT: transport },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'conditional-test',
          routes: new Routes()
            .get('/put', async (ctx) => {
              await ctx.service(TOKENS.storage).disk('public').put('avatars/a.txt', 'avatar bytes');
              return json({ ok: true });
            })
            .get('/download', () => Download.file(join(root, 'public', 'app.css'), 'app.css', 'text/css')),
        }),
    });
    server = await testApp.serve();
    expect((await server.client().get('/put')).status).toBe(200);
  });
  afterAll(() => server.stop());

  const get = (path: string, headers: Record<string, string> = {}, method = 'GET') => server.client().request(method, path, { headers, csrf: false });
  /** One second before an HTTP date. */
  const before = (date: string): string => new Date(Date.parse(date) - 1000).toUTCString();

  describe.each([
    ['a public/ file', '/app.css', 'body { color: teal }'],
    ['a public disk file', '/storage/avatars/a.txt', 'avatar bytes'],
  ])('%s', (_kind, path, body) => {
    it('carries a strong ETag and Last-Modified; the same tag back gets 304 with no body', async () => {
      const first = await get(path);
      const etag = first.headers.get('etag') ?? '';
      const modified = first.headers.get('last-modified') ?? '';
      expect([first.status, first.text]).toEqual([200, body]);
      expect(etag).toMatch(/^"[^"]+"$/u);
      expect(Number.isNaN(Date.parse(modified))).toBe(false);
      const again = await get(path, { 'if-none-match': etag });
      expect([again.status, again.text, again.headers.get('content-length')]).toEqual([304, '', null]);
      expect([again.headers.get('etag'), again.headers.get('last-modified'), again.headers.get('cache-control')]).toEqual([etag, modified, first.headers.get('cache-control')]);
      expect((await get(path, { 'if-none-match': etag }, 'HEAD')).status).toBe(304);
    });

    it('matches a tag in a list and a weak tag; another tag gets 200 with the body', async () => {
      const etag = (await get(path)).headers.get('etag') ?? '';
      expect((await get(path, { 'if-none-match': `"other", ${etag}` })).status).toBe(304);
      expect((await get(path, { 'if-none-match': `W/${etag}` })).status).toBe(304);
      const other = await get(path, { 'if-none-match': '"other"' });
      expect([other.status, other.text, other.headers.get('etag')]).toEqual([200, body, etag]);
    });

    it('If-Modified-Since at or after the file time gets 304, before it 200; If-None-Match wins over it', async () => {
      const modified = (await get(path)).headers.get('last-modified') ?? '';
      expect((await get(path, { 'if-modified-since': modified })).status).toBe(304);
      expect((await get(path, { 'if-modified-since': new Date(Date.parse(modified) + 60_000).toUTCString() })).status).toBe(304);
      const older = await get(path, { 'if-modified-since': before(modified) });
      expect([older.status, older.text]).toEqual([200, body]);
      expect((await get(path, { 'if-modified-since': 'not a date' })).status).toBe(200);
      const both = await get(path, { 'if-none-match': '"other"', 'if-modified-since': modified });
      expect([both.status, both.text]).toEqual([200, body]);
    });

    it('a POST with the current tag is not answered 304', async () => {
      const etag = (await get(path)).headers.get('etag') ?? '';
      const posted = await get(path, { 'if-none-match': etag }, 'POST');
      expect(posted.status).not.toBe(304);
      expect(posted.text).not.toBe('');
    });

    it('serves a Range only while If-Range names the current tag; a 304 comes before the range', async () => {
      const etag = (await get(path)).headers.get('etag') ?? '';
      const part = await get(path, { range: 'bytes=0-3', 'if-range': etag });
      expect([part.status, part.text]).toEqual([206, body.slice(0, 4)]);
      const stale = await get(path, { range: 'bytes=0-3', 'if-range': '"other"' });
      expect([stale.status, stale.text]).toEqual([200, body]);
      expect((await get(path, { range: 'bytes=0-3', 'if-none-match': etag })).status).toBe(304);
    });
  });

  it('a file rewritten later no longer matches the old tag or date', async () => {
    const first = await get('/changes.css');
    const etag = first.headers.get('etag') ?? '';
    const modified = first.headers.get('last-modified') ?? '';
    expect((await get('/changes.css', { 'if-none-match': etag })).status).toBe(304);
    const file = join(root, 'public', 'changes.css');
    writeFileSync(file, 'second version, longer');
    const later = new Date(Date.parse(modified) + 10_000);
    utimesSync(file, later, later);
    const changed = await get('/changes.css', { 'if-none-match': etag });
    expect([changed.status, changed.text]).toEqual([200, 'second version, longer']);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await get('/changes.css', { 'if-modified-since': modified })).status).toBe(200);
    expect((await get('/changes.css', { 'if-none-match': changed.headers.get('etag') ?? '' })).status).toBe(304);
  });

  it('a Download.file reply has no ETag, as on hapi, but answers If-Modified-Since with 304', async () => {
    const first = await get('/download');
    const modified = first.headers.get('last-modified') ?? '';
    expect([first.status, first.text, first.headers.get('etag')]).toEqual([200, 'body { color: teal }', null]);
    const again = await get('/download', { 'if-modified-since': modified });
    expect([again.status, again.text, again.headers.get('content-disposition')]).toEqual([304, '', first.headers.get('content-disposition')]);
    expect((await get('/download', { 'if-modified-since': before(modified) })).status).toBe(200);
  });
});
