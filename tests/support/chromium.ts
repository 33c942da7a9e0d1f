import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import type { BrowserContext } from 'playwright-core';
import { beforeEach, describe, it } from 'vitest';

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
    describe(name, () => {
      beforeEach((context) => {
        traffic.length = 0;
        trafficSince = performance.now();
        context.onTestFailed(() => {
          console.error(`[tests] what the browser's pages asked and got during the failed test:\n${trafficReport()}`);
        });
      });
      body();
    });
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
 * The requests and answers of every browser this test file launched, during the current test:
 * a test that fails under load in CI (an element that never appeared) then tells what the page
 * asked for, in which order, and what came back, instead of only which wait ran out.
 */
const traffic: { at: number; line: string }[] = [];
let trafficSince = performance.now();
const TRAFFIC_LINES = 400;

function recordTraffic(line: string, at = performance.now()): void {
  traffic.push({ at, line });
  if (traffic.length > TRAFFIC_LINES) traffic.shift();
}

function trafficReport(): string {
  return [...traffic]
    .sort((a, b) => a.at - b.at)
    .map((each) => `+${Math.round(each.at - trafficSince)} ms ${each.line}`)
    .join('\n');
}

function pathOf(url: string): string {
  const parsed = new URL(url);
  return parsed.protocol.startsWith('http') ? `${parsed.pathname}${parsed.search}` : url.slice(0, 60);
}

function watchTraffic(context: BrowserContext): void {
  context.on('request', (request) => {
    const headers = request.headers();
    const marks = ['hx-request', 'x-fw-validate'].filter((name) => headers[name] !== undefined).map((name) => ` ${name}: ${headers[name]}`);
    recordTraffic(`-> ${request.method()} ${pathOf(request.url())}${marks.join('')}`);
  });
  context.on('response', (response) => {
    const at = performance.now();
    const line = `<- ${response.status()} ${response.request().method()} ${pathOf(response.url())}`;
    // headers() leaves out Set-Cookie; allHeaders() has it, a moment later.
    void response.allHeaders().then(
      (headers) => {
        const marks = ['set-cookie', 'hx-refresh', 'hx-redirect', 'hx-trigger', 'location'].filter((name) => headers[name] !== undefined);
        recordTraffic(`${line}${marks.length > 0 ? ` (${marks.join(', ')})` : ''}`, at);
      },
      () => recordTraffic(line, at),
    );
  });
  context.on('requestfailed', (request) => recordTraffic(`!! ${request.method()} ${pathOf(request.url())}: ${request.failure()?.errorText ?? 'failed'}`));
  context.on('page', (page) => {
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) recordTraffic(`page at ${pathOf(frame.url())}`);
    });
  });
}

/**
 * Chromium with a fresh profile in `userDataDir` (no cookies, cache or settings of an earlier run).
 * `javaScript: false` for checking that pages do their basic job without scripts.
 */
export async function launchChromium(userDataDir: string, options: { javaScript?: boolean } = {}): Promise<BrowserContext> {
  if (!existsSync(CHROMIUM_PATH)) throw new Error(`Chromium is missing at ${CHROMIUM_PATH}; CI installs it (.ci/run: apt-get install chromium)`);
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 800 },
    deviceScaleFactor: 1,
    colorScheme: 'light',
    reducedMotion: 'reduce',
    javaScriptEnabled: options.javaScript ?? true,
  });
  watchTraffic(context);
  return context;
}
