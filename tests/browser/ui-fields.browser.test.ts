/**
 * The UI kit's fields in Chromium: a real app serves a form of kit fields; a failed POST comes
 * back with the errors and old input; labels and aria are checked as a screen reader meets
 * them, then the keyboard alone drives the repeater, the tags input and the searchable select,
 * and the next submit carries their values under plain names. No console error, no CSP
 * violation, and axe-core finds nothing.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { Redirect, Routes, View } from '../../composition/index.js';
import { createDefaultApp } from '../../composition/default-app.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { useTempDir } from '../support/databases.js';
import { screenshotPath } from '../support/screenshots.js';

/** The DOM the in-page functions below use (the project's types leave out the DOM library). */
interface InPageElement {
  matches(selector: string): boolean;
  value: string;
}
declare const document: { activeElement: InPageElement | null; documentElement: { scrollWidth: number; clientWidth: number } };
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }> };

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

const FORM = `{% extends "fw/layout.html" %}
{% from "fw/ui.html" import input, select, checkbox, radio, date_picker, tags_input, repeater, form_errors %}
{% block title %}Order · {{ app.name }}{% endblock %}
{% block head %}<link rel="stylesheet" href="{{ asset('fw/ui/fields.css') }}"><script type="module" nonce="{{ csp_nonce() }}" src="{{ asset('fw/ui/fields.js') }}"></script>{% endblock %}
{% block content %}
<section class="fw-card">
<h1>Order</h1>
<form method="post" action="/order" novalidate>
  {{ csrf_field() }}
  {{ form_errors() }}
  {{ input('name', 'Your name', required=true, hint='As on the invoice.') }}
  {{ input('email', 'Email', type='email', required=true) }}
  {{ select('country', 'Country', options={de: 'Germany', fr: 'France', it: 'Italy', es: 'Spain'}, searchable=true, placeholder='Choose a country') }}
  {{ radio('plan', 'Plan', options={basic: 'Basic', pro: 'Pro'}, required=true) }}
  {{ date_picker('day', 'Delivery day', closed_weekdays=[0, 6]) }}
  {{ tags_input('tags', 'Tags') }}
  {{ repeater('items', 'Items', columns=[{name: 'name', label: 'Item', required: true}, {name: 'qty', label: 'Quantity', type: 'number'}], add_label='Add an item') }}
  {{ checkbox('terms', 'I accept the terms', required=true) }}
  <button class="fw-button" type="submit">Order</button>
</form>
</section>
{% endblock %}`;

/** The behaviours the first page leaves out: show_when, refused dates, a typed-in option, a preview, copy. */
const EXTRAS = `{% extends "fw/layout.html" %}
{% from "fw/ui.html" import input, select, radio, show_when, date_picker, file %}
{% block head %}<link rel="stylesheet" href="{{ asset('fw/ui/fields.css') }}"><script type="module" nonce="{{ csp_nonce() }}" src="{{ asset('fw/ui/fields.js') }}"></script>{% endblock %}
{% block content %}
<h1>Extras</h1>
<form method="post" action="/order" novalidate>
  {{ radio('kind', 'Customer', options={person: 'A person', company: 'A company'}, value='person') }}
  {% call show_when('kind', 'company') %}{{ input('vat', 'VAT number') }}{% endcall %}
  {{ date_picker('day', 'Delivery day', closed_weekdays=[0, 6], disabled_dates=['2026-12-24']) }}
  {{ select('label', 'Label', options=['bug', 'idea'], editable=true) }}
  {{ file('avatar', 'Avatar', accept='image/*', preview=true) }}
  {{ input('token', 'API token', value='tok_123', readonly=true, copyable=true) }}
</form>
{% endblock %}`;
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const dir = useTempDir('fw-browser-ui-fields-');
const SCREENSHOT = screenshotPath('ui-fields-errors');

describeInChromium('the UI kit fields in Chromium', () => {
  let server: TestServer;
  let browser: BrowserContext;
  const problems: string[] = [];
  const received: Record<string, unknown>[] = [];

  beforeAll(async () => {
    const views = join(dir(), 'app', 'resources', 'views', 'order.html');
    mkdirSync(dirname(views), { recursive: true });
    writeFileSync(views, FORM);
    writeFileSync(join(dirname(views), 'extras.html'), EXTRAS);
    const routes = new Routes()
      .get('/order', () => View.make('order.html'))
      .get('/extras', () => View.make('extras.html'))
      // What a form's validation does when it fails: the input and the errors flashed, back.
      .post('/order', (ctx) => {
        const body = ctx.body() as Record<string, unknown>;
        received.push(body);
        const text = (field: string) => (typeof body[field] === 'string' ? body[field] : '');
        const errors: Record<string, string[]> = {};
        if (text('name').trim() === '') errors['name'] = ['The name field is required.'];
        if (!text('email').includes('@')) errors['email'] = ['The email must be a valid email address.'];
        if (body['plan'] === undefined) errors['plan'] = ['Choose a plan.'];
        if (text('items[0][name]').trim() === '') errors['items.0.name'] = ['The item field is required.'];
        if (body['terms'] === undefined) errors['terms'] = ['Accept the terms.'];
        ctx.flashFormErrors(errors);
        return Redirect.to('/order');
      });
    const app = TestApp.create({
      root: join(dir(), 'app'),
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}`, APP_NAME: 'Shop' },
      build: (options) => createDefaultApp(options).module({ name: 'order', routes }),
    });
    server = await app.serve();
    browser = await launchChromium(join(dir(), 'profile'));
    await watchCspViolations(browser, (page, text) => problems.push(`${page}: CSP ${text}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  function watch(page: Page): void {
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
  }

  /** Presses Tab until the focused element matches `selector` (a keyboard user's way there). */
  async function tabTo(page: Page, selector: string): Promise<void> {
    for (let presses = 0; presses < 80; presses++) {
      await page.keyboard.press('Tab');
      if (await page.evaluate((wanted) => document.activeElement?.matches(wanted) ?? false, selector)) return;
    }
    throw new Error(`Tab never reached ${selector}`);
  }

  it('shows the errors of a failed submit with labels and aria, and the keyboard drives the repeater, tags and searchable select', async () => {
    const page = await browser.newPage();
    watch(page);
    await page.goto(`${server.url}/order`);
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByRole('button', { name: 'Order' }).click();
    await page.waitForURL(`${server.url}/order`);
    await page.getByRole('alert').waitFor();

    // The summary links to each field; each field says what is wrong, by aria.
    expect(await page.getByRole('alert').getByRole('link').allInnerTexts()).toEqual([
      'The name field is required.', 'The email must be a valid email address.', 'Choose a plan.', 'The item field is required.', 'Accept the terms.',
    ]);
    const email = page.getByLabel('Email');
    expect(await email.inputValue()).toBe('not-an-email');
    expect(await email.getAttribute('aria-invalid')).toBe('true');
    expect(await email.getAttribute('required')).toBe('');
    const described = (await email.getAttribute('aria-describedby')) ?? '';
    expect(await page.locator(`[id="${described}"]`).innerText()).toBe('The email must be a valid email address.');
    expect(await page.getByLabel('Your name').getAttribute('aria-describedby')).toBe('fw-name-hint fw-name-error');
    expect(await page.getByRole('radio', { name: 'Pro' }).getAttribute('aria-invalid')).toBe('true');
    expect(await page.locator('#fw-items-0-name').getAttribute('aria-invalid')).toBe('true');
    expect(await page.getByRole('checkbox', { name: 'I accept the terms' }).getAttribute('aria-invalid')).toBe('true');
    await page.screenshot({ path: SCREENSHOT, fullPage: true, caret: 'hide' });

    // axe-core, run through the DevTools protocol (the page's CSP refuses injected scripts).
    await page.evaluate(AXE_SOURCE);
    const report = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
    expect(report.violations.map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`)).toEqual([]);

    // The repeater: add a row and fill it, all by keyboard; then remove it again and add it back.
    await page.locator('#fw-items-0-name').fill('Tea');
    await tabTo(page, '.fw-repeater-add');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.matches('[name="items[1][name]"]') ?? false)).toBe(true);
    await page.keyboard.type('Milk');
    await tabTo(page, '[name="items[1][qty]"]');
    await page.keyboard.type('2');
    await tabTo(page, '.fw-repeater-row:nth-child(2) .fw-repeater-remove');
    expect(await page.evaluate(() => document.activeElement?.matches('[aria-label="Remove row 2"]') ?? false)).toBe(true);
    await page.keyboard.press('Enter');
    expect(await page.locator('.fw-repeater-row').count()).toBe(1);
    await tabTo(page, '.fw-repeater-add');
    await page.keyboard.press('Space');
    await page.keyboard.type('Sugar');
    expect(await page.locator('.fw-repeater-row').count()).toBe(2);

    // Tags: typed and entered as chips, one removed with its button, by keyboard.
    await page.getByLabel('Tags').focus();
    await page.keyboard.type('red');
    await page.keyboard.press('Enter');
    await page.keyboard.type('green,blue');
    await page.keyboard.press('Enter');
    expect(await page.locator('.fw-tag').allInnerTexts()).toEqual([expect.stringContaining('red') as string, expect.stringContaining('green') as string, expect.stringContaining('blue') as string]);
    await tabTo(page, '.fw-tag-remove[aria-label="Remove green"]');
    await page.keyboard.press('Enter');
    expect(await page.locator('input[type="hidden"][name="tags"]').inputValue()).toBe('red, blue');

    // The searchable select: the filter box narrows the options; the select is chosen from by keys.
    await page.getByRole('searchbox', { name: 'Search the options of Country' }).focus();
    await page.keyboard.type('fra');
    expect(await page.locator('#fw-country option:not([hidden])').allInnerTexts()).toEqual(['Choose a country', 'France']);
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.matches('#fw-country') ?? false)).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await page.locator('#fw-country').inputValue()).toBe('fr');

    // The rest, and the submit: the values arrive under the names a form without script sends
    // (bracketed names read as a list of groups, as a form without script would send them).
    await page.getByLabel('Your name').fill('Ada');
    await page.getByLabel('Email').fill('ada@example.com');
    await page.getByRole('radio', { name: 'Pro' }).check();
    await page.getByRole('checkbox', { name: 'I accept the terms' }).check();
    await page.getByRole('button', { name: 'Order' }).click();
    await page.waitForURL(`${server.url}/order`);
    expect(received.at(-1)).toMatchObject({
      name: 'Ada', country: 'fr', plan: 'pro', tags: 'red, blue', terms: '1',
      items: [{ name: 'Tea' }, { name: 'Sugar', qty: '' }],
    });
    // The removed third row sends nothing.
    expect(received.at(-1)?.['items']).toHaveLength(2);

    // 360 px wide: no sideways scrolling.
    await page.setViewportSize({ width: 360, height: 740 });
    const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
    expect(widths.scroll).toBeLessThanOrEqual(widths.client);
    expect(problems).toEqual([]);
  }, 90_000);

  it('shows and hides show_when content, refuses closed days, takes a typed-in option, previews an image and copies', async () => {
    const page = await browser.newPage();
    watch(page);
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    await page.goto(`${server.url}/extras`);

    const vat = page.getByLabel('VAT number');
    expect(await vat.isVisible()).toBe(false);
    expect(await vat.isDisabled()).toBe(true);
    await page.getByRole('radio', { name: 'A company' }).check();
    expect(await vat.isVisible()).toBe(true);
    expect(await vat.isDisabled()).toBe(false);

    const day = page.getByLabel('Delivery day');
    await day.fill('2026-11-28'); // a Saturday
    expect(await day.evaluate((input) => (input as unknown as InPageElement & { validationMessage: string }).validationMessage)).toBe('This date cannot be chosen.');
    await day.fill('2026-12-24'); // a refused Thursday
    expect(await day.evaluate((input) => (input as unknown as { validationMessage: string }).validationMessage)).toBe('This date cannot be chosen.');
    await day.fill('2026-11-26'); // an open Thursday
    expect(await day.evaluate((input) => (input as unknown as { validationMessage: string }).validationMessage)).toBe('');

    await page.getByRole('textbox', { name: 'New option for Label' }).fill('question');
    await page.keyboard.press('Enter');
    expect(await page.locator('#fw-label').inputValue()).toBe('question');

    await page.getByLabel('Avatar').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: PNG });
    const preview = page.getByRole('img', { name: 'Preview of the image chosen for Avatar' });
    await preview.waitFor();
    expect(await preview.getAttribute('src')).toMatch(/^data:image\/png;base64,/u);

    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('button', { name: 'Copied' }).waitFor();
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe('tok_123');
    expect(problems).toEqual([]);
  }, 60_000);
});
