import type { ViewRenderer } from '../../../ports/view-renderer.js';
import type { Toast } from './replies.js';
import { escapeHtml } from './error-responder.js';
import type { KernelContext } from './context.js';
import type { PublicFiles } from './public-files.js';
import { queryFieldsHtml, seoHtml } from './page-head.js';
import { TEMPLATE_ABILITIES, TemplateAbilities } from './template-abilities.js';
import { fwHead, fwUi } from './client-assets.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** The flash key toasts wait under until the page that shows them. */
export const TOASTS_KEY = 'fw:toasts';

export interface AppInfo {
  name: string;
  env: string;
  debug: boolean;
  url: string;
  locale: string;
  /** APP_TIMEZONE, read by the `date` filter. */
  timezone?: string;
  /** APP_CURRENCY, `app.currency` in views. */
  currency?: string;
}

/** A value an app adds to every view: `App.share(name, ctx => value)`. */
export interface SharedValue {
  name: string;
  compute(ctx: KernelContext): unknown;
}

export interface ViewGlobalsOptions {
  app: AppInfo;
  renderer: ViewRenderer;
  publicFiles: PublicFiles;
  shares: readonly SharedValue[];
  /** `storage_url(key, disk?)`: the public URL of a stored file; absent when the app has no storage. */
  storageUrl?: (key: string, disk?: string) => string;
}

type Keywords = Record<string, unknown> & { __keywords?: true };

/** nunjucks hands named arguments (`route('x', page=2)`) over as a last object marked `__keywords`. */
function splitKeywords(args: unknown[]): { positional: unknown[]; keywords: Record<string, unknown> } {
  const last = args.at(-1);
  if (typeof last === 'object' && last !== null && (last as Keywords).__keywords === true) {
    const { __keywords: _marker, ...keywords } = last as Keywords;
    return { positional: args.slice(0, -1), keywords };
  }
  return { positional: args, keywords: {} };
}

function withQuery(path: string, query: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== null && item !== undefined && item !== '') params.append(key, String(item as string | number | boolean));
    }
  }
  const text = params.toString();
  return text === '' ? path : `${path}?${text}`;
}

/**
 * The globals and functions of spec 002 that every view receives, read from this request's
 * context and session. Values an app shares (`App.share`) are computed once per request.
 */
export async function viewGlobals(ctx: KernelContext, options: ViewGlobalsOptions): Promise<Record<string, unknown>> {
  const { renderer } = options;
  const session = ctx.hasSession() ? ctx.session : null;
  const nonce = ctx.request.state.nonce;
  const token = session?.token() ?? '';
  const query = ctx.query;

  const flash: Record<string, unknown> = {};
  for (const key of session?.flashed() ?? []) if (!key.startsWith('_') && key !== TOASTS_KEY) flash[key] = session?.get(key);

  const globals: Record<string | symbol, unknown> = {
    app: { ...options.app, locale: ctx.locale },
    request: { path: ctx.path, query, route: ctx.route.name, htmx: ctx.hx.request, boosted: ctx.hx.boosted },
    auth: { check: ctx.user !== null, user: ctx.user?.forViews() ?? null },
    flash,
    errors: session?.errors() ?? {},
    csrf_token: token,
    old: (field: string, fallback: unknown = '') => session?.old(field, fallback) ?? fallback,
    has_old: () => session?.hasOldInput() ?? false,
    error: (field: string, bag = 'default') => session?.errors(bag)[field]?.[0] ?? null,
    errors_in: (bag: string) => session?.errors(bag) ?? {},
    csrf_field: () => renderer.safe(`<input type="hidden" name="_token" value="${escapeHtml(token)}">`),
    method_field: (verb: string) => renderer.safe(`<input type="hidden" name="_method" value="${escapeHtml(verb.toUpperCase())}">`),
    route: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywords(args);
      const [name, ...rest] = positional;
      return ctx.urls.route(String(name), rest as (string | number)[], keywords);
    },
    asset: (path: string) => options.publicFiles.assetUrl(path),
    storage_url: (key: string, disk?: string) => {
      if (options.storageUrl === undefined) throw new FrameworkError('http.no-storage', 'storage_url() needs the app\'s storage disks');
      return options.storageUrl(String(key), disk === undefined ? undefined : String(disk));
    },
    route_is: (...patterns: string[]) => ctx.route.is(...patterns),
    route_exists: (name: string) => ctx.urls.has(name),
    class_names: (...args: unknown[]) => classNames(args),
    csp_nonce: () => nonce,
    fw_head: () => renderer.safe(fwHead(options.publicFiles, nonce, token)),
    fw_ui: () => renderer.safe(fwUi(options.publicFiles, nonce)),
    toasts: () => renderer.safe(toastList(session?.get(TOASTS_KEY), ctx.lang.t('ui.toast.dismiss'))),
    page_url: (page: number) => withQuery(ctx.path, { ...query, page }),
    query_with: (...args: unknown[]) => {
      const { positional, keywords } = splitKeywords(args);
      const changes = { ...(typeof positional[0] === 'object' && positional[0] !== null ? (positional[0] as Record<string, unknown>) : {}), ...keywords };
      return withQuery(ctx.path, { ...query, ...changes });
    },
  };
  // uiglobals: auth.roles, can(), query_fields(), seo() (page-head.ts, template-abilities.ts).
  (globals['auth'] as Record<string, unknown>)['roles'] = ctx.user === null ? [] : await ctx.user.roles();
  const abilities = new TemplateAbilities(ctx.user);
  globals['can'] = abilities.can;
  globals[TEMPLATE_ABILITIES] = abilities;
  globals['query_fields'] = (...names: unknown[]) => renderer.safe(queryFieldsHtml(query, splitKeywords(names).positional.flat().map(String)));
  globals['seo'] = (...args: unknown[]) => {
    const { positional, keywords } = splitKeywords(args);
    const [title, description, image, type, canonical] = positional;
    const input = { title, description, image, type, canonical, ...keywords };
    return renderer.safe(seoHtml(input, { appUrl: options.app.url, path: ctx.path, siteName: options.app.name }));
  };
  for (const share of options.shares) globals[share.name] = await share.compute(ctx);
  return globals;
}

function classNames(args: unknown[]): string {
  const names: string[] = [];
  for (const arg of args) {
    if (typeof arg === 'string' && arg !== '') names.push(arg);
    else if (typeof arg === 'object' && arg !== null && !Array.isArray(arg)) {
      for (const [name, on] of Object.entries(arg as Record<string, unknown>)) if (name !== '__keywords' && on === true) names.push(name);
    } else if (Array.isArray(arg)) names.push(classNames(arg));
  }
  return names.filter((name) => name !== '').join(' ');
}

/**
 * The toasts region: always there (a live region must exist before fw.js adds a toast from an
 * `HX-Trigger` header to it), `role="status"` so screen readers announce what is added. The
 * dismiss buttons show only with JavaScript (fw.css hides them under `html:not(.fw-js)`).
 */
function toastList(value: unknown, dismiss: string): string {
  const toasts = Array.isArray(value) ? (value as Pick<Toast, 'level' | 'message'>[]) : [];
  const items = toasts
    .map(
      (toast) =>
        `<div class="fw-toast fw-toast-${escapeHtml(String(toast.level))}"><p class="fw-toast-text">${escapeHtml(String(toast.message))}</p>` +
        `<button type="button" class="fw-toast-close" data-fw-dismiss aria-label="${escapeHtml(dismiss)}">×</button></div>`,
    )
    .join('');
  return `<div class="fw-toasts" role="status" aria-live="polite" data-fw-toasts>${items}</div>`;
}
