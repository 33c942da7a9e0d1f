import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { simpleParser } from 'mailparser';
import * as OTPAuth from 'otpauth';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../../composition/testing.js';
import type { TestServer } from '../../composition/testing.js';
import { describeInChromium, launchChromium, watchCspViolations } from '../support/chromium.js';
// Committed screenshots (the README shows them) are rewritten only with UPDATE_SCREENSHOTS=1,
// from the SQLite run only (the pages are the same on PostgreSQL).
import { screenshotPath } from '../support/screenshots.js';
import { useEngines, useTempDir } from '../support/databases.js';

/**
 * The browser globals that the functions run inside the page use. The project's types leave out
 * the DOM library on purpose (server code must not see `document`), so they are declared here,
 * for this file only.
 */
interface InPageElement {
  id: string;
  matches(selector: string): boolean;
}
declare const document: {
  documentElement: { scrollWidth: number; clientWidth: number };
  activeElement: InPageElement | null;
  querySelector(selector: string): InPageElement | null;
};
declare function getComputedStyle(element: InPageElement): { borderTopLeftRadius: string; outlineStyle: string; outlineWidth: string; outlineColor: string };

const DESKTOP = { width: 1280, height: 800 };
const MOBILE = { width: 390, height: 844 };
const USER = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'correct horse battery staple' };

const dir = useTempDir('fw-browser-');
const engines = useEngines();

/**
 * The path and query of the link in the mail with this subject to this address: the log mailer
 * (MAIL_URL=log:) writes every mail to `<root>/storage/mail`. The link's host is APP_URL's, so
 * the browser opens the path on the test server (where its session cookie is).
 */
async function mailedLink(root: string, subject: string, address: string): Promise<string> {
  const folder = join(root, 'storage', 'mail');
  for (const file of existsSync(folder) ? readdirSync(folder) : []) {
    const mail = await simpleParser(readFileSync(join(folder, file)));
    const to = Array.isArray(mail.to) ? (mail.to[0]?.text ?? '') : (mail.to?.text ?? '');
    if (mail.subject !== subject || !to.includes(address)) continue;
    const link = /https?:\/\/\S+/u.exec(mail.text ?? '')?.[0];
    if (link === undefined) throw new Error(`no link in ${file}`);
    const parsed = new URL(link);
    return `${parsed.pathname}${parsed.search}`;
  }
  throw new Error(`no mail '${subject}' to ${address}`);
}

/** The code an authenticator app shows for this key at this time. */
function totpCode(key: string, timestamp: number): string {
  return new OTPAuth.TOTP({ secret: OTPAuth.Secret.fromBase32(key), digits: 6, period: 30, algorithm: 'SHA1' }).generate({ timestamp });
}

describeInChromium('the Auth pages in Chromium', () => {
  for (const engine of engines) {
    describe.skipIf(!engine.available)(engine.name, () => {
      let server: TestServer;
      let browser: BrowserContext;
      /** Console errors, script errors, CSP violations and failed requests of any page, with the page's path. */
      const problems: string[] = [];

      const url = (path: string) => `${server.url}${path}`;

      /** A page whose every problem is collected. */
      async function openPage(viewport: { width: number; height: number }): Promise<Page> {
        const page = await browser.newPage();
        await page.setViewportSize(viewport);
        const where = () => new URL(page.url()).pathname;
        page.on('console', (message) => {
          if (message.type() === 'error' || message.type() === 'warning') problems.push(`${where()} console ${message.type()}: ${message.text()}`);
        });
        page.on('pageerror', (error) => problems.push(`${where()} script error: ${error.message}`));
        page.on('requestfailed', (request) => problems.push(`${where()} request failed: ${request.url()} ${request.failure()?.errorText ?? ''}`));
        page.on('response', (response) => {
          if (response.status() >= 400) problems.push(`${where()} ${response.status()} for ${response.url()}`);
        });
        return page;
      }

      async function screenshot(page: Page, name: string): Promise<void> {
        if (engine.name !== 'sqlite') return;
        await page.screenshot({ path: screenshotPath(name), fullPage: true, caret: 'hide' });
      }

      async function noHorizontalScrollAt360(page: Page): Promise<void> {
        const before = page.viewportSize() ?? DESKTOP;
        await page.setViewportSize({ width: 360, height: 740 });
        const widths = await page.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
        expect(widths.scroll, `${page.url()} scrolls sideways at 360 px`).toBeLessThanOrEqual(widths.client);
        await page.setViewportSize(before);
      }

      beforeAll(async () => {
        const app = TestApp.create({ root: join(dir(), engine.name), environment: { DATABASE_URL: engine.url(), MAIL_URL: 'log:' } });
        server = await app.serve();
        browser = await launchChromium(join(dir(), engine.name, 'chromium-profile'));
        await watchCspViolations(browser, (_page, text) => problems.push(`CSP violation: ${text}`));
      });

      afterAll(async () => {
        await browser?.close();
        await server?.stop();
      });

      it('shows the guest pages styled, on a phone too, without scrolling sideways', async () => {
        const page = await openPage(MOBILE);
        for (const path of ['/login', '/register']) {
          await page.goto(url(path));
          // The stylesheet is the framework's, through asset(), and it applied.
          // (fw_ui() adds the kit's stylesheets after it.)
          expect(await page.locator('link[rel="stylesheet"]').first().getAttribute('href')).toMatch(/^\/fw\/fw\.css\?v=[0-9a-f]{12}$/u);
          expect(await page.evaluate(() => getComputedStyle(document.querySelector('.fw-card')!).borderTopLeftRadius)).toBe('12px');
          await screenshot(page, `${path.slice(1)}-mobile`);
          await noHorizontalScrollAt360(page);
        }
        await page.close();
        expect(problems).toEqual([]);
      });

      it('registers through the form, logs out, logs in and opens the account page', { timeout: 60_000 }, async () => {
        const page = await openPage(DESKTOP);

        await page.goto(url('/register'));
        await screenshot(page, 'register-desktop');

        // An empty form: each error right under its field, tied to it for screen readers.
        await page.getByRole('button', { name: 'Register' }).click();
        await page.waitForURL(url('/register'));
        const name = page.getByLabel('Name');
        await expect.poll(() => name.getAttribute('aria-invalid')).toBe('true');
        expect(await name.getAttribute('aria-describedby')).toBe('fw-name-error');
        expect(await page.locator('#fw-name-error').textContent()).toMatch(/name/iu);

        await name.fill(USER.name);
        await page.getByLabel('Email').fill(USER.email);
        await page.getByLabel('Password', { exact: true }).fill(USER.password);
        await page.getByLabel('Confirm password').fill(USER.password);
        await page.getByRole('button', { name: 'Register' }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out' }).isVisible()).toBe(true);

        await page.getByRole('button', { name: 'Log out' }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);

        await page.getByRole('link', { name: 'Log in' }).click();
        await page.waitForURL(url('/login'));
        await screenshot(page, 'login-desktop');

        // Keyboard: from the top of the page, Tab reaches the first input (past the header's
        // links) and its focus shows. The page must be loaded first: an autofocus landing after
        // the click would start the Tabs from the email field and walk away from it.
        await page.waitForLoadState('load');
        await page.mouse.click(8, 400);
        for (let presses = 0; presses < 12; presses += 1) {
          await page.keyboard.press('Tab');
          if ((await page.evaluate(() => document.activeElement?.id)) === 'fw-email') break;
        }
        const focus = await page.evaluate(() => {
          const element = document.activeElement!;
          const style = getComputedStyle(element);
          return { id: element.id, focusVisible: element.matches(':focus-visible'), outline: style.outlineStyle, width: parseFloat(style.outlineWidth), color: style.outlineColor };
        });
        expect(focus).toMatchObject({ id: 'fw-email', focusVisible: true, outline: 'solid' });
        expect(focus.width).toBeGreaterThanOrEqual(2);
        expect(focus.color).not.toMatch(/rgba\(.*, 0\)|transparent/u);

        await page.keyboard.type(USER.email);
        await page.getByLabel('Password').fill(USER.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(url('/'));

        await page.getByRole('link', { name: 'Account' }).click();
        await page.waitForURL(url('/account'));
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Account');
        expect(await page.locator('#fw-profile-name').inputValue()).toBe(USER.name);
        expect(await page.locator('#fw-profile-email').inputValue()).toBe(USER.email);
        await screenshot(page, 'account-desktop');

        await page.setViewportSize(MOBILE);
        await screenshot(page, 'account-mobile');
        await noHorizontalScrollAt360(page);
        await page.close();

        expect(problems).toEqual([]);
      });

      /** An address of this engine's run only. */
      const emailOf = (who: string) => `${who}-${engine.name}@example.com`;

      /** A new account through the form, signed in afterwards (on the home page). */
      async function register(page: Page, email: string): Promise<void> {
        await page.goto(url('/register'));
        await page.getByLabel('Name').fill(USER.name);
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password', { exact: true }).fill(USER.password);
        await page.getByLabel('Confirm password').fill(USER.password);
        await page.getByRole('button', { name: 'Register' }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);
      }

      async function logOut(page: Page): Promise<void> {
        await page.goto(url('/'));
        await page.getByRole('button', { name: 'Log out', exact: true }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('link', { name: 'Log in' }).isVisible()).toBe(true);
      }

      async function fillLogin(page: Page, email: string, password: string): Promise<void> {
        await page.goto(url('/login'));
        await page.getByLabel('Email').fill(email);
        await page.getByLabel('Password').fill(password);
        await page.getByRole('button', { name: 'Log in', exact: true }).click();
      }

      /** The mail may be written just after the answer: a few tries. */
      async function linkOf(subject: string, email: string): Promise<string> {
        let link = '';
        await expect.poll(async () => (link = await mailedLink(join(dir(), engine.name), subject, email).catch(() => '')), { timeout: 5000 }).not.toBe('');
        return link;
      }

      it('resets a forgotten password through the mailed link, then logs in with the new one', { timeout: 30_000 }, async () => {
        await browser.clearCookies();
        const page = await openPage(DESKTOP);
        const email = emailOf('reset');
        const newPassword = 'a brand new password';
        await register(page, email);
        await logOut(page);

        await page.getByRole('link', { name: 'Log in' }).click();
        await page.waitForURL(url('/login'));
        await page.getByRole('link', { name: 'Forgot your password?' }).click();
        await page.waitForURL(url('/forgot-password'));
        await page.getByLabel('Email').fill(email);
        await page.getByRole('button', { name: 'Email me a reset link' }).click();
        await page.waitForURL(url('/forgot-password'));
        // The page's own status message (the toasts region is a status too).
        await expect.poll(() => page.locator('.fw-status-message[role="status"]').isVisible()).toBe(true);

        await page.goto(url(await linkOf('Reset your password', email)));
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe('Choose a new password');
        expect(await page.getByLabel('Email').inputValue()).toBe(email);
        await page.getByLabel('New password', { exact: true }).fill(newPassword);
        await page.getByLabel('Confirm new password').fill(newPassword);
        await page.getByRole('button', { name: 'Reset password' }).click();
        await page.waitForURL(url('/login'));

        await fillLogin(page, email, newPassword);
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);
        await page.close();
        expect(problems).toEqual([]);
      });

      it('verifies the email address through the mailed link, in the signed-in browser', { timeout: 30_000 }, async () => {
        await browser.clearCookies();
        const page = await openPage(DESKTOP);
        const email = emailOf('verify');
        await register(page, email);
        await page.goto(url('/account'));
        await expect.poll(() => page.locator('#fw-profile-unverified').isVisible()).toBe(true);

        await page.goto(url(await linkOf('Verify your email address', email)));
        await page.waitForURL((where) => where.pathname === '/');
        await page.goto(url('/account'));
        expect(await page.locator('#fw-profile-email').inputValue()).toBe(email);
        expect(await page.locator('#fw-profile-unverified').count()).toBe(0);
        expect(await page.content()).not.toContain('not verified');
        await page.close();
        expect(problems).toEqual([]);
      });

      it('confirms the password: a wrong one is refused next to the field, the right one goes on', { timeout: 30_000 }, async () => {
        await browser.clearCookies();
        const page = await openPage(DESKTOP);
        await register(page, emailOf('confirm'));

        await page.goto(url('/confirm-password'));
        const password = page.getByLabel('Password');
        await password.fill('not my password');
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(url('/confirm-password'));
        await expect.poll(() => password.getAttribute('aria-invalid')).toBe('true');
        expect(await password.getAttribute('aria-describedby')).toBe('fw-password-error');
        expect(await page.locator('#fw-password-error').textContent()).toBe('The provided password is incorrect.');

        await password.fill(USER.password);
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);
        await page.close();
        expect(problems).toEqual([]);
      });

      it('turns two-factor on, then logs in with a code and with a recovery code', { timeout: 30_000 }, async () => {
        await browser.clearCookies();
        const page = await openPage(DESKTOP);
        const email = emailOf('two-factor');
        // Registering signs in with a fresh password confirmation, which /user/two-factor needs.
        await register(page, email);

        await page.goto(url('/user/two-factor'));
        await page.getByRole('button', { name: 'Turn on' }).click();
        await page.waitForURL(url('/user/two-factor'));
        const key = ((await page.locator('p', { hasText: 'Key:' }).locator('code').textContent()) ?? '').replace(/ /gu, '');
        expect(key).toMatch(/^[A-Z2-7]{32,}$/u);
        const recoveryCodes = await page.locator('.fw-codes code').allTextContents();
        expect(recoveryCodes.length).toBeGreaterThanOrEqual(8);

        // A code is accepted once per 30 s step, and one step either side. Confirming with the
        // code the app showed just before lets the login take the current one without waiting
        // for the next step; near the end of a step, wait for the next one (at most 3 s).
        const intoStep = Date.now() % 30_000;
        if (intoStep > 27_000) await new Promise((resolve) => setTimeout(resolve, 30_000 - intoStep + 100));
        await page.getByLabel('Code', { exact: true }).fill(totpCode(key, Date.now() - 30_000));
        await page.getByRole('button', { name: 'Confirm' }).click();
        await page.waitForURL(url('/user/two-factor'));
        expect(await page.locator('strong').first().textContent()).toBe('on');

        await logOut(page);
        await fillLogin(page, email, USER.password);
        await page.waitForURL(url('/two-factor-challenge'));
        await page.getByLabel('Code', { exact: true }).fill(totpCode(key, Date.now()));
        await page.getByRole('button', { name: 'Log in', exact: true }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);

        await logOut(page);
        await fillLogin(page, email, USER.password);
        await page.waitForURL(url('/two-factor-challenge'));
        await page.getByText('Lost your device? Use a recovery code').click();
        await page.getByLabel('Recovery code').fill(recoveryCodes[0] ?? '');
        await page.getByRole('button', { name: 'Log in with a recovery code' }).click();
        await page.waitForURL(url('/'));
        await expect.poll(() => page.getByRole('button', { name: 'Log out', exact: true }).isVisible()).toBe(true);
        await page.close();
        expect(problems).toEqual([]);
      });
    });
  }
});
