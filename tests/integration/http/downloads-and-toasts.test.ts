import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Download, Redirect, Routes, Toast, View, combine } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-downloads-');

describe('downloads of files and streams, and toasts across a partial update', () => {
  let server: TestServer;

  beforeAll(async () => {
    const root = dir();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'report.csv'), 'id,total\n1,42\n');
    writeFileSync(
      join(root, 'resources', 'views', 'list.html'),
      '<html><body>{% block items %}<ul id="items"><li>one</li></ul>{% endblock %}<div id="toasts">{{ toasts() }}</div></body></html>',
    );
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_LOCALE: 'de-CH' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'downloads',
          routes: new Routes()
            .get('/report', () => Download.file(join(root, 'report.csv'), 'Bericht März.csv', 'text/csv'))
            .get('/missing', () => Download.file(join(root, 'nope.csv')))
            .get('/stream', () => Download.stream(Readable.from(['a,b\n', '1,2\n']), 'stream.csv', 'text/csv'))
            .post('/save', () => combine(Redirect.to('/list'), Toast.success('Saved the list')))
            .get('/list', (ctx) => (ctx.hx.request ? View.make('list.html').fragment('items') : View.make('list.html')))
            .get('/locale', (ctx) => ({ locale: ctx.locale })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('streams a file with a safe name and answers 404 for a missing one', async () => {
    const response = await server.client().get('/report');
    expect(response.status).toBe(200);
    expect(response.text).toBe('id,total\n1,42\n');
    expect(response.headers.get('content-type')).toMatch(/^text\/csv/u);
    expect(response.headers.get('content-disposition')).toBe(`attachment; filename="Bericht M_rz.csv"; filename*=UTF-8''Bericht%20M%C3%A4rz.csv`);
    expect((await server.client().get('/missing')).status).toBe(404);
  });

  it('sends a stream as it is made', async () => {
    const response = await server.client().get('/stream');
    expect(response.text).toBe('a,b\n1,2\n');
    expect(response.headers.get('content-disposition')).toContain('filename="stream.csv"');
  });

  it('keeps a toast for the next full page when a partial update comes first', async () => {
    const client = server.client();
    await client.get('/list');
    expect((await client.post('/save')).location).toBe('/list');
    const fragment = await client.get('/list', { headers: { 'hx-request': 'true' } });
    expect(fragment.text).toBe('<ul id="items"><li>one</li></ul>');
    const page = await client.get('/list');
    expect(page.text).toContain('Saved the list');
    expect((await client.get('/list')).text).not.toContain('Saved the list');
  });

  it('gives handlers the configured locale', async () => {
    expect((await server.client().get('/locale')).json()).toEqual({ locale: 'de-CH' });
  });
});
