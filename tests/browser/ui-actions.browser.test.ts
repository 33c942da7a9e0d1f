import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { HxHeader, Redirect, Routes, Toast, View, combine, formSchema, html, liveValidation, object, status, textField } from '../../composition/index.js';
import { createDefaultApp } from '../../composition/default-app.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { useTempDir } from '../support/databases.js';
import { screenshotPath } from '../support/screenshots.js';

const product = formSchema({
  struct: object({ name: textField(), sku: textField() }),
  rules(v) {
    v.field('name').required().min(3).max(40);
    v.field('sku').required().alphaDash();
  },
});
const note = formSchema({ struct: object({ note: textField() }), rules: (v) => void v.field('note').required() });

const PAGE = `{% extends "fw/layout.html" %}
{% from "fw/ui.html" import action_sheet, confirm, wizard, wizard_step %}
{% block title %}Products{% endblock %}
{% block content %}
<h1>Products</h1>
<ul id="products">{% for name in products %}<li>{{ name }}</li>{% else %}<li>None yet</li>{% endfor %}</ul>
{% call action_sheet('new-product', 'New product', '/products', 'Add a product', live=true) %}
<div class="fw-field"><label for="name">Name</label><input id="name" name="name" value="{{ old('name') }}"></div>
<div class="fw-field"><label for="sku">SKU</label><input id="sku" name="sku" value="{{ old('sku') }}"></div>
{% endcall %}
<form method="post" action="/notes">{{ csrf_field() }}<label for="note">Note</label> <input id="note" name="note"> <button class="fw-button" type="submit">Add note</button></form>
<p><button class="fw-button" type="button" hx-delete="/products/last" hx-target="#deleted" {{ confirm('Delete the last product?', danger=true) }}>Delete the last product</button></p>
<p id="deleted"></p>
{% call action_sheet('note-sheet', 'Quick note', '/notes', 'Add a note') %}<div class="fw-field"><label for="quick-note">Quick note</label> <input id="quick-note" name="note">{% if error('note') %}<p class="fw-error" id="quick-note-error">{{ error('note') }}</p>{% endif %}</div>{% endcall %}
{{ action_sheet('page-note', 'Note on its page', '/notes/new', 'Write a note') }}
<form method="get" action="/products">
{% call wizard('signup', ['Account', 'Address'], 'Create') %}
{% call wizard_step('Account') %}<label for="email">Email</label> <input id="email" name="email" type="email" required>{% endcall %}
{% call wizard_step('Address') %}<label for="city">City</label> <input id="city" name="city">{% endcall %}
{% endcall %}
</form>
{% endblock %}`;

const NOTE_PAGE = `{% extends "fw/layout.html" %}
{% block title %}New note{% endblock %}
{% block content %}<h1>New note</h1>
<form method="post" action="/notes">{{ csrf_field() }}<label for="page-note-field">Text of the note</label> <input id="page-note-field" name="note"> <button class="fw-button" type="submit">Keep note</button></form>
{% endblock %}`;

const dir = useTempDir('fw-browser-actions-');

describeInChromium('the UI kit actions and fw.js in Chromium', () => {
  let server: TestServer;
  let browser: BrowserContext;
  const problems: string[] = [];

  /** A page whose console errors and page errors land in `problems`; Chromium logs every 4xx answer, and the sheet's 422 is one these tests ask for. */
  async function watchedPage(): Promise<Page> {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error' && !message.text().includes('status of 422')) problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    return page;
  }
  const products: string[] = [];
  const deleteHeaders: (string | undefined)[] = [];

  beforeAll(async () => {
    const root = join(dir(), 'app');
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'products.html'), PAGE);
    writeFileSync(join(root, 'resources', 'views', 'note.html'), NOTE_PAGE);
    writeFileSync(join(root, 'resources', 'views', 'sink.html'), '{% extends "fw/layout.html" %}{% block content %}<h1>Kitchen sink</h1><h2>Actions</h2>{% include "fw/dev/ui/actions.html" %}{% endblock %}');
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'products',
          routes: new Routes()
            .get('/products', () => View.make('products.html', { products }))
            .post('/products', async (ctx) => {
              const form = await ctx.valid(product);
              products.push(form.name);
              return combine(status(204), Toast.success(`Saved ${form.name}`), HxHeader.refresh());
            })
            .layer(liveValidation(product))
            .get('/notes/new', () => View.make('note.html'))
            .get('/sink', () => View.make('sink.html'))
            .post('/notes', async (ctx) => {
              const form = await ctx.valid(note);
              return combine(Redirect.to('/products'), Toast.success(`Note added: ${form.note}`));
            })
            .delete('/products/last', (ctx) => {
              const header = ctx.headers['x-csrf-token'];
              deleteHeaders.push(Array.isArray(header) ? header[0] : header);
              return html(`<span>Deleted ${products.pop() ?? 'nothing'}</span>`);
            }),
        }),
    });
    server = await app.serve();
    browser = await launchChromium(join(dir(), 'profile'));
    await watchCspViolations(browser, (page, text) => problems.push(`${page}: CSP ${text}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function axeViolations(page: Page): Promise<string[]> {
    // Evaluated through the DevTools protocol, which the page's CSP does not govern.
    const source = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
    await page.evaluate(source);
    const results = await page.evaluate<{ id: string; nodes: { target: unknown }[] }[]>(
      'axe.run(document, { resultTypes: ["violations"] }).then((r) => r.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target) })))',
    );
    return results.map((violation) => `${violation.id}: ${JSON.stringify(violation.nodes)}`);
  }

  it('an action sheet: live validation shows and clears an error, a 422 keeps the errors in the sheet, success closes it with a toast', async () => {
    const page = await watchedPage();
    await page.goto(`${server.url}/products`);
    expect(await axeViolations(page)).toEqual([]);

    const sheet = page.getByRole('dialog', { name: 'Add a product' });
    expect(await sheet.isVisible()).toBe(false);
    await page.getByRole('link', { name: 'New product' }).click();
    await expect.poll(() => sheet.isVisible()).toBe(true);
    // The first field has the focus (not the close button the dialog would pick).
    expect(await page.evaluate<string>('document.activeElement?.id ?? ""')).toBe('name');

    // Live validation: the server's rule (at least 3 characters) as the user types.
    const name = page.getByLabel('Name');
    await name.pressSequentially('ab', { delay: 30 });
    const nameError = page.locator('#name-error');
    await expect.poll(() => nameError.textContent(), { timeout: 5000 }).toMatch(/at least 3 characters/u);
    expect(await name.getAttribute('aria-invalid')).toBe('true');
    expect(await name.getAttribute('aria-describedby')).toContain('name-error');
    await name.pressSequentially('c', { delay: 30 });
    await expect.poll(() => name.getAttribute('aria-invalid'), { timeout: 5000 }).toBeNull();
    expect(await nameError.isVisible()).toBe(false);

    // A failed submit (422): the errors appear in the sheet, which stays open.
    await sheet.getByRole('button', { name: 'Save' }).click();
    const skuError = page.locator('#sku-error');
    await expect.poll(() => skuError.textContent(), { timeout: 5000 }).toMatch(/sku/iu);
    expect(await sheet.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('ui-actions-sheet') });

    // Success: HX-Refresh reloads the page, the sheet is closed and the toast says so.
    await page.getByLabel('SKU').fill('lamp-1');
    await sheet.getByRole('button', { name: 'Save' }).click();
    const toast = page.locator('.fw-toasts .fw-toast');
    await expect.poll(() => toast.textContent(), { timeout: 5000 }).toContain('Saved abc');
    expect(await page.getByRole('dialog', { name: 'Add a product' }).isVisible()).toBe(false);
    expect(await page.locator('#products').textContent()).toContain('abc');
    expect(await page.getByRole('status').count()).toBe(1);

    // The toast can be dismissed.
    await page.getByRole('button', { name: 'Dismiss' }).click();
    await expect.poll(() => toast.count()).toBe(0);
    expect(problems).toEqual([]);
  }, 60_000);

  it('Escape closes a sheet; a toast shows after a redirect; hx-delete asks in a dialog and carries the CSRF header; a wizard goes step by step', async () => {
    const page = await watchedPage();
    await page.goto(`${server.url}/products`);

    await page.getByRole('link', { name: 'New product' }).click();
    const sheet = page.getByRole('dialog', { name: 'Add a product' });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    await page.keyboard.press('Escape');
    await expect.poll(() => sheet.isVisible()).toBe(false);

    // A plain form, no htmx: the redirect's page shows the toast.
    await page.getByLabel('Note', { exact: true }).fill('Call the supplier');
    await page.getByRole('button', { name: 'Add note' }).click();
    await page.waitForURL(`${server.url}/products`);
    await expect.poll(() => page.locator('.fw-toast').textContent()).toContain('Note added: Call the supplier');

    // hx-delete with a confirmation in a <dialog>: Cancel does nothing, Confirm sends it.
    products.push('Spare lamp');
    const before = deleteHeaders.length;
    await page.getByRole('button', { name: 'Delete the last product' }).click();
    const ask = page.getByRole('dialog', { name: 'Are you sure?' });
    await expect.poll(() => ask.isVisible()).toBe(true);
    await ask.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => ask.isVisible()).toBe(false);
    expect(deleteHeaders.length).toBe(before);

    await page.getByRole('button', { name: 'Delete the last product' }).click();
    await expect.poll(() => ask.isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await ask.getByRole('button', { name: 'Confirm' }).click();
    await expect.poll(() => page.locator('#deleted').textContent(), { timeout: 5000 }).toBe('Deleted Spare lamp');
    expect(deleteHeaders.length).toBe(before + 1);
    const token = await page.locator('meta[name="csrf-token"]').getAttribute('content');
    expect(deleteHeaders.at(-1)).toBe(token);

    // A wizard: one step at a time; Next first checks the step's own fields.
    const city = page.getByLabel('City');
    expect(await page.getByLabel('Email').isVisible()).toBe(true);
    expect(await city.isVisible()).toBe(false);
    await page.getByRole('button', { name: 'Next' }).click();
    expect(await city.isVisible()).toBe(false);
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('button', { name: 'Next' }).click();
    await expect.poll(() => city.isVisible()).toBe(true);
    expect(await page.locator('[aria-current="step"]').textContent()).toBe('Step 2 of 2: Address');
    expect(await page.getByRole('button', { name: 'Create' }).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: 'Next' }).isVisible()).toBe(false);
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
  }, 60_000);

  it('a sheet whose handler redirects loads the page with the toast; a sheet without a body loads its page\'s form', async () => {
    const page = await watchedPage();
    await page.goto(`${server.url}/products`);

    // The same handler as the plain form (a redirect and a toast), sent from a sheet.
    await page.getByRole('link', { name: 'Quick note' }).click();
    const quick = page.getByRole('dialog', { name: 'Add a note' });
    await expect.poll(() => quick.isVisible()).toBe(true);
    await page.getByLabel('Quick note').fill('From the sheet');
    await quick.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('.fw-toast').textContent(), { timeout: 5000 }).toContain('Note added: From the sheet');
    expect(await page.getByRole('dialog', { name: 'Add a note' }).isVisible()).toBe(false);

    // Without a body: the link goes to /notes/new; with JavaScript that page's form comes into the sheet.
    const link = page.getByRole('link', { name: 'Note on its page' });
    expect(await link.getAttribute('href')).toBe('/notes/new');
    await link.click();
    const sheet = page.getByRole('dialog', { name: 'Write a note' });
    await expect.poll(() => sheet.isVisible()).toBe(true);
    const field = sheet.getByLabel('Text of the note');
    await expect.poll(() => field.count(), { timeout: 5000 }).toBe(1);
    expect(page.url()).toBe(`${server.url}/products`);
    await sheet.getByRole('button', { name: 'Keep note' }).click();
    await expect.poll(() => sheet.locator('.fw-error').textContent(), { timeout: 5000 }).toMatch(/required/u);
    expect(await field.getAttribute('aria-invalid')).toBe('true');
    await field.fill('Loaded from its page');
    await sheet.getByRole('button', { name: 'Keep note' }).click();
    await expect.poll(() => page.locator('.fw-toast').last().textContent(), { timeout: 5000 }).toContain('Note added: Loaded from its page');
    expect(problems).toEqual([]);
  }, 60_000);

  it('without JavaScript a sheet opens as a panel, comes back open with its errors, and its redirect shows the toast', async () => {
    const plain = await launchChromium(join(dir(), 'profile-no-js'), { javaScript: false });
    try {
      const page = await plain.newPage();
      page.setDefaultTimeout(10_000);
      await page.goto(`${server.url}/products`);
      const sheet = page.locator('#note-sheet');
      expect(await sheet.isVisible()).toBe(false);
      await page.getByRole('link', { name: 'Quick note' }).click();
      await page.waitForURL(`${server.url}/products#note-sheet`);
      expect(await sheet.isVisible()).toBe(true);

      await sheet.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`${server.url}/products`);
      expect(await sheet.isVisible()).toBe(true);
      expect(await sheet.locator('#quick-note-error').textContent()).toMatch(/required/u);
      expect(await page.content()).toContain('data-fw-reopen');

      await sheet.getByLabel('Quick note').fill('Without scripts');
      await sheet.getByRole('button', { name: 'Save' }).click();
      await page.waitForURL(`${server.url}/products`);
      expect(await page.locator('.fw-toast').textContent()).toContain('Note added: Without scripts');
      expect(await sheet.isVisible()).toBe(false);
      // No script: the dismiss button is not offered.
      expect(await page.locator('.fw-toast-close').isVisible()).toBe(false);
    } finally {
      await plain.close();
    }
  }, 60_000);

  it('the kitchen-sink section: every sheet opens and passes axe, at 360 px without sideways scrolling', async () => {
    const page = await browser.newPage();
    page.setDefaultTimeout(10_000);
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.setViewportSize({ width: 360, height: 800 });
    await page.goto(`${server.url}/sink`);
    expect(await axeViolations(page)).toEqual([]);
    for (const [opener, title] of [['Edit product', 'Edit the product'], ['With errors', 'Fix the product'], ['Import products', 'Import products from CSV'], ['Onboard a supplier', 'New supplier']] as const) {
      await page.getByRole('link', { name: opener, exact: true }).click();
      const sheet = page.getByRole('dialog', { name: title });
      await expect.poll(() => sheet.isVisible()).toBe(true);
      expect(await axeViolations(page), title).toEqual([]);
      expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
      await page.keyboard.press('Escape');
      await expect.poll(() => sheet.isVisible()).toBe(false);
    }
    expect(await page.evaluate<boolean>('document.documentElement.scrollWidth <= window.innerWidth')).toBe(true);
    expect(problems).toEqual([]);
  }, 60_000);
});
