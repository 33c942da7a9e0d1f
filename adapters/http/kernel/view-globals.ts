import type { ViewRenderer } from '../../../ports/view-renderer.js';
import type { Toast } from './replies.js';
import { escapeHtml } from './error-responder.js';
import type { KernelContext } from './context.js';
import type { PublicFiles } from './public-files.js';
import { queryFieldsHtml, seoHtml } from './page-head.js';
import { TEMPLATE_ABILITIES, TemplateAbilities } from './template-abilities.js';
import { fwHead, fwUi } from './client-assets.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import { maskToken, padLength } from '../../../domain/http/csrf-mask.js';
import type { RandomSource } from '../../../ports/random-source.js';

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
  /** The pads that mask the CSRF token each response prints (`csrf-mask.ts`). */
  random: RandomSource;
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
 * One request's view globals: each call gives a new object holding them, with `data` (a view's
 * own values) on top. Each render gets an object of its own, so a template's top-level
 * `{% set %}` never reaches another render, and the renderer may keep it as the template's
 * variables instead of copying it (`RenderOptions.fresh`).
 */
export type ViewGlobals = (data?: Readonly<Record<string, unknown>>) => Record<string | symbol, unknown>;

/**
 * The globals and functions of spec 002 that every view receives, read from this request's
 * context and session. Values an app shares (`App.share`) are computed once per request.
 *
 * What depends on the request (the functions, the shared values, the roles) is made once here;
 * the object is an object literal made per render. Why not a copy: V8 copies an object with
 * a spread quickly, but adding a property to such a copy (the view's data, the renderer's
 * stack functions) took ~2 µs each, as every copy gets a layout of its own; a literal's layout
 * is shared by every request, so adding to it is a cached step (docs/performance.md, views round).
 */
export async function viewGlobals(ctx: KernelContext, options: ViewGlobalsOptions): Promise<ViewGlobals> {
  const { renderer } = options;
  const session = ctx.hasSession() ? ctx.session : null;
  const nonce = ctx.request.state.nonce;
  // Pages print the token masked with a pad of their own (BREACH: csrf-mask.ts): one pad per
  // response, shared by `csrf_token`, every `csrf_field()` and `fw_head()` of its renders.
  const token = printedToken(session?.token() ?? '', options.random);
  if (token !== '') ctx.request.state.printedCsrfToken = token;
  const query = ctx.query;
  const fixed = appFunctions(options);

  const flash: Record<string, unknown> = {};
  for (const key of session?.flashed() ?? []) if (!key.startsWith('_') && key !== TOASTS_KEY) flash[key] = session?.get(key);

  const app = { ...options.app, locale: ctx.locale };
  const request = { path: ctx.path, query, route: ctx.route.name, htmx: ctx.hx.request, boosted: ctx.hx.boosted };
  // uiglobals: auth.roles, can(), query_fields(), seo() (page-head.ts, template-abilities.ts).
  const auth = { check: ctx.user !== null, user: ctx.user?.forViews() ?? null, roles: ctx.user === null ? [] : await ctx.user.roles() };
  const errors = session?.errors() ?? {};
  const abilities = new TemplateAbilities(ctx.user);
  const old = (field: string, fallback: unknown = '') => session?.old(field, fallback) ?? fallback;
  const hasOld = () => session?.hasOldInput() ?? false;
  const error = (field: string, bag = 'default') => session?.errors(bag)[field]?.[0] ?? null;
  const errorsIn = (bag: string) => session?.errors(bag) ?? {};
  const csrfField = () => renderer.safe(`<input type="hidden" name="_token" value="${escapeHtml(token)}">`);
  const route = (...args: unknown[]) => {
    const { positional, keywords } = splitKeywords(args);
    const [name, ...rest] = positional;
    return ctx.urls.route(String(name), rest as (string | number)[], keywords);
  };
  const routeIs = (...patterns: string[]) => ctx.route.is(...patterns);
  const routeExists = (name: string) => ctx.urls.has(name);
  const cspNonce = () => nonce;
  const head = () => renderer.safe(fwHead(options.publicFiles, nonce, token));
  const ui = () => renderer.safe(fwUi(options.publicFiles, nonce));
  const toasts = () => renderer.safe(toastList(session?.get(TOASTS_KEY), ctx.lang.t('ui.toast.dismiss')));
  const pageUrl = (page: number) => withQuery(ctx.path, { ...query, page });
  const queryWith = (...args: unknown[]) => {
    const { positional, keywords } = splitKeywords(args);
    const changes = { ...(typeof positional[0] === 'object' && positional[0] !== null ? (positional[0] as Record<string, unknown>) : {}), ...keywords };
    return withQuery(ctx.path, { ...query, ...changes });
  };
  const queryFields = (...names: unknown[]) => renderer.safe(queryFieldsHtml(query, splitKeywords(names).positional.flat().map(String)));
  const seo = (...args: unknown[]) => {
    const { positional, keywords } = splitKeywords(args);
    const [title, description, image, type, canonical] = positional;
    const input = { title, description, image, type, canonical, ...keywords };
    return renderer.safe(seoHtml(input, { appUrl: options.app.url, path: ctx.path, siteName: options.app.name }));
  };
  const shared: [string, unknown][] = [];
  for (const share of options.shares) shared.push([share.name, await share.compute(ctx)]);

  return (data) => {
    const globals: Record<string | symbol, unknown> = {
      app,
      request,
      auth,
      flash,
      errors,
      csrf_token: token,
      old,
      has_old: hasOld,
      error,
      errors_in: errorsIn,
      csrf_field: csrfField,
      method_field: fixed.methodField,
      route,
      asset: fixed.asset,
      storage_url: fixed.storageUrl,
      route_is: routeIs,
      route_exists: routeExists,
      class_names: fixed.classNames,
      csp_nonce: cspNonce,
      fw_head: head,
      fw_ui: ui,
      toasts,
      page_url: pageUrl,
      query_with: queryWith,
      can: abilities.can,
      query_fields: queryFields,
      seo,
      [TEMPLATE_ABILITIES]: abilities,
    };
    for (const [name, value] of shared) globals[name] = value;
    if (data !== undefined) addOwnValues(globals, data);
    return globals;
  };
}

/** The session's CSRF token masked with a fresh pad; empty without a session (a bare render). */
export function printedToken(token: string, random: RandomSource): string {
  return token === '' ? '' : maskToken(token, random.bytes(padLength(token)));
}

/**
 * `Object.assign`, except for a `__proto__` key (data parsed from JSON may have one): assigning
 * it would change the object's prototype, where a spread makes it a plain property.
 */
function addOwnValues(target: Record<string | symbol, unknown>, source: Readonly<Record<string, unknown>>): void {
  if (Object.hasOwn(source, '__proto__')) {
    for (const key of Reflect.ownKeys(source)) {
      if (Object.prototype.propertyIsEnumerable.call(source, key)) Object.defineProperty(target, key, { value: source[key as string], writable: true, enumerable: true, configurable: true });
    }
    return;
  }
  Object.assign(target, source);
}

interface AppFunctions {
  methodField: (verb: string) => unknown;
  asset: (path: string) => string;
  storageUrl: (key: string, disk?: string) => string;
  classNames: (...args: unknown[]) => string;
}

/** The view functions that read nothing of the request, made once per app (per options object). */
const appFunctionsByOptions = new WeakMap<ViewGlobalsOptions, AppFunctions>();

function appFunctions(options: ViewGlobalsOptions): AppFunctions {
  const known = appFunctionsByOptions.get(options);
  if (known !== undefined) return known;
  const { renderer } = options;
  const made: AppFunctions = {
    methodField: (verb) => renderer.safe(`<input type="hidden" name="_method" value="${escapeHtml(verb.toUpperCase())}">`),
    asset: (path) => options.publicFiles.assetUrl(path),
    storageUrl: (key, disk) => {
      if (options.storageUrl === undefined) throw new FrameworkError('http.no-storage', 'storage_url() needs the app\'s storage disks');
      return options.storageUrl(String(key), disk === undefined ? undefined : String(disk));
    },
    classNames: (...args) => classNames(args),
  };
  appFunctionsByOptions.set(options, made);
  return made;
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
