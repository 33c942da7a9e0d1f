/**
 * `ctx.storage` over a real socket: a handler stores an upload on the default disk
 * (FILESYSTEM_DISK) or a named one and serves it back, without reaching for the services container.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, Routes, json, uploadIn } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { gifBytes, multipartBody } from '../../support/images.js';

const dir = useTempDir('fw-ctx-storage-');

describe('ctx.storage: the default disk, and .disk(name)', () => {
  let server: TestServer;
  let root = '';

  beforeAll(async () => {
    root = dir();
    const app = TestApp.create({
      root,
      environment: {
        DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`,
        STORAGE_LOCAL_ROOT: join(root, 'private-disk'),
        STORAGE_PUBLIC_ROOT: join(root, 'public-disk'),
        UPLOAD_TMP_DIR: join(root, 'tmp-uploads'),
      },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'ctx-storage-test',
          routes: new Routes()
            .post('/avatar', async (ctx) => {
              const photo = uploadIn(ctx.body(), 'photo');
              if (photo === null) return json({ error: 'no photo' }, 422);
              const onDisk = typeof ctx.query['disk'] === 'string' ? ctx.storage.disk(ctx.query['disk']) : ctx.storage;
              const key = await photo.store(onDisk, photo.hashName('avatars'));
              return json({ key, disk: onDisk.name, names: ctx.storage.names });
            })
            .get('/avatar', (ctx) => Download.fromStorage(ctx.storage, String(ctx.query['key'])).then((download) => download.inline()))
            .get('/avatar/link', async (ctx) => json({ url: await ctx.storage.temporaryUrl(String(ctx.query['key']), 60), size: await ctx.storage.size(String(ctx.query['key'])) })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server?.stop());

  async function upload(path: string, bytes: Buffer): Promise<{ key: string; disk: string; names: string[] }> {
    const form = multipartBody({}, [{ name: 'photo', filename: 'me.gif', contentType: 'image/gif', bytes }]);
    const response = await server.client().post(path, { body: form.body, headers: { 'content-type': form.contentType } });
    expect(response.status).toBe(200);
    return response.json();
  }

  it('stores an upload on the default disk (local, private) and serves it back with Download.fromStorage(ctx.storage)', async () => {
    const gif = gifBytes(32, 16);
    const stored = await upload('/avatar', gif);
    expect(stored).toEqual({ key: expect.stringMatching(/^avatars\/[0-9a-f-]{36}\.gif$/u) as string, disk: 'local', names: expect.arrayContaining(['local', 'public']) as string[] });
    expect(existsSync(join(root, 'private-disk', stored.key))).toBe(true);

    const served = await fetch(`${server.url}/avatar?key=${encodeURIComponent(stored.key)}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(gif);
    // Private: not reachable under the public path.
    expect((await server.client().get(`/storage/${stored.key}`)).status).toBe(404);
  });

  it('a temporary link of the default disk opens the stored upload over the socket', async () => {
    const gif = gifBytes(8, 8);
    const stored = await upload('/avatar', gif);
    const { url, size } = (await server.client().get(`/avatar/link?key=${encodeURIComponent(stored.key)}`)).json<{ url: string; size: number }>();
    expect(size).toBe(gif.length);
    const link = new URL(url);
    const opened = await fetch(`${server.url}${link.pathname}${link.search}`);
    expect(opened.status).toBe(200);
    expect(Buffer.from(await opened.arrayBuffer())).toEqual(gif);
  });

  it('ctx.storage.disk("public") stores where /storage serves it', async () => {
    const gif = gifBytes(4, 2);
    const stored = await upload('/avatar?disk=public', gif);
    expect(stored.disk).toBe('public');
    const served = await fetch(`${server.url}/storage/${stored.key}`);
    expect(served.status).toBe(200);
    expect(Buffer.from(await served.arrayBuffer())).toEqual(gif);
  });

  it('a missing key on the default disk answers 404', async () => {
    expect((await server.client().get('/avatar?key=avatars/none.gif')).status).toBe(404);
  });
});
