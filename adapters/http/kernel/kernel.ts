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
import type { RequestOrigin } from '../../../ports/request-origin.js';
import { dispatcher } from './dispatch.js';
import type { Dispatch } from './dispatch.js';
import { ErrorResponder } from './error-responder.js';
import type { ErrorAnswer, ErrorPage } from './error-responder.js';
import { apiClient } from './context.js';
import type { RequestState } from './request.js';
import type { IdentityServices } from './identity.js';
import { PublicFiles } from './public-files.js';
import type { Handler, Middleware } from './request-context.js';
import type { RouteLayerPlan } from './route-layers.js';
import type { Sealer } from './sealer.js';
import { CookieSessionDriver } from './session/cookie-session-driver.js';
import { DatabaseSessionDriver } from './session/database-session-driver.js';
import { csrfStage } from './stages/csrf.js';
import { maintenanceStage } from './stages/maintenance.js';
import { sessionStage } from './stages/session.js';
import { localeStage } from './stages/locale.js';
import { timeoutStage } from './stages/timeout.js';
import { userStage } from './stages/user.js';
import { formPageOf } from './form-page.js';
import { viewsStage } from './stages/views.js';
import { viewGlobals } from './view-globals.js';
import type { AppInfo, SharedValue } from './view-globals.js';
import { webhookPaths } from './webhook-routes.js';
import type { DevTools } from '../dev-tools/dev-tools.js';

/** Settings read once from the configuration. */
export interface KernelSettings {
  app: AppInfo;
  /** APP_DEBUG on with APP_ENV=local: error pages show the request, the error and the template line. */
  debugPages: boolean;
  uploadMaxBytes: number;
  /** BODY_MAX_DEPTH: arrays and objects nested deeper in a body are refused with a 400 (by the transport, which reads bodies). */
  bodyMaxDepth: number;
  requestTimeoutMs: number;
  trustedProxies: TrustedProxies;
  /** TRUSTED_HOSTS with APP_URL's host; any host when the setting is empty. */
  trustedHosts: TrustedHosts;
  sessionLifetimeMinutes: number;
  /** Folders served at the site's root, the first holding a path wins: the app's `public/`, then the framework's. */
  publicDirs: readonly string[];
  /** Files in `public/` and templates may change while running (local development). */
  watchFiles: boolean;
  /** `App.xsrfCookie()`: the CSRF token also goes out as the script-readable `XSRF-TOKEN` cookie. */
  xsrfCookie: boolean;
  /** Local public disks: the URL path their files are served under (`/storage`) and their folder. */
  publicStorage?: readonly { urlPath: string; root: string }[];
  /** Where uploads wait while their request runs (UPLOAD_TMP_DIR); the system's temporary folder by default. */
  uploadTempDir?: string;
}

/** The ports and adapters the pipeline calls, built by composition. */
export interface KernelServices {
  /** APP_KEY's derived keys (maintenance bypass, signed URLs). */
  keys: AppKeys;
  /** Seals cookies (the session cookie, `getEncrypted`): the iron sealer with keys derived from APP_KEY. */
  sealer: Sealer;
  logger: Logger;
  clock: Clock;
  random: RandomSource;
  renderer: ViewRenderer;
  /** `SESSION_DRIVER=database`: the store of the sessions; null keeps the whole session in its cookie. */
  sessionStore: SessionStore | null;
  /** Ended logins of cookie sessions (CACHE_STORE). */
  cacheStore: CacheStore;
  /** Users, API tokens, the app's access policy and the guards' pages. */
  identity: IdentityServices;
  /** What form validation reaches beyond the input (unique/exists, current password). */
  forms: FormServices;
  /** Rows for route model binding (`ctx.found`). */
  records: RecordFinder;
  /** Whether the site is down for maintenance (`fwx down`). */
  maintenance: MaintenanceSwitch;
  /**
   * The app's services as one request sees them, for `ctx.service(key)`: given the request's
   * origin (address, id), which the events its handler publishes carry to their listeners.
   */
  container: (origin: RequestOrigin) => (key: symbol) => unknown;
  /** Runs what handlers leave for after their answers; the app's stop waits for it. */
  afterResponse: AfterResponseWork;
  /** The storage disks: local public files served under their path, temporary links, `storage_url()`. */
  storage?: Storage;
  /** APP_DEBUG on with APP_ENV=local only: live reload (`/_fw/live`) and the request inspector (`/_fw/debug`). */
  devTools?: DevTools | undefined;
}

/** What the app declared, compiled once at start. */
export interface KernelPlans {
  table: RouteTable<Handler>;
  /**
   * Each route's own layers compiled into its plan (`compileRouteLayers`: middleware, CSRF
   * exemption, webhook, ETag, live form); an unknown layer or a limiter or webhook check the app
   * did not register has already stopped start-up.
   */
  routeLayers: ReadonlyMap<object, RouteLayerPlan>;
  /** `App.layer` middleware, first added outermost. */
  appLayers: readonly Middleware[];
  /** `App.provide` values (`ctx.provided(key)`). */
  provided: ReadonlyMap<symbol, unknown>;
  /** `App.share` values every view receives. */
  shares: readonly SharedValue[];
}

/** What the kernel is made of: settings, services, and the app's compiled plans. */
export interface KernelOptions {
  settings: KernelSettings;
  services: KernelServices;
  plans: KernelPlans;
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
  const { settings, services, plans } = options;
  const https = settings.app.url.startsWith('https://');
  const renderer = services.renderer;
  const errors = new ErrorResponder(renderer, settings.debugPages);
  const publicFiles = new PublicFiles(settings.publicDirs, settings.watchFiles, mountedClientFiles());
  const sealer = services.sealer;
  const appOrigin = new URL(settings.app.url).origin;
  const storage = services.storage;
  const globalsOptions = {
    app: settings.app,
    renderer,
    publicFiles,
    shares: plans.shares,
    random: services.random,
    ...(storage === undefined ? {} : { storageUrl: (key: string, disk?: string) => storageUrl(storage, key, disk) }),
  };

  const driver =
    services.sessionStore === null
      ? new CookieSessionDriver(sealer, settings.sessionLifetimeMinutes, services.cacheStore)
      : new DatabaseSessionDriver(services.sessionStore, services.random, settings.sessionLifetimeMinutes, services.logger);
  const frameworkStages = [
    sessionStage({ driver, clock: services.clock, random: services.random }),
    localeStage(services.forms.translator),
    // The request inspector (local debugging only) sees the session as it came and as it goes.
    ...(services.devTools?.stages() ?? []),
    viewsStage({ renderer, errors, globals: (ctx) => viewGlobals(ctx, globalsOptions), appOrigin, formPage: (request) => formPageOf(plans.table, request) }),
    // The user and CSRF stages run inside the views stage (the spec lists them just before it),
    // so a bearer token's 401 and the 419 are pages or JSON like every other error.
    userStage(services.identity),
    csrfStage({ xsrfCookie: settings.xsrfCookie, random: services.random }),
    maintenanceStage({ maintenance: services.maintenance, key: services.keys.maintenanceBypass, clock: services.clock, logger: services.logger }),
    timeoutStage(settings.requestTimeoutMs),
  ];

  const dispatch = dispatcher({
    table: plans.table,
    shared: { table: plans.table, appUrl: settings.app.url, locale: settings.app.locale, provided: plans.provided, sealer, forms: services.forms, signing: { key: services.keys.signedUrls, clock: services.clock }, identity: services.identity, records: services.records, services: services.container, storage: storage === undefined ? null : requestStorage(storage) },
    frameworkStages,
    appLayers: plans.appLayers,
    routeLayers: plans.routeLayers,
    // Local debugging only: the request inspector follows each request through its awaits.
    scope: services.devTools === undefined ? null : services.devTools,
    afterResponse: services.afterResponse,
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
          app: settings.app,
          request: { path: request.path, query: request.query, route: null, htmx: request.headers['hx-request'] === 'true', boosted: request.headers['hx-boosted'] === 'true' },
          csp_nonce: () => request.state.nonce,
        }),
      },
      answer,
    );
  const keepsRawBody = (request: { method: string; host: string; path: string }): boolean => {
    if (request.method !== 'POST') return false;
    const match = matchRoute(plans.table, request);
    return match.kind === 'matched' && match.route.layers.some((layer) => layer.kind === 'webhook');
  };
  return { dispatch, publicFiles, errors, errorPage, https, rawBodyPaths: webhookPaths(plans.table), keepsRawBody, options };
}
