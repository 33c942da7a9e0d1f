import { randomBytes } from 'node:crypto';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDevIdentityProvider } from '../../adapters/oauth/dev-identity-provider.js';
import type { DevIdentityProvider } from '../../adapters/oauth/dev-identity-provider.js';
import { screenshotPath } from '../support/screenshots.js';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { TOKENS } from '../../composition/tokens.js';
import { randomToken } from '../../domain/oauth/pkce.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
import { useEngines, useTempDir } from '../support/databases.js';

// Committed screenshots are rewritten only with UPDATE_SCREENSHOTS=1 (tests/support/screenshots.ts).
const DESKTOP = { width: 1280, height: 800 };
/** Any name signs in at the dev provider; this one is `grace@example.test`, verified. */
const LOGIN = 'grace';

const dir = useTempDir('fw-oauth-browser-');
const engines = useEngines();

/** A port free now, for an app whose APP_URL must be known before it listens (the provider sends the browser back there). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describeInChromium('social login in Chromium, against a real OpenID provider', () => {
  for (const engine of engines) {
    describe.skipIf(!engine.available)(engine.name, () => {
      let dev: DevIdentityProvider;
      let server: TestServer;
      let testApp: TestApp;
      let browser: BrowserContext;
      let appOrigin = '';
      /** Console errors, script errors, CSP violations and failed requests of the APP's pages (the provider's own pages are not ours to judge). */
      const problems: string[] = [];

      const url = (path: string) => `${appOrigin}${path}`;
      const isApp = (address: string) => URL.canParse(address) && new URL(address).origin === appOrigin;

      async function openPage(): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewportSize(DESKTOP);
        const where = () => new URL(page.url()).pathname;
        const onApp = () => isApp(page.url());
        page.on('console', (message) => {
          if (onApp() && (message.type() === 'error' || message.type() === 'warning')) problems.push(`${where()} console ${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => {
          if (onApp()) problems.push(`${where()} script error: ${error.message}`);
        });
        page.on('requestfailed', (request) => {
          if (onApp() || isApp(request.url())) problems.push(`${where()} request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`);
        });
        page.on('response', (response) => {
          if (response.status() >= 400 && (onApp() || isApp(response.url()))) problems.push(`${where()} ${response.status()} for ${response.url()}`);
        });
        return page;
      }

      async function screenshot(page: Page, name: string): Promise<void> {
        if (engine.name !== 'sqlite') return;
        await page.screenshot({ path: screenshotPath(name), fullPage: true, caret: 'hide' });
      }

      beforeAll(async () => {
        // APP_URL must be the address the browser uses: the provider redirects to APP_URL's callback.
        const port = await freePort();
        appOrigin = `http://127.0.0.1:${port}`;
        const client = { clientId: 'fw-browser', clientSecret: randomToken(randomBytes(32)) };
        dev = await startDevIdentityProvider({ clients: [{ ...client, redirectUris: [`${appOrigin}/auth/provider_a/callback`] }] });
        // The default app (`npm start`): provider_a is on because its settings are given, provider_b off.
        testApp = TestApp.create({
          root: join(dir(), engine.name),
          environment: {
            DATABASE_URL: engine.url(),
            MAIL_URL: 'log:',
            PORT: String(port),
            APP_URL: appOrigin,
            PROVIDER_A_ISSUER: dev.issuer,
            PROVIDER_A_CLIENT_ID: client.clientId,
            PROVIDER_A_CLIENT_SECRET: client.clientSecret,
          },
        });
        server = await testApp.serve();
        expect(server.url).toBe(appOrigin);
        browser = await launchChromium(join(dir(), engine.name, 'chromium-profile'));
        // The provider's page imports a web font from the internet: nothing leaves loopback.
        await browser.route(
          (address) => !['127.0.0.1', 'localhost'].includes(address.hostname),
          (route) => route.abort(),
        );
        await watchCspViolations(browser, (page, text) => {
          if (isApp(page)) problems.push(`CSP violation on ${new URL(page).pathname}: ${text}`);
        });
      });

      afterAll(async () => {
        await browser?.close();
        await server?.stop();
        await dev?.stop();
      });

      it('signs in with the provider from /login, lands logged in, and /account shows the provider linked', { timeout: 60_000 }, async () => {
        const page = await openPage();

        await page.goto(url('/login'));
        await expect.poll(() => page.getByText('Or continue with').isVisible()).toBe(true);
        const button = page.getByRole('link', { name: 'Google' });
        expect(await button.getAttribute('href')).toBe('/auth/provider_a/redirect');
        expect(await button.getAttribute('hx-boost')).toBe('false');
        await screenshot(page, 'login-with-provider-desktop');

        // At the provider: its login form (any name), then its consent form.
        await button.click();
        await page.waitForURL((where) => where.origin === dev.issuer);
        await page.locator('input[name="login"]').fill(LOGIN);
        await page.locator('input[name="password"]').fill('any');
        await page.getByRole('button', { name: 'Sign-in' }).click();
        await page.getByRole('button', { name: 'Continue' }).click();

        // Back on the app, logged in: the header has the account link and the logout button.
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);
        expect(await page.getByRole('link', { name: 'Log in' }).count()).toBe(0);

        await page.getByRole('link', { name: 'Account' }).click();
        await page.waitForURL(url('/account'));
        await expect.poll(() => page.getByRole('heading', { name: 'Linked accounts' }).isVisible()).toBe(true);
        const card = page.locator('li.fw-linked-account[data-provider="provider_a"]');
        expect(await card.locator('strong').textContent()).toBe('Google');
        expect(await card.textContent()).toContain(`${LOGIN}@example.test`);
        expect(await card.textContent()).not.toContain('Not linked');
        // A password-less user's only provider cannot be unlinked: the card says so instead.
        expect(await page.getByText('This is your only way to log in.').isVisible()).toBe(true);
        await screenshot(page, 'account-linked-desktop');
        await page.close();

        const services = await testApp.app.services();
        const user = await services.get(TOKENS.userRepository).findByEmail(`${LOGIN}@example.test`);
        expect(user?.hasPassword()).toBe(false);
        expect((await services.get(TOKENS.linkedAccounts).findByProviderAccount('provider_a', LOGIN))?.userId).toBe(user?.id);
        expect(problems).toEqual([]);
      });
    });
  }
});
