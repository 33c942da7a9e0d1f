import { createHash } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redirect, Routes, View, text } from '../../../composition/index.js';
import type { App, AppOptions } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { unmaskToken } from '../../../domain/http/csrf-mask.js';

const CSS = 'body { color: rebeccapurple; }\n';

/** The app's own files: templates under resources/views, and a public/ folder. */
const FILES: Record<string, string> = {
  'public/css/app.css': CSS,
  'resources/views/layout.html': [
    '<!doctype html>',
    '<html><head><title>{% block title %}Views{% endblock %}</title>{{ fw_head() }}</head>',
    '<body><header>SITE HEADER</header>',
    '{% block content %}{% endblock %}',
    '{{ toasts() }}',
    '</body></html>',
  ].join('\n'),
  'resources/views/globals.html': [
    'path=[{{ request.path }}]',
    'name=[{{ app.name }}]',
    'token=[{{ csrf_token }}]',
    'field=[{{ csrf_field() }}]',
    'method=[{{ method_field("put") }}]',
    'show=[{{ route("items.show", 5) }}]',
    'index=[{{ route("items.index", page=2) }}]',
    'is=[{{ route_is("items.*") }}]',
    'classes=[{{ class_names("a", {b: true, c: false}) }}]',
    'nonce=[{{ csp_nonce() }}]',
    'head=[{{ fw_head() }}]',
    'asset=[{{ asset("css/app.css") }}]',
    'missing_asset=[{{ asset("css/none.css") }}]',
  ].join('\n'),
  'resources/views/form.html': [
    'email=[{{ old("email") }}]',
    'name=[{{ old("name", "nobody") }}]',
    'password=[{{ old("password") }}]',
    'error=[{{ error("email") }}]',
    'has_old=[{{ has_old() }}]',
  ].join('\n'),
  'resources/views/fragment.html': [
    '{% extends "layout.html" %}',
    '{% set who = "world" %}',
    '{% block title %}Fragment page{% endblock %}',
    '{% block content %}<p id="content">hello {{ who }}</p>{% endblock %}',
  ].join('\n'),
  'resources/views/shared.html': 'greeting=[{{ greeting | shout }}]',
  'resources/views/errors/415.html': 'Unsupported at [{{ request.path }}] token=[{{ csrf_token }}]',
  'resources/views/errors/404.html': '<h1>Custom missing page {{ status }}</h1><p>at {{ request.path }}</p>',
  'resources/views/broken.html': ['<p>before</p>', '<p>{{ app.name }}</p>', '<p>[{{ not_defined_anywhere }}]</p>', '<p>after</p>'].join('\n'),
};

function viewsApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/items', () => View.make('globals.html'))
    .name('items.index')
    .get('/items/{id}', (ctx) => text(`item ${ctx.params.string('id')}`))
    .name('items.show')
    .get('/elsewhere', () => View.make('globals.html'))
    .name('pages.elsewhere')
    .get('/token', (ctx) => text(ctx.session.token()))
    .get('/form', () => View.make('form.html'))
    .post('/form', (ctx) => {
      ctx.session.flashInput(ctx.body() as Record<string, unknown>);
      ctx.session.flashErrors({ email: ['The email is not valid.'] });
      return Redirect.back();
    })
    .get('/page', () => View.make('fragment.html'))
    .get('/fragment', () => View.make('fragment.html').fragment('content'))
    .get('/shared', () => View.make('shared.html'))
    .get('/broken', () => View.make('broken.html'));
  return createDefaultApp(options)
    .module({ name: 'views-test', routes })
    .share('greeting', (ctx) => `hello from ${ctx.path}`)
    .templates((env) => env.addFilter('shout', (value: unknown) => `${String(value).toUpperCase()}!`));
}

/** The text between `label=[` and the next `]` on its line. */
function field(page: string, label: string): string | undefined {
  return new RegExp(`^${label}=\\[(.*)\\]$`, 'mu').exec(page)?.[1];
}

const dir = useTempDir('fw-views-');

function writeAppFiles(root: string): void {
  for (const [path, content] of Object.entries(FILES)) {
    const file = join(root, path);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, content);
  }
}

beforeAll(() => writeAppFiles(dir()));

describe('views and the view globals over a real socket', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, APP_NAME: 'Views Test App', APP_DEBUG: 'false' },
      root: dir(),
      build: viewsApp,
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('gives templates the request, the app, the CSRF token and the helper functions', async () => {
    const client = server.client();
    const response = await client.get('/items?sort=name');
    expect(response.status).toBe(200);
    const page = response.text;
    const token = (await client.get('/token')).text;
    expect(token.length).toBeGreaterThanOrEqual(32);

    expect(field(page, 'path')).toBe('/items');
    expect(field(page, 'name')).toBe('Views Test App');
    // The page prints the token masked (BREACH): one masked value per response, unmasking to the session's.
    const printed = field(page, 'token') ?? '';
    expect(printed).not.toBe(token);
    expect(unmaskToken(printed)).toBe(token);
    expect(field(page, 'field')).toBe(`<input type="hidden" name="_token" value="${printed}">`);
    expect(field(page, 'method')).toBe('<input type="hidden" name="_method" value="PUT">');
    expect(field(page, 'show')).toBe('/items/5');
    expect(field(page, 'index')).toBe('/items?page=2');
    expect(field(page, 'is')).toBe('true');
    expect(field(page, 'classes')).toBe('a b');
    const nonce = /'nonce-([^']+)'/u.exec(response.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    expect(field(page, 'nonce')).toBe(nonce);
    // fw_head() starts with the token for scripts (the rest: tests/integration/http/client-assets.test.ts).
    expect(page).toContain(`head=[<meta name="csrf-token" content="${printed}">\n`);
    const hash = createHash('sha256').update(CSS).digest('hex').slice(0, 12);
    expect(field(page, 'asset')).toBe(`/css/app.css?v=${hash}`);
    expect(field(page, 'asset')).toMatch(/^\/css\/app\.css\?v=[0-9a-f]{12}$/u);
    expect(field(page, 'missing_asset')).toBe('/css/none.css');
  });

  it('answers route_is by the current route', async () => {
    const page = (await server.client().get('/elsewhere')).text;
    expect(field(page, 'is')).toBe('false');
    expect(field(page, 'path')).toBe('/elsewhere');
  });

  it('serves a versioned asset URL for a year, and the plain one revalidating', async () => {
    const page = (await server.client().get('/items')).text;
    const url = field(page, 'asset') ?? '';
    const versioned = await server.client().get(url);
    expect(versioned.status).toBe(200);
    expect(versioned.text).toBe(CSS);
    expect(versioned.headers.get('content-type')).toMatch(/^text\/css/u);
    expect(versioned.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect(versioned.headers.get('x-content-type-options')).toBe('nosniff');
    // Public files come before the session: no cookie for a stylesheet.
    expect(versioned.headers.getSetCookie()).toEqual([]);

    const plain = await server.client().get('/css/app.css');
    expect(plain.status).toBe(200);
    expect(plain.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
  });

  it('refuses to serve files outside public/', async () => {
    for (const path of ['/../resources/views/broken.html', '/css/../../resources/views/broken.html', '/css/%2e%2e/%2e%2e/resources/views/broken.html', '/%2e%2e%2fresources%2fviews%2fbroken.html']) {
      const response = await server.client().get(path);
      expect(response.text, path).not.toContain('not_defined_anywhere');
      expect(response.status, path).toBeLessThan(500);
    }
  });

  it('refills a form with old input and shows its errors after a redirect back, once', async () => {
    const client = server.client();
    const posted = await client.post('/form', {
      form: { email: 'not-an-email', name: 'Ada', password: 'hunter2' },
      headers: { referer: `${server.url}/form` },
    });
    expect(posted.status).toBe(303);
    expect(posted.location).toBe('/form');

    const page = (await client.get('/form')).text;
    expect(field(page, 'email')).toBe('not-an-email');
    expect(field(page, 'name')).toBe('Ada');
    expect(field(page, 'password')).toBe('');
    expect(field(page, 'error')).toBe('The email is not valid.');
    expect(field(page, 'has_old')).toBe('true');

    const again = (await client.get('/form')).text;
    expect(field(again, 'email')).toBe('');
    expect(field(again, 'name')).toBe('nobody');
    expect(field(again, 'error')).toBe('');
    expect(field(again, 'has_old')).toBe('false');
  });

  it('renders only the requested block for a fragment', async () => {
    const full = (await server.client().get('/page')).text;
    expect(full).toContain('SITE HEADER');
    expect(full).toContain('<p id="content">hello world</p>');

    const fragment = await server.client().get('/fragment');
    expect(fragment.status).toBe(200);
    expect(fragment.text.trim()).toBe('<p id="content">hello world</p>');
  });

  it('hands App.share values and App.templates filters to templates', async () => {
    const page = (await server.client().get('/shared')).text;
    expect(field(page, 'greeting')).toBe('HELLO FROM /SHARED!');
  });

  it("uses the app's errors/404.html for a missing page, and JSON for API clients", async () => {
    const page = await server.client().get('/no/such/page');
    expect(page.status).toBe(404);
    expect(page.text).toContain('Custom missing page 404');
    expect(page.text).toContain('at /no/such/page');
    const api = await server.client().get('/no/such/page', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(404);
    expect(api.json()).toEqual({ message: 'Not Found' });
  });

  it("uses the app's errors/415.html for a body hapi refuses", async () => {
    const response = await server.client().post('/form', { body: 'x', headers: { 'content-type': 'application/x-unknown' } });
    expect(response.status).toBe(415);
    expect(response.text).toContain('Unsupported at [');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  // hapi refuses such a request before the session opens: the page gets the request, not a token.
  it("gives the app's error page for a hapi-made error the request it answers", async () => {
    const response = await server.client().post('/form', { body: 'x', headers: { 'content-type': 'application/x-unknown' } });
    expect(response.text).toContain('Unsupported at [/form]');
  });

  it('prints nothing for an undefined variable when APP_DEBUG is off', async () => {
    const response = await server.client().get('/broken');
    expect(response.status).toBe(200);
    expect(response.text).toContain('<p>[]</p>');
    expect(response.text).toContain('<p>Views Test App</p>');
  });
});

describe('views while debugging locally (APP_DEBUG=true, APP_ENV=local)', () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/debug.sqlite`, APP_DEBUG: 'true', APP_ENV: 'local' },
      root: dir(),
      build: viewsApp,
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('answers an undefined variable with a 500 debug page naming the template and line', async () => {
    const response = await server.client().get('/broken');
    expect(response.status).toBe(500);
    expect(response.text).toContain('broken.html, line 3');
    expect(response.text).toContain('not_defined_anywhere');
    expect(response.text).not.toContain('<p>after</p>');
    expect(app.logs.some((line) => line.level === 'error' && JSON.stringify(line.fields).includes('not_defined_anywhere'))).toBe(true);
  });

  it('still renders pages that print only defined values', async () => {
    const response = await server.client().get('/items');
    expect(response.status).toBe(200);
    expect(field(response.text, 'path')).toBe('/items');
  });
});

describe('views with APP_DEBUG=true outside local', () => {
  it('answers an undefined variable with the plain 500 page, without internals', async () => {
    const app = TestApp.create({ environment: { APP_DEBUG: 'true', APP_ENV: 'staging' }, root: dir(), build: viewsApp });
    const server = await app.serve();
    try {
      const response = await server.client().get('/broken');
      expect(response.status).toBe(500);
      expect(response.text).not.toContain('not_defined_anywhere');
      expect(response.text).not.toContain('broken.html');
      expect(response.text).toContain(response.headers.get('x-request-id') ?? 'missing');
    } finally {
      await server.stop();
    }
  });
});
