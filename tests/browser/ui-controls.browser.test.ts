import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDefaultApp } from '../../composition/default-app.js';
import { Redirect, Routes, View } from '../../composition/index.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { useTempDir } from '../support/databases.js';
import { screenshotPath } from '../support/screenshots.js';

/** The browser globals used inside the page (the project's types leave out the DOM library). */
interface InPageElement {
  id: string;
  hidden: boolean;
  open: boolean;
  scrollWidth: number;
  clientWidth: number;
  textContent: string | null;
  tagName: string;
  getAttribute(name: string): string | null;
}
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  activeElement: InPageElement | null;
  querySelector(selector: string): InPageElement | null;
};
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> };

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SCREENSHOT = screenshotPath('ui-controls-desktop');

/** An app's order page built from the kit: navbar with a user menu, header actions, tabs, an infolist and a wide table. */
const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Order 1024 · Acme Shop</title>
  <link rel="stylesheet" href="{{ asset('fw/fw.css') }}">
  {% for sheet in ['frame', 'controls', 'details'] %}<link rel="stylesheet" href="{{ asset('fw/ui/' + sheet + '.css') }}">{% endfor %}
  <script type="module" nonce="{{ csp_nonce() }}" src="{{ asset('fw/ui/controls.js') }}"></script>
</head>
<body class="fw-page">
{% from "fw/ui.html" import navbar, nav_links, nav_link, nav_search, menu, menu_link, menu_action, menu_open, menu_separator, menu_section, page_header, button, tabs, tab_panel, table, infolist, entry, alert %}
{% call navbar("Acme Shop", "/kit") %}
  {% call nav_links() %}{{ nav_link("/kit", "Orders") }}{{ nav_link("/customers", "Customers") }}{% endcall %}
  {{ nav_search("/kit") }}
  {% call menu("Ada", icon="user", align="end") %}{{ menu_link("/account", "Account", icon="settings") }}{{ menu_separator() }}{{ menu_action("/logout", "Log out", icon="log-out") }}{% endcall %}
{% endcall %}
<main id="main" class="fw-main">
  {% if request.query.created %}{{ alert("Order 1025 was created.", "success") }}{% endif %}
  {% call page_header("Order 1024", "Placed by Ada Lovelace", back="/kit") %}
    <form method="post" action="/kit/new">{{ csrf_field() }}{{ button("New order", key="n", icon="plus") }}</form>
    {% call menu("Actions", align="end") %}
      {{ menu_link("/kit/edit", "Edit order", icon="pencil") }}
      {{ menu_link("/kit/print", "Print", icon="download") }}
      {{ menu_open("send-invoice", "Send invoice", icon="upload") }}
      {{ menu_separator() }}
      {% call menu_section("Danger zone") %}{{ menu_action("/kit/delete", "Delete order", method="delete", icon="trash", tone="danger") }}{% endcall %}
    {% endcall %}
  {% endcall %}
  {% call tabs([{"id": "details", "label": "Details"}, {"id": "items", "label": "Items", "count": 3}], label="Order") %}
    {% call tab_panel("details") %}
      {% call infolist(2) %}
        {{ entry("Status", "paid", badge={"paid": "success"}, labels={"paid": "Paid"}) }}
        {{ entry("Total", 12999, format="money", currency="EUR") }}
        {{ entry("Placed", "2024-03-01T09:30:00Z", format="datetime") }}
        {{ entry("Gift", false, format="bool") }}
        {{ entry("Reference", "ORD-1024-XK", copyable=true) }}
        {{ entry("Note", none) }}
        {{ entry("Tags", ["express", "fragile", "gift", "insured"], limit_list=2, badge="info") }}
      {% endcall %}
    {% endcall %}
    {% call tab_panel("items") %}
      {{ table(["Product", "SKU", "Colour", "Size", {"label": "Quantity", "align": "end"}, {"label": "Unit price", "align": "end"}, {"label": "Line total", "align": "end"}],
          [["Linen shirt with a long name", "LIN-SH-001-WHT", "White", "M", "1", "€49.00", "€49.00"], ["Wool coat", "WOL-CT-778-NVY", "Navy", "L", "1", "€69.99", "€69.99"], ["Socks", "SOC-003", "Grey", "42", "2", "€5.50", "€11.00"]],
          caption="Items in this order") }}
    {% endcall %}
  {% endcall %}
</main>
<dialog id="send-invoice" aria-labelledby="send-invoice-title"><h2 id="send-invoice-title">Send invoice</h2><form method="dialog">{{ button("Close", tone="secondary") }}</form></dialog>
</body>
</html>`;

const dir = useTempDir('fw-browser-ui-controls-');

describeInChromium('the UI kit’s frame, controls and details in Chromium', () => {
  let server: TestServer;
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    const root = join(dir(), 'app');
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'kit.html'), PAGE);
    writeFileSync(join(root, 'resources', 'views', 'edit.html'), '{% extends "fw/layout.html" %}{% block content %}<h1>Edit order 1024</h1>{% endblock %}');
    const app = TestApp.create({
      root,
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'kit-page',
          routes: new Routes()
            .get('/kit', () => View.make('kit.html'))
            .get('/kit/edit', () => View.make('edit.html'))
            .post('/kit/new', () => Redirect.to('/kit?created=1')),
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

  async function openPage(): Promise<Page> {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    await page.goto(`${server.url}/kit`);
    // The module script has run once the tabs are set up.
    await page.waitForSelector('[data-fw-tabs-ready]');
    return page;
  }

  async function axeViolations(page: Page): Promise<string[]> {
    await page.evaluate(AXE_SOURCE);
    const result = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
    return result.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
  }

  const focused = (page: Page): Promise<string> =>
    page.evaluate(() => {
      const element = document.activeElement;
      return element === null ? '' : `${element.tagName.toLowerCase()}[${element.getAttribute('role') ?? ''}] ${(element.getAttribute('aria-label') ?? element.textContent ?? '').trim().replace(/\s+/gu, ' ')}`;
    });

  /** Presses Tab until `wanted` has focus; fails after `limit` presses. */
  async function tabTo(page: Page, wanted: string, limit = 25): Promise<number> {
    for (let presses = 1; presses <= limit; presses += 1) {
      await page.keyboard.press('Tab');
      if ((await focused(page)) === wanted) return presses;
    }
    throw new Error(`${wanted} never got focus; last was ${await focused(page)}`);
  }

  it('passes axe-core, before and after opening a menu, without console errors or CSP violations', async () => {
    const page = await openPage();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByText('Actions', { exact: true }).click();
    expect(await page.evaluate(() => document.querySelector('main [data-fw-menu]')?.open)).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: SCREENSHOT, fullPage: true, caret: 'hide' });
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('lets the keyboard alone skip to the content and operate the tabs', async () => {
    const page = await openPage();
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a[] Skip to main content');
    await page.keyboard.press('Enter');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('a[] Back');

    await tabTo(page, 'a[tab] Details');
    const state = (): Promise<[string | null, string | null, boolean | undefined, boolean | undefined]> =>
      page.evaluate(() => [
        document.querySelector('#details-tab')?.getAttribute('aria-selected') ?? null,
        document.querySelector('#items-tab')?.getAttribute('aria-selected') ?? null,
        document.querySelector('#details')?.hidden,
        document.querySelector('#items')?.hidden,
      ]);
    expect(await state()).toEqual(['true', 'false', false, true]);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('a[tab] Items 3');
    expect(await state()).toEqual(['false', 'true', true, false]);
    await page.keyboard.press('ArrowRight');
    expect(await focused(page)).toBe('a[tab] Details');
    await page.keyboard.press('End');
    expect(await focused(page)).toBe('a[tab] Items 3');
    await page.keyboard.press('Home');
    expect(await focused(page)).toBe('a[tab] Details');
    await page.keyboard.press('ArrowLeft');
    // Tab leaves the tab list for the chosen panel (one stop for the whole list).
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('items');
    await page.keyboard.press('Tab');
    expect(await focused(page)).toBe('div[region] Items in this order');
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('lets the keyboard alone open a menu, move through it, close it with Escape and follow an item', async () => {
    const page = await openPage();
    await tabTo(page, 'summary[] Actions');
    const open = (): Promise<boolean | undefined> => page.evaluate(() => document.querySelector('main [data-fw-menu]')?.open);
    await page.keyboard.press('Enter');
    expect(await open()).toBe(true);
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('a[] Edit order');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('a[] Print');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('a[] Send invoice');
    await page.keyboard.press('ArrowDown');
    expect(await focused(page)).toBe('button[] Delete order');
    await page.keyboard.press('Escape');
    expect(await open()).toBe(false);
    expect(await focused(page)).toBe('summary[] Actions');

    // Space opens it as well; ArrowUp goes round to the last item; Tab past the end closes it.
    await page.keyboard.press(' ');
    expect(await open()).toBe(true);
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe('button[] Delete order');
    await page.keyboard.press('Tab');
    expect(await open()).toBe(false);
    expect(await focused(page)).toBe('a[tab] Details');

    await page.keyboard.press('Shift+Tab');
    expect(await focused(page)).toBe('summary[] Actions');
    await page.keyboard.press('ArrowDown');
    expect(await open()).toBe(true);
    expect(await focused(page)).toBe('a[] Edit order');
    await page.keyboard.press('Enter');
    await page.waitForURL(`${server.url}/kit/edit`);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('opens a dialog from a menu and returns focus to the menu’s button when it closes', async () => {
    const page = await openPage();
    await tabTo(page, 'summary[] Actions');
    await page.keyboard.press('Enter');
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('ArrowUp');
    expect(await focused(page)).toBe('a[] Send invoice');
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.querySelector('#send-invoice')?.open)).toBe(true);
    expect(await page.evaluate(() => document.querySelector('main [data-fw-menu]')?.open)).toBe(false);
    expect(await focused(page)).toBe('button[] Close');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.querySelector('#send-invoice')?.open)).toBe(false);
    expect(await focused(page)).toBe('summary[] Actions');
    expect(page.url()).toBe(`${server.url}/kit`);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('copies an entry’s value with its copy button and says so to screen readers', async () => {
    await browser.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
    const page = await openPage();
    const copy = page.getByRole('button', { name: 'Copy Reference' });
    expect(await copy.isVisible()).toBe(true);
    await copy.click();
    await expect.poll(() => page.locator('[data-fw-copy-status]').textContent()).toBe('Copied');
    expect(await page.evaluate(() => (globalThis as unknown as { navigator: { clipboard: { readText(): Promise<string> } } }).navigator.clipboard.readText())).toBe('ORD-1024-XK');
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('presses a button by its keyboard shortcut, but not while typing in a field', async () => {
    const page = await openPage();
    expect(await page.getByRole('button', { name: 'New order' }).getAttribute('aria-keyshortcuts')).toBe('N');
    await page.getByRole('searchbox', { name: 'Search' }).focus();
    await page.keyboard.press('n');
    expect(page.url()).toBe(`${server.url}/kit`);
    expect(await page.getByRole('searchbox', { name: 'Search' }).inputValue()).toBe('n');
    await page.keyboard.press('Escape');
    await page.evaluate(() => (document.activeElement as unknown as { blur(): void } | null)?.blur());
    await page.keyboard.press('n');
    await page.waitForURL(`${server.url}/kit?created=1`);
    expect(await page.getByText('Order 1025 was created.').count()).toBe(1);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);

  it('fits 360 px without sideways scrolling: the wide table scrolls in its own box', async () => {
    const page = await openPage();
    await page.setViewportSize({ width: 360, height: 800 });
    await page.getByRole('tab', { name: /Items/u }).click();
    const widths = await page.evaluate(() => ({
      page: document.documentElement.scrollWidth,
      box: document.querySelector('.fw-table-box')?.clientWidth ?? 0,
      table: document.querySelector('.fw-table-box')?.scrollWidth ?? 0,
    }));
    expect(widths.page).toBeLessThanOrEqual(360);
    expect(widths.table).toBeGreaterThan(widths.box);
    expect(await axeViolations(page)).toEqual([]);
    await page.close();
    expect(problems).toEqual([]);
  }, 60_000);
});
