/**
 * Spec 001, 'Handler inputs (extractors)': `Hx` (every field), `Current<T>` (set by a middleware,
 * per request, 500 when missing), `?page=` and the request's URL helpers, read by a handler and
 * sent back as JSON over a real socket, on both transports (hapi and the fetch handler).
 */
import { setTimeout as tick } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, contextKey, json } from '../../../composition/index.js';
import type { App, AppOptions } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-request-inputs-');
const APP_URL = 'https://shop.example.test';

/** What the middleware below learns from the request: the spec's `Current<Tenant>`. */
const TENANT = contextKey<{ slug: string }>('Tenant');

function inputsApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/hx', (ctx) => json({ hx: ctx.hx }))
    .get('/tenant', (ctx) => json({ tenant: ctx.current.get(TENANT).slug }))
    .get('/tenant-or-null', async (ctx) => {
      // A turn of the event loop between the middleware and the read: another request's value
      // would show here if the context were shared.
      await tick(1);
      return json({ tenant: ctx.current.getOrNull(TENANT)?.slug ?? null });
    })
    .get('/listing', (ctx) => json({ page: ctx.page }))
    .get('/products/{id}', (ctx) =>
      json({
        path: ctx.path,
        query: ctx.query,
        route: { name: ctx.route.name, path: ctx.route.path, isProducts: ctx.route.is('products.*'), isOrders: ctx.route.is('orders.*') },
        url: ctx.urls.route('products.show', [ctx.params.int('id') + 1], { tab: 'reviews' }),
        absolute: ctx.urls.absolute('products.show', [7]),
      }),
    )
    .name('products.show');
  return createDefaultApp(options)
    .module({ name: 'request-inputs', routes })
    .layer(async (ctx, next) => {
      const slug = ctx.headers['x-tenant'];
      if (typeof slug === 'string') ctx.current.set(TENANT, { slug });
      return next();
    });
}

for (const transport of ['hapi', 'fetch'] as const) {
  describe(`handler inputs over a real socket (${transport} transport)`, () => {
    let testApp: TestApp;
    let server: TestServer;

    beforeAll(async () => {
      testApp = TestApp.create({
        environment: { DATABASE_URL: `sqlite:${dir()}/${transport}.sqlite`, HTTP_TRANSPORT: transport, APP_URL, LOG_LEVEL: 'error' },
        build: inputsApp,
      });
      server = await testApp.serve();
    });
    afterAll(() => server.stop());

    it('Hx: every field is empty on an ordinary request', async () => {
      const answer = await server.client().get('/hx');
      expect(answer.json()).toEqual({ hx: { request: false, boosted: false, target: null, trigger: null, currentUrl: null } });
    });

    it('Hx: request, boosted, target, trigger and current_url come from the HX-* headers htmx sends', async () => {
      const answer = await server.client().get('/hx', {
        headers: {
          'hx-request': 'true',
          'hx-boosted': 'true',
          'hx-target': 'search-results',
          'hx-trigger': 'search-box',
          'hx-current-url': `${server.url}/products?q=lamp`,
        },
      });
      expect(answer.json()).toEqual({
        hx: { request: true, boosted: true, target: 'search-results', trigger: 'search-box', currentUrl: `${server.url}/products?q=lamp` },
      });
    });

    it('Hx: a plain htmx request (not boosted, no target) is told apart from a boosted link', async () => {
      const answer = await server.client().get('/hx', { headers: { 'hx-request': 'true', 'hx-current-url': `${server.url}/` } });
      expect(answer.json()).toEqual({ hx: { request: true, boosted: false, target: null, trigger: null, currentUrl: `${server.url}/` } });
    });

    it('Current<T>: the value the middleware set for this request', async () => {
      const answer = await server.client().get('/tenant', { headers: { 'x-tenant': 'acme' } });
      expect(answer.status).toBe(200);
      expect(answer.json()).toEqual({ tenant: 'acme' });
    });

    it('Current<T>: missing is a 500 that names the key in the log, not to the visitor; Option<Current<T>> is null', async () => {
      const missing = await server.client().get('/tenant', { headers: { accept: 'application/json' } });
      expect(missing.status).toBe(500);
      expect(missing.text).not.toContain('Tenant');
      const requestId = missing.headers.get('x-request-id');
      const logged = testApp.logs.filter((line) => line.level === 'error' && line.fields['requestId'] === requestId);
      expect(JSON.stringify(logged)).toContain('No middleware set Tenant for this request');
      expect((await server.client().get('/tenant-or-null')).json()).toEqual({ tenant: null });
    });

    it('Current<T>: each request sees only its own value, also when requests overlap', async () => {
      const slugs = Array.from({ length: 12 }, (_, i) => (i % 3 === 0 ? null : `tenant-${i}`));
      const answers = await Promise.all(
        slugs.map((slug) => server.client().get('/tenant-or-null', slug === null ? {} : { headers: { 'x-tenant': slug } })),
      );
      expect(answers.map((answer) => answer.json<{ tenant: string | null }>().tenant)).toEqual(slugs);
    });

    it.each([
      ['no ?page=', '', 1],
      ['?page=3', '?page=3', 3],
      ['a leading zero', '?page=007', 7],
      ['nine digits', '?page=123456789', 123456789],
      ['0', '?page=0', 1],
      ['a negative number', '?page=-2', 1],
      ['a fraction', '?page=2.5', 1],
      ['an exponent', '?page=1e3', 1],
      ['a word', '?page=last', 1],
      ['empty', '?page=', 1],
      ['given twice', '?page=2&page=3', 1],
    ])('page: %s (%s) → %i', async (_what, query, page) => {
      expect((await server.client().get(`/listing${query}`)).json()).toEqual({ page });
    });

    it("the request's URL helpers: path, query, the matched route, url() and absoluteUrl() from APP_URL", async () => {
      const answer = await server.client().get('/products/41?sort=price&tag=a&tag=b');
      expect(answer.json()).toEqual({
        path: '/products/41',
        query: { sort: 'price', tag: ['a', 'b'] },
        route: { name: 'products.show', path: '/products/{id}', isProducts: true, isOrders: false },
        url: '/products/42?tab=reviews',
        absolute: `${APP_URL}/products/7`,
      });
    });
  });
}
