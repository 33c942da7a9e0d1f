/**
 * The framework's client side as `fw_head()` and `fw_ui()` print it: the CSRF meta tag, htmx
 * (pinned in package.json, served from the npm package itself), htmx's configuration, the
 * framework's script `fw/fw.js`, and the UI kit's stylesheets and area scripts. Every tag
 * carries the request's CSP nonce and every URL comes from `asset()` (`?v=<hash>`), so the
 * strict CSP (`script-src 'self' 'nonce-…'`) holds and browsers cache the files for a year.
 */
import { createRequire } from 'node:module';
import { escapeHtml } from './error-responder.js';
import type { PublicFiles } from './public-files.js';

/** Where the framework serves htmx: a public path like any other, so an app's own file there wins. */
export const HTMX_PATH = '/fw/htmx.min.js';

/** The minified htmx of the pinned `htmx.org` package, the file served at `HTMX_PATH`. */
export function htmxFile(): string {
  return createRequire(import.meta.url).resolve('htmx.org/dist/htmx.min.js');
}

/** The files the framework serves from outside its public folder, for `PublicFiles`. */
export function mountedClientFiles(): Map<string, string> {
  return new Map([[HTMX_PATH, htmxFile()]]);
}

/**
 * htmx's settings, read from `<meta name="htmx-config">` (no inline script needed):
 * - no `<style>` injected for request indicators (the CSP refuses it; the kit styles them);
 * - no `eval` (`hx-on`, `js:` values) and no `<script>` run from swapped content: both would
 *   be inline code the CSP refuses;
 * - a 422 answer is swapped like a success (a sheet's form comes back with its errors);
 *   fw.js turns a JSON 422 into messages under the fields instead.
 */
export const HTMX_CONFIG = {
  includeIndicatorStyles: false,
  allowEval: false,
  allowScriptTags: false,
  selfRequestsOnly: true,
  responseHandling: [
    { code: '204', swap: false },
    { code: '[23]..', swap: true },
    { code: '422', swap: true, error: false },
    { code: '[45]..', swap: false, error: true },
  ],
};

function nonceAttribute(nonce: string | undefined): string {
  return nonce === undefined || nonce === '' ? '' : ` nonce="${escapeHtml(nonce)}"`;
}

/**
 * `fw_head()`: the CSRF token for scripts, htmx's settings, htmx and fw.js (deferred, in this
 * order: fw.js listens to htmx's events). Without a session the token is empty (a bare render).
 */
export function fwHead(publicFiles: PublicFiles, nonce: string | undefined, token: string): string {
  const attribute = nonceAttribute(nonce);
  return (
    `<meta name="csrf-token" content="${escapeHtml(token)}">\n${HTMX_CONFIG_META}\n` +
    `<script src="${escapeHtml(publicFiles.assetUrl(HTMX_PATH))}" defer${attribute}></script>\n` +
    `<script src="${escapeHtml(publicFiles.assetUrl('/fw/fw.js'))}" defer${attribute}></script>`
  );
}

/** The same on every page: escaped once (escaping its JSON on every render was ~1 % of a page). */
const HTMX_CONFIG_META = `<meta name="htmx-config" content="${escapeHtml(JSON.stringify(HTMX_CONFIG))}">`;

/**
 * `fw_ui()`: a stylesheet link for every `public/fw/ui/*.css` (the tokens of `theme.css` first,
 * the areas after it by name) and a module script for every `public/fw/ui/*.js`. An app adds
 * or replaces an area's file by putting one of the same name in its own `public/fw/ui/`.
 */
export function fwUi(publicFiles: PublicFiles, nonce: string | undefined): string {
  const names = publicFiles.list('fw/ui');
  // Outside local development the listing is the same array on every page (public-files.ts):
  // its sorted, escaped URLs are worked out once; only the nonce differs per request.
  let urls = UI_URLS.get(names);
  if (urls === undefined) {
    urls = uiUrls(publicFiles, names);
    UI_URLS.set(names, urls);
  }
  const attribute = nonceAttribute(nonce);
  return [
    ...urls.styles.map((href) => `<link rel="stylesheet" href="${href}"${attribute}>`),
    ...urls.scripts.map((src) => `<script type="module" src="${src}"${attribute}></script>`),
  ].join('\n');
}

const UI_URLS = new WeakMap<readonly string[], { styles: string[]; scripts: string[] }>();

function uiUrls(publicFiles: PublicFiles, names: readonly string[]): { styles: string[]; scripts: string[] } {
  const styles = names.filter((name) => name.endsWith('.css')).sort((a, b) => Number(b === 'theme.css') - Number(a === 'theme.css') || a.localeCompare(b));
  const scripts = names.filter((name) => name.endsWith('.js'));
  const url = (name: string): string => escapeHtml(publicFiles.assetUrl(`/fw/ui/${name}`));
  return { styles: styles.map(url), scripts: scripts.map(url) };
}
