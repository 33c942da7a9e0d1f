/**
 * Two view functions that write markup from request data: `query_fields(...)` and `seo(...)`.
 * Every value is escaped; nothing here trusts the query string or the app's texts.
 */
import { escapeHtml } from './error-responder.js';

/**
 * `query_fields('q', 'page')`: hidden inputs for the current query parameters except the named
 * ones, so a GET form (a search box, a filter) keeps the rest of the page's state when it
 * submits. A parameter given several times (`?tag=a&tag=b`) gets one input per value.
 */
export function queryFieldsHtml(query: Readonly<Record<string, unknown>>, except: readonly string[]): string {
  const skipped = new Set(except);
  const inputs: string[] = [];
  for (const [name, value] of Object.entries(query)) {
    if (skipped.has(name)) continue;
    for (const item of Array.isArray(value) ? (value as unknown[]) : [value]) {
      if (item === null || item === undefined) continue;
      inputs.push(`<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(text(item))}">`);
    }
  }
  return inputs.join('');
}

export interface SeoInput {
  title?: unknown;
  description?: unknown;
  image?: unknown;
  type?: unknown;
  canonical?: unknown;
}

export interface SeoPage {
  /** APP_URL: relative image and canonical URLs are made absolute against it. */
  appUrl: string;
  /** The current path, the canonical URL when none is given (without the query string). */
  path: string;
  siteName: string;
}

/**
 * `seo(title, description, image, type, canonical)`: the page's `<title>`, meta description,
 * Open Graph and Twitter card tags and canonical link. Crawlers and link previews need
 * absolute URLs, so relative ones are resolved against APP_URL. Empty parts are left out.
 */
export function seoHtml(input: SeoInput, page: SeoPage): string {
  const title = text(input.title);
  const description = text(input.description);
  const image = text(input.image);
  const type = text(input.type) || 'website';
  // The request's own path defaults the canonical URL; `//evil.example/x` or `/\evil.example/x`
  // would resolve to another host, so its leading slashes are folded into one.
  const canonical = absolute(text(input.canonical) || `/${page.path.replace(/^[/\\]+/u, '')}`, page.appUrl);
  const imageUrl = image === '' ? '' : absolute(image, page.appUrl);
  const tags: string[] = [];
  const meta = (attribute: 'name' | 'property', key: string, value: string): void => {
    if (value !== '') tags.push(`<meta ${attribute}="${key}" content="${escapeHtml(value)}">`);
  };
  if (title !== '') tags.push(`<title>${escapeHtml(title)}</title>`);
  meta('name', 'description', description);
  if (canonical !== '') tags.push(`<link rel="canonical" href="${escapeHtml(canonical)}">`);
  meta('property', 'og:title', title);
  meta('property', 'og:description', description);
  meta('property', 'og:type', type);
  meta('property', 'og:url', canonical);
  meta('property', 'og:image', imageUrl);
  meta('property', 'og:site_name', page.siteName);
  meta('name', 'twitter:card', imageUrl === '' ? 'summary' : 'summary_large_image');
  meta('name', 'twitter:title', title);
  meta('name', 'twitter:description', description);
  meta('name', 'twitter:image', imageUrl);
  return tags.join('\n');
}

function text(value: unknown): string {
  // Query values and template arguments are strings, numbers or booleans; anything else is left out.
  return typeof value === 'string' || typeof value === 'number' || value === true ? String(value).trim() : '';
}

/** `/img/a.png` → `https://shop.example/img/a.png`; an absolute http(s) URL stays; any other scheme is dropped. */
function absolute(url: string, base: string): string {
  try {
    const resolved = new URL(url, base.endsWith('/') ? base : `${base}/`);
    return resolved.protocol === 'http:' || resolved.protocol === 'https:' ? resolved.toString() : '';
  } catch {
    return '';
  }
}
