import { gzipSync } from 'node:zlib';
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HxHeader, Redirect, Routes, Toast, View, combine, formSchema, json, liveValidation, object, status, textField } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestClient, TestServer } from '../../../composition/testing.js';
import { fwHead, fwUi } from '../../../adapters/http/kernel/client-assets.js';
import { PublicFiles } from '../../../adapters/http/kernel/public-files.js';
import { useTempDir } from '../../support/databases.js';

const product = formSchema({
  struct: object({ name: textField(), sku: textField() }),
  rules(v) {
    v.field('name').required().min(3).max(20);
    v.field('sku').required().alphaDash();
  },
});

const dir = useTempDir('fw-client-');
/** How often each handler ran: live validation must never run one. */
const ran = { save: 0, plain: 0, admin: 0 };

const PAGE = `<!doctype html><html><head>{{ fw_head() }}{{ fw_ui() }}</head><body>
{% block list %}<ul id="list"><li>{{ name | default('one') }}</li></ul>{% endblock %}
<p id="count">{% block count %}{{ count | default(1) }}{% endblock %}</p>
{{ toasts() }}</body></html>`;

function scriptsAndLinks(page: string): { tag: string; url: string; nonce: string | undefined }[] {
  return [...page.matchAll(/<(script|link)\b[^>]*>/gu)].map((match) => ({
    tag: match[0],
    url: /(?:src|href)="([^"]+)"/u.exec(match[0])?.[1] ?? '',
    nonce: /nonce="([^"]+)"/u.exec(match[0])?.[1],
  }));
}

describe('fw_head(), fw_ui(), live validation and partial updates over a real socket', () => {
  let server: TestServer;
  let root: string;

  beforeAll(async () => {
    root = dir();
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    mkdirSync(join(root, 'public', 'fw', 'ui'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'page.html'), PAGE);
    writeFileSync(
      join(root, 'resources', 'views', 'sheet.html'),
      `{% from "fw/ui.html" import action_sheet %}{% call action_sheet('add', 'Add', '/products') %}<input name="name" value="{{ old('name') }}"><p>{{ error('name') }}</p>{% endcall %}{% call action_sheet('other', 'Other', '/products') %}x{% endcall %}`,
    );
    // An app's own kit files: theme.css must come first, and a script becomes a module.
    writeFileSync(join(root, 'public', 'fw', 'ui', 'theme.css'), ':root { --fw-accent: teal; }');
    writeFileSync(join(root, 'public', 'fw', 'ui', 'zebra.css'), '.z {}');
    writeFileSync(join(root, 'public', 'fw', 'ui', 'zebra.js'), 'document.documentElement.dataset.zebra = "1";');
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_DEBUG: 'false' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'client',
          routes: new Routes()
            .get('/page', () => View.make('page.html'))
            .get('/sheet', () => View.make('sheet.html'))
            .post('/notes', () => combine(Redirect.to('/page'), Toast.success('Note kept')))
            .post('/products', async (ctx) => {
              ran.save += 1;
              const form = await ctx.valid(product);
              return combine(status(204), Toast.success(`Saved ${form.name}`), HxHeader.refresh());
            })
            .post('/products/toast', () => combine(View.make('page.html', { name: 'two' }).fragment('list'), Toast.success('Added'), HxHeader.trigger('listChanged')))
            .post('/products/oob', () => View.make('page.html', { name: 'two', count: 2 }).fragment('list').also('#count', View.make('page.html', { count: 2 }).fragment('count')))
            .layer(liveValidation(product))
            .post('/plain', () => {
              ran.plain += 1;
              return json({ ok: true });
            })
            .merge(
              new Routes()
                .post('/admin/products', async (ctx) => {
                  ran.admin += 1;
                  return json(await ctx.valid(product));
                })
                .layer(liveValidation(product))
                .requireAuth(),
            ),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  async function pageOf(client: TestClient): Promise<{ page: string; nonce: string }> {
    const response = await client.get('/page');
    expect(response.status).toBe(200);
    const nonce = /'nonce-([^']+)'/u.exec(response.headers.get('content-security-policy') ?? '')?.[1] ?? '';
    expect(nonce).not.toBe('');
    return { page: response.text, nonce };
  }

  it('fw_head(): the CSRF token, htmx configured without inline styles or eval, htmx and fw.js, each with the nonce and a ?v= hash', async () => {
    const client = server.client();
    const { page, nonce } = await pageOf(client);
    expect(page).toContain(`<meta name="csrf-token" content="${client.csrfToken ?? 'missing'}">`);
    const config = /<meta name="htmx-config" content="([^"]+)">/u.exec(page)?.[1] ?? '{}';
    const parsed = JSON.parse(config.replaceAll('&quot;', '"')) as Record<string, unknown>;
    expect(parsed).toMatchObject({ includeIndicatorStyles: false, allowEval: false, allowScriptTags: false });
    const scripts = scriptsAndLinks(page).filter((each) => each.tag.startsWith('<script'));
    // htmx, then fw.js, then a module for every area script: the framework's and the app's own.
    const areaScripts = [...readdirSync(join(import.meta.dirname, '../../../public/fw/ui')).filter((name) => name.endsWith('.js')), 'zebra.js'].sort();
    expect(scripts.map((each) => each.url.replace(/\?v=[0-9a-f]{12}$/u, ''))).toEqual(['/fw/htmx.min.js', '/fw/fw.js', ...areaScripts.map((name) => `/fw/ui/${name}`)]);
    for (const each of scriptsAndLinks(page)) {
      expect(each.nonce, each.tag).toBe(nonce);
      expect(each.url, each.tag).toMatch(/\?v=[0-9a-f]{12}$/u);
    }
    expect(page).not.toMatch(/<script(?![^>]*\bsrc=)/u);
    expect(page).not.toContain(' style=');
  });

  it('fw_ui(): theme.css first, then each area stylesheet by name, then a module script for each area script', async () => {
    const { page } = await pageOf(server.client());
    const links = scriptsAndLinks(page).filter((each) => each.tag.startsWith('<link')).map((each) => each.url.replace(/\?v=.*$/u, ''));
    expect(links[0]).toBe('/fw/ui/theme.css');
    expect(links).toContain('/fw/ui/actions.css');
    expect(links.indexOf('/fw/ui/actions.css')).toBeLessThan(links.indexOf('/fw/ui/zebra.css'));
    expect(page).toMatch(/<script type="module" src="\/fw\/ui\/zebra\.js\?v=[0-9a-f]{12}" nonce="[^"]+"><\/script>/u);
  });

  it('serves htmx byte for byte as the pinned htmx.org package has it, cached a year with ?v=', async () => {
    const pinned = readFileSync(createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js'), 'utf8');
    const { page } = await pageOf(server.client());
    const url = scriptsAndLinks(page).find((each) => each.url.startsWith('/fw/htmx.min.js'))?.url ?? '';
    const response = await server.client().get(url);
    expect(response.status).toBe(200);
    expect(response.text).toBe(pinned);
    expect(response.headers.get('cache-control')).toContain('max-age=31536000');
    const version = (JSON.parse(readFileSync(createRequire(import.meta.url).resolve('htmx.org/package.json'), 'utf8')) as { version: string }).version;
    expect(version).toMatch(/^2\.0\.\d+$/u);
    const declared = (JSON.parse(readFileSync(join(import.meta.dirname, '../../../package.json'), 'utf8')) as { dependencies: Record<string, string> }).dependencies['htmx.org'];
    expect(declared).toBe(version);
  });

  it('keeps all the JavaScript of a kit page (every script fw_head() and fw_ui() emit) within 40 KB gzipped', async () => {
    const client = server.client();
    const { page } = await pageOf(client);
    let total = 0;
    for (const script of scriptsAndLinks(page).filter((each) => each.tag.startsWith('<script'))) {
      const response = await client.get(script.url);
      expect(response.status, script.url).toBe(200);
      total += gzipSync(response.text, { level: 9 }).length;
    }
    console.info(`[client-assets] JavaScript on a kit page: ${(total / 1024).toFixed(1)} KB gzipped`);
    expect(total).toBeGreaterThan(15_000); // htmx is in the sum
    expect(total).toBeLessThanOrEqual(40 * 1024);
  });

  it('renders in a bare render: no nonce and no token give plain tags, not a crash', () => {
    const files = new PublicFiles([join(root, 'public')], false, new Map());
    const head = fwHead(files, undefined, '');
    expect(head).toContain('<meta name="csrf-token" content="">');
    expect(head).not.toContain('nonce=');
    expect(fwUi(files, undefined)).toMatch(/^<link rel="stylesheet" href="\/fw\/ui\/theme\.css\?v=[0-9a-f]{12}">/u);
    expect(fwUi(new PublicFiles([], false), undefined)).toBe('');
  });

  it('live validation answers the field\'s errors with the messages of the submit, without running the handler', async () => {
    const client = server.client();
    await pageOf(client);
    const submit = await client.post('/products', { form: { name: 'ab', sku: 'a b' }, headers: { 'hx-request': 'true' } });
    expect(submit.status).toBe(422);
    const submitted = submit.json<{ errors: Record<string, string[]> }>().errors;
    const before = ran.save;

    const name = await client.post('/products', { form: { name: 'ab', sku: '' }, headers: { 'x-fw-validate': 'name' } });
    expect(name.status).toBe(200);
    expect(name.json()).toEqual({ field: 'name', errors: submitted['name'] });
    const sku = await client.post('/products', { form: { name: 'ab', sku: 'a b' }, headers: { 'x-fw-validate': 'sku' } });
    expect(sku.json()).toEqual({ field: 'sku', errors: submitted['sku'] });
    const good = await client.post('/products', { form: { name: 'Lamp', sku: '' }, headers: { 'x-fw-validate': 'name' } });
    expect(good.json()).toEqual({ field: 'name', errors: [] });
    expect(ran.save).toBe(before);
  });

  it('live validation speaks the visitor\'s language like the submit', async () => {
    const client = server.client();
    await pageOf(client);
    const headers = { 'accept-language': 'de' };
    const submit = await client.post('/products', { form: { name: '', sku: 'x' }, headers: { ...headers, 'hx-request': 'true' } });
    const live = await client.post('/products', { form: { name: '', sku: 'x' }, headers: { ...headers, 'x-fw-validate': 'name' } });
    expect(live.json<{ errors: string[] }>().errors).toEqual(submit.json<{ errors: Record<string, string[]> }>().errors['name']);
  });

  it('live validation cannot get round CSRF, guards, or a route that does not validate live', async () => {
    const client = server.client();
    await pageOf(client);
    const counts = { ...ran };
    const noToken = await client.post('/products', { form: { name: 'ab' }, headers: { 'x-fw-validate': 'name' }, csrf: false });
    expect(noToken.status).toBe(419);
    const plain = await client.post('/plain', { form: { name: 'ab' }, headers: { 'x-fw-validate': 'name' } });
    expect(plain.status).toBe(400);
    const guest = await client.post('/admin/products', { form: { name: 'ab' }, headers: { 'x-fw-validate': 'name', accept: 'application/json' } });
    expect(guest.status).toBe(401);
    expect(guest.text).not.toContain('at least');
    expect(ran).toEqual(counts);
  });

  it('a partial update\'s toast goes out in HX-Trigger (beside the handler\'s own events), not into the session', async () => {
    const client = server.client();
    await pageOf(client);
    const response = await client.post('/products/toast', { headers: { 'hx-request': 'true' } });
    expect(response.status).toBe(200);
    expect(response.text).toBe('<ul id="list"><li>two</li></ul>');
    expect(JSON.parse(response.headers.get('hx-trigger') ?? 'null')).toEqual({ listChanged: null, 'fw:toast': { toasts: [{ level: 'success', message: 'Added' }] } });
    expect((await client.get('/page')).text).not.toContain('Added');
  });

  it('a toast with HX-Refresh waits in the session for the page the browser loads next', async () => {
    const client = server.client();
    await pageOf(client);
    const response = await client.post('/products', { form: { name: 'Lamp', sku: 'lamp-1' }, headers: { 'hx-request': 'true' } });
    expect(response.status).toBe(204);
    expect(response.headers.get('hx-refresh')).toBe('true');
    expect(response.headers.get('hx-trigger')).toBeNull();
    const next = await client.get('/page');
    expect(next.text).toContain('<div class="fw-toast fw-toast-success"><p class="fw-toast-text">Saved Lamp</p>');
    expect(next.text).toMatch(/<div class="fw-toasts" role="status" aria-live="polite" data-fw-toasts>/u);
  });

  it('a live-validation request between the save and the page it refreshes to leaves the flashed toast for that page', async () => {
    // fw.js checks a field 350 ms after the last keystroke: a user who types and saves at once
    // sends that check while htmx reloads the page. It must not spend the save's flash.
    const client = server.client();
    await pageOf(client);
    const saved = await client.post('/products', { form: { name: 'Lamp', sku: 'lamp-2' }, headers: { 'hx-request': 'true' } });
    expect(saved.status).toBe(204);
    const live = await client.post('/products', { form: { name: 'Lamp', sku: 'lamp-2' }, headers: { 'x-fw-validate': 'sku' } });
    expect(live.json()).toEqual({ field: 'sku', errors: [] });
    // Nor may its answer overwrite the session cookie the save set (it left with an older one).
    expect(live.headers.get('set-cookie')).toBeNull();
    const next = await client.get('/page');
    expect(next.text).toContain('<p class="fw-toast-text">Saved Lamp</p>');
  });

  it('View.also: a partial update carries the out-of-band pieces; a full page leaves them out', async () => {
    const client = server.client();
    await pageOf(client);
    const partial = await client.post('/products/oob', { headers: { 'hx-request': 'true' } });
    expect(partial.text).toBe('<ul id="list"><li>two</li></ul><div hx-swap-oob="innerHTML:#count">2</div>');
    const full = await client.post('/products/oob');
    expect(full.text).toBe('<ul id="list"><li>two</li></ul>');
  });

  it('without JavaScript a failed sheet form comes back with its sheet open, its input and its errors', async () => {
    const client = server.client();
    const first = await client.get('/sheet');
    expect(first.text).not.toContain('data-fw-reopen');
    const failed = await client.post('/products', { form: { _fw_sheet: 'add', name: 'ab', sku: '' } });
    expect(failed.status).toBe(303);
    expect(failed.location).toContain('/sheet');
    const again = (await client.get('/sheet')).text;
    expect(again).toMatch(/<dialog class="fw-sheet" id="add"[^>]* data-fw-reopen>/u);
    expect(again).toMatch(/<dialog class="fw-sheet" id="other"[^>]*data-fw-kind="slide-over">/u);
    expect(again).toContain('<input name="name" value="ab"><p>The name field must be at least 3 characters.</p>');
  });

  it('a redirect answering a sheet\'s htmx form becomes HX-Redirect, its toast waiting for that page; other partial updates keep the 303', async () => {
    const client = server.client();
    await pageOf(client);
    const fromSheet = await client.post('/notes', { headers: { 'hx-request': 'true', 'x-fw-sheet': 'note' } });
    expect(fromSheet.status).toBe(204);
    expect(fromSheet.headers.get('hx-redirect')).toBe('/page');
    expect((await client.get('/page')).text).toContain('<p class="fw-toast-text">Note kept</p>');
    const partial = await client.post('/notes', { headers: { 'hx-request': 'true' } });
    expect(partial.status).toBe(303);
    const boosted = await client.post('/notes', { headers: { 'hx-request': 'true', 'hx-boosted': 'true', 'x-fw-sheet': 'note' } });
    expect(boosted.status).toBe(303);
  });
});
