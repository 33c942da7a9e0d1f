import { join } from 'node:path';
import { object, string } from 'superstruct';
import type { BrowserContext } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { FixedClock } from '../../adapters/clock/fixed-clock.js';
import { createDefaultApp } from '../../composition/default-app.js';
import { defineNotification, Notifications } from '../../composition/notifications.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { TOKENS } from '../../composition/tokens.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { useEngines, useTempDir } from '../support/databases.js';

const Reminder = defineNotification({
  name: 'reminder',
  payload: object({ message: string() }),
  via: ['database'],
  database: ({ message }) => ({ message, url: '/account' }),
});
const USER = { name: 'Ada', email: 'ada@example.com', password: 'correct horse battery staple' };
const dir = useTempDir('fw-browser-notifications-');
const [sqlite] = useEngines();

describeInChromium('fw/notifications.html in Chromium (SQLite)', () => {
  let app: TestApp;
  let server: TestServer;
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    // QUEUE_CONNECTION=sync: each notification is stored when it is sent; the clock moves a
    // second between them, so "newest first" has one answer.
    const clock = new FixedClock(new Date());
    app = TestApp.create({
      clock,
      root: join(dir(), 'app'),
      environment: { DATABASE_URL: sqlite!.url(), QUEUE_CONNECTION: 'sync' },
      build: (options) => createDefaultApp(options).module(Notifications.create().notification(Reminder)),
    });
    server = await app.serve();
    const user = await app.createUser({ ...USER, verified: true });
    const notifier = (await app.app.services()).get(TOKENS.notifier);
    for (const message of ['First reminder', 'Second reminder', 'Third reminder']) {
      clock.advance(1000);
      await notifier.send(user.id, Reminder.with({ message }));
    }
    browser = await launchChromium(join(dir(), 'profile'));
    await watchCspViolations(browser, (page, text) => problems.push(`${page}: CSP ${text}`));
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('shows the unread notifications, marks one and then all as read, without a console error', async () => {
    const page = await browser.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`page error: ${error.message}`));

    await page.goto(`${server.url}/notifications`);
    await page.waitForURL(`${server.url}/login`);
    await page.getByLabel('Email').fill(USER.email);
    await page.getByLabel('Password').fill(USER.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.goto(`${server.url}/notifications`);

    expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Notifications');
    const items = page.locator('.fw-notification');
    expect(await items.allInnerTexts()).toEqual([
      expect.stringContaining('Third reminder') as string,
      expect.stringContaining('Second reminder') as string,
      expect.stringContaining('First reminder') as string,
    ]);
    expect(await page.getByRole('link', { name: 'Second reminder' }).getAttribute('href')).toBe('/account');

    await page.getByRole('button', { name: 'Mark “Second reminder” as read' }).click();
    await page.waitForURL(`${server.url}/notifications`);
    await expect.poll(() => items.count()).toBe(2);
    expect(await page.content()).toContain('Marked as read.');
    expect(await page.content()).not.toContain('Second reminder');

    await page.getByRole('button', { name: 'Mark all as read' }).click();
    await expect.poll(() => page.getByText('You have no unread notifications.').count()).toBe(1);
    expect(problems).toEqual([]);
  }, 60_000);
});
