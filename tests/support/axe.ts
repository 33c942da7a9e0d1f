import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Page } from 'playwright-core';

/** axe-core's browser build, read once. */
const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

declare const axe: { run(context: unknown, options: unknown): Promise<{ violations: { id: string; impact: string | null; help: string; nodes: { target: unknown[] }[] }[] }> };

/**
 * The accessibility rules axe-core finds broken on the page (WCAG 2.x A and AA, and axe's best
 * practices), one line each with the elements. Injected through the DevTools protocol, not a
 * script tag, so the page's strict CSP stays on and is tested as it is.
 */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE_SOURCE);
  const result = await page.evaluate(() =>
    axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'] }, resultTypes: ['violations'] }),
  );
  return result.violations.map((violation) => `${violation.id} (${violation.impact ?? '?'}): ${violation.help} at ${violation.nodes.map((node) => JSON.stringify(node.target)).join(', ')}`);
}

declare const document: unknown;
