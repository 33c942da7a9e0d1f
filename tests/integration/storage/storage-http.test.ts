import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, Routes, TOKENS, View, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { startS3Server } from '../../support/s3-server.js';
import type { S3TestServer } from '../../support/s3-server.js';

const dir = useTempDir('fw-storage-http-');

/** The path and query of an absolute link, opened on the test server (APP_URL names port 0 in tests). */
function onServer(server: TestServer, link: string): string {
  const url = new URL(link);
  return `${server.url}${url.pathname}${url.search}`;
}

describe('storage over a real socket: public files, storage_url, temporary links, Download.fromStorage', () => {
  let server: TestServer;
  let s3: S3TestServer;
  let root = '';

  beforeAll(async () => {
    root = dir();
    s3 = await startS3Server();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'avatar.html'), '<img src="{{ storage_url(key) }}"><a href="{{ storage_url(key, \'s3\') }}">cdn</a>');
    const app = TestApp.create({
      root,
      environment: {
        DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`,
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
              if (disk.name === 'local') await disk.put('secret/only-local.txt', 'private');
              return json({ ok: true });
            })
            .get('/reports/{disk}/{name}', (ctx) => Download.fromStorage(ctx.service(TOKENS.storage).disk(ctx.params.string('disk')), `reports/${ctx.params.string('name')}`))
            .get('/default/{name}', (ctx) => Download.fromStorage(ctx.service(TOKENS.storage), `reports/${ctx.params.string('name')}`, { filename: 'chosen.txt', contentType: 'text/plain' }).then((download) => download.inline()))
            .get('/link/{disk}', async (ctx) => json({ url: await ctx.service(TOKENS.storage).disk(ctx.params.string('disk')).temporaryUrl('reports/Bericht März.txt', 60) }))
            .get('/avatar', () => View.make('avatar.html', { key: 'avatars/a b.txt' })),
        }),
    });
    server = await app.serve();
    for (const disk of ['local', 'public', 's3']) expect((await server.client().get(`/put/${disk}`)).status).toBe(200);
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

  it.each(['/storage/../db.sqlite', '/storage/%2e%2e/db.sqlite', '/storage/..%2fdb.sqlite', '/storage/reports', '/storage/nope.txt', '/storage/avatars/.hidden'])(
    'the public disk answers 404 for %s, never a file outside it',
    async (path) => {
      const response = await server.client().get(path);
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('figures');
    },
  );

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

  it('an S3 temporary link is a presigned URL to the bucket', async () => {
    const { url } = (await server.client().get('/link/s3')).json<{ url: string }>();
    expect(url.startsWith(`${s3.endpoint}/${s3.bucket}/reports/`)).toBe(true);
    expect(url).toContain('X-Amz-Expires=60');
    const opened = await fetch(url);
    expect([opened.status, await opened.text()]).toEqual([200, 'figures of march']);
  });
});
