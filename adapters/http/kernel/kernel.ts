import { mountedClientFiles } from './client-assets.js';
import type { AppKeys } from '../../../domain/security/app-keys.js';
import type { TrustedProxies } from '../../../domain/http/client-ip/client-ip.js';
import type { TrustedHosts } from '../../../domain/http/trusted-hosts.js';
import { matchRoute } from '../../../domain/http/routing/match.js';
import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import type { Clock } from '../../../ports/clock.js';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Logger } from '../../../ports/logger.js';
import type { MaintenanceSwitch } from '../../../ports/maintenance-switch.js';
import type { RandomSource } from '../../../ports/random-source.js';
import type { RecordFinder } from '../../../ports/record-finder.js';
import type { SessionStore } from '../../../ports/session-store.js';
import type { Storage } from '../../../ports/storage.js';
import { storageUrl } from '../storage/storage-url.js';
import { requestStorage } from '../storage/request-storage.js';
import type { ViewRenderer } from '../../../ports/view-renderer.js';
import type { AfterResponseWork } from '../after-response.js';
import type { FormServices } from '../validation/form-context.js';
import type { WebhookVerifier } from '../webhooks.js';
import type { AsyncRequestOrigin } from './async-request-origin.js';
import { dispatcher } from './dispatch.js';
import type { Dispatch } from './dispatch.js';
import { ErrorResponder } from './error-responder.js';
import type { ErrorAnswer, ErrorPage } from './error-responder.js';
import { apiClient } from './context.js';
import type { RequestState } from './request.js';
import type { IdentityServices } from './identity.js';
import { PublicFiles } from './public-files.js';
import type { Handler, Middleware } from './request-context.js';
import { compileRouteLayers } from './route-layers.js';
import type { Sealer } from './sealer.js';
import { CookieSessionDriver } from './session/cookie-session-driver.js';
import { DatabaseSessionDriver } from './session/database-session-driver.js';
import { csrfStage } from './stages/csrf.js';
import { maintenanceStage } from './stages/maintenance.js';
import { sessionStage } from './stages/session.js';
import { localeStage } from './stages/locale.js';
import type { LimiterRule } from './stages/throttle.js';
import { timeoutStage } from './stages/timeout.js';
import { userStage } from './stages/user.js';
import { formPageOf } from './form-page.js';
import { viewsStage } from './stages/views.js';
import { viewGlobals } from './view-globals.js';
import type { AppInfo, SharedValue } from './view-globals.js';
import { webhookPaths } from './webhook-routes.js';
import type { DevTools } from '../dev-tools/dev-tools.js';

export interface KernelOptions {
  app: AppInfo;
  /** APP_DEBUG on with APP_ENV=local: error pages show the request, the error and the template line. */
  debugPages: boolean;
  uploadMaxBytes: number;
  /** BODY_MAX_DEPTH: arrays and objects nested deeper in a body are refused with a 400 (by the transport, which reads bodies). */
  bodyMaxDepth: number;
  /** Runs what handlers leave for after their answers; the app's stop waits for it. */
  afterResponse: AfterResponseWork;
  requestTimeoutMs: number;
  trustedProxies: TrustedProxies;
  /** TRUSTED_HOSTS with APP_URL's host; any host when the setting is empty. */
  trustedHosts: TrustedHosts;
  sessionLifetimeMinutes: number;
  /** `SESSION_DRIVER=database`: the store of the sessions; null keeps the whole session in its cookie. */
  sessionStore: SessionStore | null;
  /** Carries each request's address and id to the listeners of the events its handler publishes. */
  origin: AsyncRequestOrigin;
  /** The app's services container, for `ctx.service(key)`. */
  services: (key: symbol) => unknown;
  /** Users, API tokens, the app's access policy and the guards' pages. */
  identity: IdentityServices;
  keys: AppKeys;
  /** Seals cookies (the session cookie, `getEncrypted`): the iron sealer with keys derived from APP_KEY. */
  sealer: Sealer;
  logger: Logger;
  clock: Clock;
  random: RandomSource;
  renderer: ViewRenderer;
  /** Folders served at the site's root, the first holding a path wins: the app's `public/`, then the framework's. */
  publicDirs: readonly string[];
  /** Files in `public/` and templates may change while running (local development). */
  watchFiles: boolean;
  table: RouteTable<Handler>;
  appLayers: readonly Middleware[];
  provided: ReadonlyMap<symbol, unknown>;
  shares: readonly SharedValue[];
  /** The counters of rate limits (CACHE_STORE). */
  cacheStore: CacheStore;
  /** `App.rateLimiter(name, rule)`: the limiters `.throttleBy(name)` uses. */
  rateLimiters: ReadonlyMap<string, LimiterRule>;
  /** `App.xsrfCookie()`: the CSRF token also goes out as the script-readable `XSRF-TOKEN` cookie. */
  xsrfCookie: boolean;
  /** Whether the site is down for maintenance (`fwx down`). */
  maintenance: MaintenanceSwitch;
  /** What form validation reaches beyond the input (unique/exists, current password). */
  forms: FormServices;
  /** Rows for route model binding (`ctx.found`). */
  records: RecordFinder;
  /** `App.webhook(name, verifier)`: the signature checks of `Routes.webhook` routes. */
  webhooks: ReadonlyMap<string, WebhookVerifier>;
  /** The storage disks: local public files served under their path, temporary links, `storage_url()`. */
  storage?: Storage;
  /** Local public disks: the URL path their files are served under (`/storage`) and their folder. */
  publicStorage?: readonly { urlPath: string; root: string }[];
  /** Where uploads wait while their request runs (UPLOAD_TMP_DIR); the system's temporary folder by default. */
  uploadTempDir?: string;
  /** APP_DEBUG on with APP_ENV=local only: live reload (`/_fw/live`) and the request inspector (`/_fw/debug`). */
  devTools?: DevTools | undefined;
}

/** What an error page made by the transport knows of its request. */
export interface FrontRequest {
  method: string;
  path: string;
  query: Readonly<Record<string, string | string[]>>;
  headers: Readonly<Record<string, string | string[] | undefined>>;
  state: RequestState;
}

/** The kernel, built once at start: what each transport needs to serve the app. */
export interface Kernel {
  /** A request the transport has read, to the reply it writes. */
  dispatch: Dispatch;
  /** `public/` folders, served by the transport before the kernel runs. */
  publicFiles: PublicFiles;
  errors: ErrorResponder;
  /**
   * The page (or JSON) of an error the transport met before the kernel ran: a body that is not
   * what its Content-Type says, a refused Host. The session is not open for these, so such
   * pages get the app and the request but no CSRF token or flash.
   */
  errorPage(request: FrontRequest, answer: ErrorAnswer): Promise<ErrorPage>;
  /** APP_URL is https: every cookie is `Secure`, and HSTS goes out. */
  https: boolean;
  /** POST paths whose bodies the transport keeps as bytes (webhook signatures), in hapi's path syntax. */
  rawBodyPaths: readonly string[];
  /** Whether this request's body is kept as bytes: a POST to a webhook route. */
  keepsRawBody(request: { method: string; host: string; path: string }): boolean;
  options: KernelOptions;
}

/**
 * Builds the transport-neutral part of the pipeline of spec 001: the framework's stages in
 * their order (session, locale, views, user, CSRF, maintenance, timeout), the app's layers and each
 * route's own, around the router. The stages before routing (security headers, request id,
 * trusted hosts, body limits, built-in routes) need the transport's request and response, so
 * each transport runs them itself.
 */
export function createKernel(options: KernelOptions): Kernel {
  const https = options.app.url.startsWith('https://');
  const renderer = options.renderer;
  const errors = new ErrorResponder(renderer, options.debugPages);
  const publicFiles = new PublicFiles(options.publicDirs, options.watchFiles, mountedClientFiles());
  const sealer = options.sealer;
  const appOrigin = new URL(options.app.url).origin;
  const storage = options.storage;
  const globalsOptions = {
    app: options.app,
    renderer,
    publicFiles,
    shares: options.shares,
    ...(storage === undefined ? {} : { storageUrl: (key: string, disk?: string) => storageUrl(storage, key, disk) }),
  };

  const driver =
    options.sessionStore === null
      ? new CookieSessionDriver(sealer, options.sessionLifetimeMinutes, options.cacheStore)
      : new DatabaseSessionDriver(options.sessionStore, options.random, options.sessionLifetimeMinutes, options.logger);
  const frameworkStages = [
    sessionStage({ driver, clock: options.clock, random: options.random }),
    localeStage(options.forms.translator),
    // The request inspector (local debugging only) sees the session as it came and as it goes.
    ...(options.devTools?.stages() ?? []),
    viewsStage({ renderer, errors, globals: (ctx) => viewGlobals(ctx, globalsOptions), appOrigin, formPage: (request) => formPageOf(options.table, request) }),
    // The user and CSRF stages run inside the views stage (the spec lists them just before it),
    // so a bearer token's 401 and the 419 are pages or JSON like every other error.
    userStage(options.identity),
    csrfStage({ xsrfCookie: options.xsrfCookie }),
    maintenanceStage({ maintenance: options.maintenance, key: options.keys.maintenanceBypass, clock: options.clock, logger: options.logger }),
    timeoutStage(options.requestTimeoutMs),
  ];

  const dispatch = dispatcher({
    table: options.table,
    shared: { table: options.table, appUrl: options.app.url, locale: options.app.locale, provided: options.provided, sealer, forms: options.forms, signing: { key: options.keys.signedUrls, clock: options.clock }, identity: options.identity, records: options.records, services: options.services, storage: storage === undefined ? null : requestStorage(storage) },
    frameworkStages,
    appLayers: options.appLayers,
    routeLayers: compileRouteLayers(options.table, { store: options.cacheStore, clock: options.clock, rateLimiters: options.rateLimiters, identity: options.identity, webhooks: options.webhooks }),
    origin: options.origin,
    afterResponse: options.afterResponse,
  });
  const errorPage = (request: FrontRequest, answer: ErrorAnswer): Promise<ErrorPage> =>
    errors.respond(
      {
        api: apiClient(request.headers),
        method: request.method,
        path: request.path,
        requestId: request.state.requestId,
        log: request.state.log,
        globals: () => ({
          app: options.app,
          request: { path: request.path, query: request.query, route: null, htmx: request.headers['hx-request'] === 'true', boosted: request.headers['hx-boosted'] === 'true' },
          csp_nonce: () => request.state.nonce,
        }),
      },
      answer,
    );
  const keepsRawBody = (request: { method: string; host: string; path: string }): boolean => {
    if (request.method !== 'POST') return false;
    const match = matchRoute(options.table, request);
    return match.kind === 'matched' && match.route.layers.some((layer) => layer.kind === 'webhook');
  };
  return { dispatch, publicFiles, errors, errorPage, https, rawBodyPaths: webhookPaths(options.table), keepsRawBody, options };
}
