/**
 * The locale stage over a real socket: the session's locale, then Accept-Language among the
 * app's languages, then APP_LOCALE; `ctx.lang` in handlers, `t()` and validation messages follow.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redirect, Routes, View, contextKey, formSchema, json, object, textField } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-locale-');
const named = formSchema({ struct: object({ name: textField() }) });
/** What an app layer saw of the language before the handler ran. */
const LAYER_LOCALE = contextKey<string>('layer locale');

describe('the locale stage', () => {
  let server: TestServer;
  beforeAll(async () => {
    const root = dir();
    mkdirSync(join(root, 'resources', 'lang'), { recursive: true });
    // The app adds French (one key; the rest falls back to APP_LOCALE's texts).
    writeFileSync(join(root, 'resources', 'lang', 'fr.json'), JSON.stringify({ 'cart.items.one': ':count article', 'cart.items.other': ':count articles' }));
    writeFileSync(join(root, 'resources', 'lang', 'en.json'), JSON.stringify({ 'cart.items.one': ':count item', 'cart.items.other': ':count items' }));
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'switched.html'), '<p id="layer">{{ layer }}</p><p id="handler">{{ handler }}</p><p id="page">{{ app.locale }}|{{ t("validation.required", { attribute: "x" }) }}</p>');
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_LOCALE: 'en' },
      build: (options) =>
        createDefaultApp(options)
          // An app layer runs after the locale stage (spec 001's order): it already speaks the request's language.
          .layer((ctx, next) => {
            if (ctx.headers['x-layer-reads'] !== undefined) ctx.current.set(LAYER_LOCALE, ctx.locale);
            return next();
          })
          .module({
          name: 'locale',
          routes: new Routes()
            .get('/lang', (ctx) => json({ locale: ctx.locale, items: ctx.lang.choice('cart.items', 2), required: ctx.lang.t('validation.required', { attribute: 'x' }) }))
            .post('/lang/{locale}', (ctx) => (ctx.session.put('locale', ctx.params.string('locale')), json({ ok: true })))
            .post('/named', async (ctx) => json(await ctx.valid(named)))
            // A language switcher that renders instead of redirecting: the new choice counts from the next request.
            .post('/switch', (ctx) => {
              ctx.session.put('locale', 'de');
              return View.make('switched.html', { layer: ctx.current.getOrNull(LAYER_LOCALE) ?? 'did not read', handler: ctx.locale });
            })
            .get('/away', () => Redirect.to('/lang')),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server?.stop());

  it('APP_LOCALE without a header or a saved choice', async () => {
    expect((await server.client().get('/lang')).json()).toEqual({ locale: 'en', items: '2 items', required: 'The x field is required.' });
  });

  it('Accept-Language among the app’s languages, by quality', async () => {
    const response = await server.client().get('/lang', { headers: { 'accept-language': 'es;q=0.9, de-AT;q=0.8, en;q=0.1' } });
    expect(response.json()).toEqual({ locale: 'de', items: '2 items', required: 'Das Feld x ist erforderlich.' });
    expect((await server.client().get('/lang', { headers: { 'accept-language': 'fr' } })).json()).toMatchObject({ locale: 'fr', items: '2 articles' });
  });

  it('the session’s locale wins over the header', async () => {
    const client = server.client();
    await client.get('/lang');
    await client.post('/lang/de');
    expect((await client.get('/lang', { headers: { 'accept-language': 'fr' } })).json()).toMatchObject({ locale: 'de' });
  });

  it('pages, t() and validation errors follow it', async () => {
    const login = (await server.client().get('/login', { headers: { 'accept-language': 'de' } })).text;
    expect(login).toContain('<html lang="de"');
    expect(login).toContain('Passwort vergessen?');
    const failed = await server.client().post('/named', { json: {}, headers: { accept: 'application/json', 'accept-language': 'de' } });
    expect(failed.json()).toEqual({ message: 'Die übermittelten Daten sind ungültig.', errors: { name: ['Das Feld name ist erforderlich.'] } });
  });

  it('runs before the app’s layers: a layer, the handler and its page speak one language, fixed when the stage ran', async () => {
    const client = server.client();
    await client.get('/lang');
    const page = await client.post('/switch');
    expect(page.status).toBe(200);
    expect(page.text).toContain('<p id="layer">did not read</p><p id="handler">en</p><p id="page">en|The x field is required.</p>');
    const layered = await server.client().post('/switch', { headers: { 'accept-language': 'fr', 'x-layer-reads': '1' } });
    expect(layered.text).toContain('<p id="layer">fr</p><p id="handler">fr</p><p id="page">fr|');
    // The handler's saved choice counts from the next request on.
    expect((await client.get('/lang')).json()).toMatchObject({ locale: 'de', required: 'Das Feld x ist erforderlich.' });
  });

  it('an answer whose language came from Accept-Language varies on it; one from the session or one that never spoke does not', async () => {
    const negotiated = await server.client().get('/lang', { headers: { 'accept-language': 'de' } });
    expect(negotiated.headers.get('vary')?.toLowerCase()).toContain('accept-language');
    const page = await server.client().get('/login', { headers: { 'accept-language': 'de' } });
    expect(page.headers.get('vary')?.toLowerCase()).toContain('accept-language');

    const redirect = await server.client().get('/away', { headers: { 'accept-language': 'de' } });
    expect(redirect.status).toBe(303);
    expect(redirect.headers.get('vary')?.toLowerCase() ?? '').not.toContain('accept-language');

    const client = server.client();
    await client.get('/lang');
    await client.post('/lang/de');
    const saved = await client.get('/lang', { headers: { 'accept-language': 'fr' } });
    expect(saved.json()).toMatchObject({ locale: 'de' });
    expect(saved.headers.get('vary')?.toLowerCase() ?? '').not.toContain('accept-language');
    // The language came from the session: the answer depends on the cookie, and says so
    // (review: a public-cached page could hand one visitor's saved language to another).
    expect(saved.headers.get('vary')?.toLowerCase() ?? '').toContain('cookie');
    expect(redirect.headers.get('vary')?.toLowerCase() ?? '').not.toContain('cookie');
  });
});
