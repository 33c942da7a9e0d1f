/**
 * Renders a snippet that imports the UI kit through fw/ui.html, with the framework's real
 * templates, translations and filters, debug on (printing an undefined value fails), and the
 * per-request functions the kit calls as the HTTP kernel provides them.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import nunjucks from 'nunjucks';
import { afterAll } from 'vitest';
import { FRAMEWORK_TEMPLATES } from '../../../../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../../../../adapters/views/nunjucks/nunjucks-view-renderer.js';
import { registerTranslations } from '../../../../adapters/views/nunjucks/register-translations.js';
import { frameworkTranslator } from '../../../support/lang.js';
import { APP } from '../app-views.js';

const safe = (html: string): unknown => new nunjucks.runtime.SafeString(html);

/** csrf_field() and method_field() as adapters/http/kernel/view-globals.ts writes them. */
export const REQUEST_FUNCTIONS = {
  csrf_field: () => safe('<input type="hidden" name="_token" value="t0ken">'),
  method_field: (verb: string) => safe(`<input type="hidden" name="_method" value="${verb.toUpperCase()}">`),
};

/** One renderer per test file and debug setting, so the kit compiles once; each snippet is a page of its own. */
const renderers = new Map<boolean, { root: string; renderer: NunjucksViewRenderer }>();
let pages = 0;

afterAll(() => {
  for (const { root } of renderers.values()) rmSync(root, { recursive: true, force: true });
  renderers.clear();
});

function rendererOf(debug: boolean): { root: string; renderer: NunjucksViewRenderer } {
  let entry = renderers.get(debug);
  if (entry === undefined) {
    const root = mkdtempSync(join(tmpdir(), 'fw-ui-kit-'));
    const renderer = new NunjucksViewRenderer({
      debug,
      searchPaths: [root, FRAMEWORK_TEMPLATES],
      globals: REQUEST_FUNCTIONS,
      configure: (env) => registerTranslations(env, frameworkTranslator),
    });
    entry = { root, renderer };
    renderers.set(debug, entry);
  }
  return entry;
}

export async function renderKit(macros: string, body: string, context: Record<string, unknown> = {}, options: { debug?: boolean } = {}): Promise<string> {
  const { root, renderer } = rendererOf(options.debug ?? true);
  pages += 1;
  const page = `page-${pages}.html`;
  writeFileSync(join(root, page), `{% from "fw/ui.html" import ${macros} %}${body}`);
  return renderer.render(page, { ...APP, ...context });
}

/** The HTML with runs of whitespace between tags removed, for readable expectations. */
export function squeeze(html: string): string {
  return html.replace(/>[ \t\r\n]+</gu, '><').replace(/[ \t\r\n]+/gu, ' ').trim();
}

/** The opening tag of the first element carrying `marker` (an attribute or class text). */
export function tagWith(html: string, marker: string): string {
  const at = html.indexOf(marker);
  if (at === -1) throw new Error(`no element with ${marker} in ${html}`);
  const start = html.lastIndexOf('<', at);
  return html.slice(start, html.indexOf('>', at) + 1);
}
