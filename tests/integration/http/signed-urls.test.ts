import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Routes, json, text } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-signed-');

describe('signed URLs over a real socket', () => {
  const clock = new FixedClock('2026-07-01T12:00:00Z');
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      clock,
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, APP_URL: 'http://app.example' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'signed',
          routes: new Routes()
            .get('/links/{id}', (ctx) => json({ url: ctx.urls.signed('files.show', [ctx.params.string('id')], 60), path: ctx.urls.signPath('/plain/path', 60) }))
            .get('/plain/path', (ctx) => json({ valid: ctx.urls.hasValidSignature() }))
            .get('/check', (ctx) => json({ valid: ctx.urls.verify(String(ctx.query['url'] ?? '')) }))
            .group(
              '/files',
              'files.',
              new Routes().get('/{id}', (ctx) => {
                ctx.urls.requireValidSignature();
                return text(`file ${ctx.params.string('id')}`);
              }).name('show'),
            ),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  const links = async (id: string) => (await server.client().get(`/links/${encodeURIComponent(id)}`)).json<{ url: string; path: string }>();
  const local = (url: string) => url.replace('http://app.example', '');

  it('makes absolute links from APP_URL that open a route inside a group, until they expire', async () => {
    const { url } = await links('report 7');
    expect(url).toMatch(/^http:\/\/app\.example\/files\/report%207\?expires=\d+&signature=[0-9a-f]{64}$/u);
    expect((await server.client().get(local(url))).text).toBe('file report 7');
    clock.advance(59_000);
    expect((await server.client().get(local(url))).status).toBe(200);
    clock.advance(1_000);
    const expired = await server.client().get(local(url));
    expect(expired.status).toBe(403);
    expect(expired.text).toContain('This link is invalid or has expired.');
  });

  it.each([
    ['another id', (path: string) => path.replace('/files/9', '/files/8')],
    ['a later expiry', (path: string) => path.replace(/expires=(\d+)/u, (_m, n: string) => `expires=${Number(n) + 3600}`)],
    ['an upper-case signature', (path: string) => path.replace(/signature=([0-9a-f]+)/u, (_m, s: string) => `signature=${s.toUpperCase()}`)],
    ['a flipped signature digit', (path: string) => path.replace(/.$/u, (c) => (c === '0' ? '1' : '0'))],
    ['an extra parameter', (path: string) => `${path}&admin=1`],
    ['no signature', (path: string) => path.split('?')[0] ?? path],
  ])('refuses a link with %s (403)', async (_what, alter) => {
    const { url } = await links('9');
    expect((await server.client().get(alter(local(url)))).status).toBe(403);
  });

  it('signs plain paths and checks any URL', async () => {
    const { path, url } = await links('3');
    expect((await server.client().get(path)).json()).toEqual({ valid: true });
    expect((await server.client().get('/plain/path')).json()).toEqual({ valid: false });
    const check = async (candidate: string) =>
      (await server.client().get(`/check?url=${encodeURIComponent(candidate)}`)).json<{ valid: boolean }>().valid;
    expect(await check(url)).toBe(true);
    expect(await check(`${url}0`)).toBe(false);
  });
});
