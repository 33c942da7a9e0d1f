import { join } from 'node:path';
import type { BrowserContext } from 'playwright-core';
import { object, string } from 'superstruct';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createDefaultApp } from '../../composition/default-app.js';
import { QueueDashboard, TOKENS } from '../../composition/index.js';
import { defineJob } from '../../composition/jobs.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { useTempDir } from '../support/databases.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';

const dir = useTempDir('fw-queue-browser-');
const OPS = { email: 'ops@example.com', password: 'correct horse battery staple' };

const Fails = defineJob({
  name: 'charge-card',
  tries: 1,
  payload: object({ why: string() }),
  handle: ({ why }) => Promise.reject(new Error(why)),
});

describeInChromium('the queue dashboard in Chromium', () => {
  let app: TestApp;
  let server: TestServer;
  let browser: BrowserContext;
  const problems: string[] = [];

  beforeAll(async () => {
    app = TestApp.create({
      root: dir(),
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}`, QUEUE_CONNECTION: 'database', QUEUE_SERVE_WORKERS: '0' },
      build: (options) =>
        createDefaultApp(options)
          .module(QueueDashboard.create({ gate: 'view-queue' }))
          .gate('view-queue', (user) => user.email === OPS.email)
          .job(Fails),
    });
    await app.call('migrate');
    await app.createUser({ email: OPS.email, name: 'Ops', password: OPS.password, verified: true });
    server = await app.serve();
    browser = await launchChromium(join(dir(), 'chromium-profile'));
    await watchCspViolations(browser, (_page, text) => problems.push(`CSP violation: ${text}`));
  });

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('signs in, shows the failed job, retries it and forgets it with its buttons', { timeout: 60_000 }, async () => {
    const jobs = (await app.app.services()).get(TOKENS.jobs);
    await jobs.dispatch(Fails.with({ why: 'card declined' }));
    await app.call('queue:work', ['--once']);

    const page = await browser.newPage();
    const url = (path: string) => `${server.url}${path}`;
    await page.goto(url('/login'));
    await page.getByLabel('Email').fill(OPS.email);
    await page.getByLabel('Password').fill(OPS.password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.waitForLoadState('load');

    await page.goto(url('/queue'));
    expect(await page.getByRole('heading', { name: 'Failed jobs (1)' }).isVisible()).toBe(true);
    expect(await page.locator('td[data-state="failed"]').textContent()).toBe('1');
    expect(await page.locator('summary', { hasText: 'Error: card declined' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Retry' }).click();
    await page.waitForURL(url('/queue'));
    await expect.poll(() => page.getByText(/is queued again/u).count()).toBeGreaterThan(0);
    expect(await page.locator('td[data-state="waiting"]').textContent()).toBe('1');

    await app.call('queue:work', ['--once']);
    await page.goto(url('/queue'));
    await page.getByRole('button', { name: 'Forget' }).click();
    await page.waitForURL(url('/queue'));
    await expect.poll(() => page.getByText('No failed jobs.').isVisible()).toBe(true);
    await page.close();
    expect(problems).toEqual([]);
  });
});
