/**
 * Uploads through `app.fetch` called as a Hono-style host calls it: no socket, no `answered`
 * promise. The temporary file must live until the handler's answer is made.
 */
import { existsSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, TOKENS, json, uploadIn } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-fetch-uploads-');

describe('uploads through app.fetch without a socket', () => {
  let app: TestApp;
  let tempPath = '';

  beforeAll(() => {
    app = TestApp.create({
      root: dir(),
      build: (options) =>
        createDefaultApp(options).module({
          name: 'keep',
          routes: new Routes()
            .post('/keep', async (ctx) => {
              const photo = uploadIn(ctx.body(), 'photo');
              tempPath = photo?.path ?? '';
              // A handler that does other work first (a query, a call) before it stores the file.
              await new Promise((resolve) => setTimeout(resolve, 30));
              const key = await photo?.store(ctx.service(TOKENS.storage).disk('local'), 'kept/photo.txt');
              return json({ key: key ?? null });
            })
            .withoutCsrf(),
        }),
    });
  });
  afterAll(() => app.close());

  it('keeps the temporary file while the handler runs, stores it, then removes it', async () => {
    const form = new FormData();
    form.append('photo', new Blob(['hello upload'], { type: 'text/plain' }), 'photo.txt');
    const answer = await app.app.fetch(new Request('http://localhost/keep', { method: 'POST', body: form }));
    expect(answer.status).toBe(200);
    expect(await answer.json()).toEqual({ key: 'kept/photo.txt' });
    const disk = (await app.app.services()).get(TOKENS.storage).disk('local');
    expect(await disk.exists('kept/photo.txt')).toBe(true);
    expect(tempPath).not.toBe('');
    await expect.poll(() => existsSync(tempPath)).toBe(false);
  });
});
