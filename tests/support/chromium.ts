import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { describe, it } from 'vitest';

/** Debian's Chromium (`apt-get install chromium`); playwright-core brings no browser of its own. */
export const CHROMIUM_PATH = '/usr/bin/chromium';

/**
 * Headless, and quiet: no sandbox (CI runs as root in a container), no GPU, and none of the
 * background traffic (updates, sync, QUIC probes) that would make a run depend on the network.
 */
const ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

/**
 * A browser suite. Outside CI a machine without Chromium skips it and says so; in CI
 * (`CI=true`) it is replaced by one failing test, since a skipped browser suite there would
 * hide that the pages were never checked in a browser (a failing hook would count as skipped
 * tests in the run's summary).
 */
export function describeInChromium(name: string, body: () => void): void {
  if (existsSync(CHROMIUM_PATH)) {
    describe(name, body);
  } else if (process.env['CI'] === 'true') {
    describe(name, () => {
      it(`finds Chromium at ${CHROMIUM_PATH}`, () => {
        throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; CI installs it (.ci/run: apt-get install chromium)`);
      });
    });
  } else {
    console.warn(`[tests] ${CHROMIUM_PATH} is missing: the browser suites are SKIPPED. Install Debian's chromium package to run them.`);
    describe.skip(name, body);
  }
}

/** The DOM globals the in-page function below uses (the project's types leave out the DOM library). */
declare const document: {
  addEventListener(type: 'securitypolicyviolation', listener: (event: { violatedDirective: string; blockedURI: string }) => void): void;
};
declare const window: { fwCspViolation(text: string): Promise<void> };

/**
 * Tells `report` of every Content-Security-Policy violation in the browser's pages, with the
 * page's URL. They reach the console too, but this names the directive and what was blocked.
 */
export async function watchCspViolations(browser: BrowserContext, report: (pageUrl: string, text: string) => void): Promise<void> {
  await browser.exposeBinding('fwCspViolation', (source, text: string) => {
    report(source.frame.url(), text);
  });
  await browser.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      void window.fwCspViolation(`${event.violatedDirective} blocked ${event.blockedURI}`);
    });
  });
}

/**
 * Chromium with a fresh profile in `userDataDir` (no cookies, cache or settings of an earlier run).
 * `javaScript: false` for checking that pages do their basic job without scripts.
 */
export async function launchChromium(userDataDir: string, options: { javaScript?: boolean } = {}): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; CI installs it (.ci/run: apt-get install chromium)`);
  return chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    javaScriptEnabled: options.javaScript ?? true,
  });
}
