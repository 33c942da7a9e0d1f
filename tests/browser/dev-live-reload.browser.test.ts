import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { createDefaultApp, Routes } from '../../composition/index.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { useTempDir } from '../support/databases.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { screenshotPath } from '../support/screenshots.js';

const dir = useTempDir('fw-live-browser-');
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; help: string; nodes: { target: string[] }[] }[] }> };
declare const document: unknown;

async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() => axe.run(document, { resultTypes: ['violations'] }));
  return result.violations.map((violation) => `${violation.id}: ${violation.help} (${violation.nodes.map((node) => node.target.join(' ')).join(', ')})`);
}
const PAGE = (words: string) => `{% extends "fw/layout.html" %}{% block content %}<p id="words">${words}</p>{% endblock %}`;

describeInChromium('live reload in Chromium, debugging locally', () => {
  let server: TestServer;
  let browser: BrowserContext;
  let view: string;
  const problems: string[] = [];

  beforeAll(async () => {
    const root = join(dir(), 'app');
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    view = join(root, 'resources', 'views', 'page.html');
    writeFileSync(view, PAGE('Before the edit'));
    server = await TestApp.create({
      root,
      build: (options) => createDefaultApp(options).module({ name: 'pages', routes: new Routes().view('/page', 'page.html') }),
      environment: { APP_ENV: 'local', APP_DEBUG: 'true', DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}` },
    }).serve();
    browser = await launchChromium(join(dir(), 'chromium-profile'));
    await watchCspViolations(browser, (_page, text) => problems.push(`CSP violation: ${text}`));
  });

  // Each test reads only its own problems, and a failed test's page (its stream, its errors) is
  // not left open for the next one.
  beforeEach(() => {
    problems.length = 0;
  });
  afterEach(async () => {
    await Promise.all(browser?.pages().map((open) => open.close()) ?? []);
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows an edited template without a manual reload, with no console error and no CSP violation', { timeout: 60_000 }, async () => {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));
    const streamOpen = page.waitForResponse((response) => response.url().endsWith('/_fw/live'));
    await page.goto(`${server.url}/page`);
    expect(await page.locator('#words').textContent()).toBe('Before the edit');
    expect((await streamOpen).status()).toBe(200);

    writeFileSync(view, PAGE('After the edit'));
    await expect.poll(() => page.locator('#words').textContent(), { timeout: 10_000 }).toBe('After the edit');

    // The inspector lists the page's requests (not its own, nor the stream's) and shows one.
    await page.goto(`${server.url}/_fw/debug`);
    expect(await page.getByRole('heading', { name: 'Requests', level: 1 }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('dev-debug-list'), fullPage: true, caret: 'hide' });
    await page.getByRole('link', { name: 'GET /page' }).first().click();
    // A click does not wait for the page it opens: under load the old page was still showing.
    await page.waitForURL(/\/_fw\/debug\/.+/u);
    expect(await page.getByRole('heading', { name: 'GET /page', level: 1 }).isVisible()).toBe(true);
    expect(await page.getByRole('heading', { name: /^SQL/u }).isVisible()).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await page.screenshot({ path: screenshotPath('dev-debug-request'), fullPage: true, caret: 'hide' });
    await page.close();
    expect(problems).toEqual([]);
  });

  it('reloads an open page when its stream reconnects to a restarted server', { timeout: 60_000 }, async () => {
    const port = new URL(server.url).port;
    const page = await browser.newPage();
    const refused: string[] = [];
    page.on('console', (message) => {
      // While the server is down the browser reports its own reconnection attempts; nothing else may appear.
      if (message.type() === 'error' && /ERR_CONNECTION_REFUSED|_fw\/live/u.test(message.text())) refused.push(message.text());
      else if (message.type() === 'error' || message.type() === 'warning') problems.push(`console ${message.type()}: ${message.text()}`);
    });
    const streamOpen = page.waitForResponse((response) => response.url().endsWith('/_fw/live'));
    await page.goto(`${server.url}/page`);
    await streamOpen;
    const boot = await page.locator('meta[name="fw-live"]').getAttribute('content');

    await server.stop();
    server = await TestApp.create({
      root: join(dir(), 'app'),
      build: (options) => createDefaultApp(options).module({ name: 'pages', routes: new Routes().view('/page', 'page.html') }),
      environment: { APP_ENV: 'local', APP_DEBUG: 'true', PORT: port, DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}` },
    }).serve();
    await expect.poll(() => page.locator('meta[name="fw-live"]').getAttribute('content'), { timeout: 15_000 }).not.toBe(boot);
    await page.close();
    expect(problems).toEqual([]);
  });
});
