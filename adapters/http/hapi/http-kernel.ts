import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Hapi from '@hapi/hapi';
import type { Server } from '@hapi/hapi';
import Inert from '@hapi/inert';
import type { AppKeys } from '../../../domain/security/app-keys.js';
import type { TrustedProxies } from '../../../domain/security/client-ip.js';
import type { TrustedHosts } from '../../../domain/security/trusted-hosts.js';
import type { RouteTable } from '../../../domain/routing/route-table.js';
import type { Clock } from '../../../ports/clock.js';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Logger } from '../../../ports/logger.js';
import type { MaintenanceSwitch } from '../../../ports/maintenance-switch.js';
import type { RandomSource } from '../../../ports/random-source.js';
import type { RecordFinder } from '../../../ports/record-finder.js';
import type { ViewRenderer } from '../../../ports/view-renderer.js';
import { CookieSealer } from '../cookie-sealer.js';
import type { Handler, Middleware } from '../request-context.js';
import type { FormServices } from '../validation/form-context.js';
import { dispatcher } from './dispatch.js';
import { ErrorResponder } from './error-responder.js';
import { hapiErrorPages } from './hapi-errors.js';
import { PublicFiles } from './public-files.js';
import { bodyLimitStage, formTooLargeAnswers } from './stages/body-limit.js';
import { csrfStage } from './stages/csrf.js';
import { maintenanceStage } from './stages/maintenance.js';
import { builtInRoutes } from './stages/built-in-routes.js';
import { requestIdStage } from './stages/request-id.js';
import { securityHeadersStage } from './stages/security-headers.js';
import { sessionStage } from './stages/session.js';
import { userStage } from './stages/user.js';
import type { IdentityServices } from './identity.js';
import { CookieSessionDriver } from './session/cookie-session-driver.js';
import { DatabaseSessionDriver } from './session/database-session-driver.js';
import type { SessionStore } from '../../../ports/session-store.js';
import { routeLayerMiddleware } from './route-layers.js';
import { rawBodyRoutes } from './raw-body.js';
import { webhookPaths } from './webhook-routes.js';
import type { WebhookVerifier } from '../webhooks.js';
import type { LimiterRule } from './stages/throttle.js';
import { timeoutStage } from './stages/timeout.js';
import { trustedHostsStage } from './stages/trusted-hosts.js';
import { viewsStage } from './stages/views.js';
import { viewGlobals } from './view-globals.js';
import { storageRoutes } from '../storage/storage-routes.js';
import type { StorageRouteOptions } from '../storage/storage-routes.js';
import { storageUrl } from '../storage/storage-url.js';
import { uploadStage } from '../uploads/hapi-uploads.js';
import type { AsyncRequestOrigin } from '../async-request-origin.js';
import type { AppInfo, SharedValue } from './view-globals.js';
import type { AfterResponseWork } from '../after-response.js';

export interface HttpKernelOptions {
  host: string;
  port: number;
  app: AppInfo;
  /** APP_DEBUG on with APP_ENV=local: error pages show the request, the error and the template line. */
  debugPages: boolean;
  uploadMaxBytes: number;
  /** BODY_MAX_DEPTH: arrays and objects nested deeper in a body are refused with a 400. */
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
  storage?: StorageRouteOptions['storage'];
  publicStorage?: StorageRouteOptions['publicFolders'];
  /** Where uploads wait while their request runs (UPLOAD_TMP_DIR); the system's temporary folder by default. */
  uploadTempDir?: string;
}

const ROBOTS_TXT = 'User-agent: *\nDisallow:\n';

/**
 * Builds the hapi server with the pipeline of spec 001, in its order. hapi does the HTTP:
 * parsing, payload limits, cookies, files; the route table, the session, views and errors are
 * the framework's. The server is returned configured and not yet listening.
 */
export async function createHttpKernel(options: HttpKernelOptions): Promise<Server> {
  const https = options.app.url.startsWith('https://');
  const server = Hapi.server({
    host: options.host,
    port: options.port,
    router: { stripTrailingSlash: false },
    state: { strictHeader: false, ignoreErrors: true, clearInvalid: false },
    routes: {
      // Cookies are read from the raw header by the framework (see cookie-header.ts); hapi
      // still writes Set-Cookie.
      state: { parse: false, failAction: 'ignore' },
      response: { emptyStatusCode: 204 },
    },
  });
  await server.register(Inert);

  const renderer = options.renderer;
  const errors = new ErrorResponder(renderer, options.debugPages);
  const publicFiles = new PublicFiles(options.publicDirs, options.watchFiles);
  const sealer = new CookieSealer({ encryption: options.keys.cookieEncryption, integrity: options.keys.cookieIntegrity });
  const appOrigin = new URL(options.app.url).origin;
  const storage = options.storage;
  const globalsOptions = {
    app: options.app,
    renderer,
    publicFiles,
    shares: options.shares,
    ...(storage === undefined ? {} : { storageUrl: (key: string, disk?: string) => storageUrl(storage, key, disk) }),
  };

  // Registered first: a page made from one of hapi's errors still gets the headers below.
  formTooLargeAnswers(server, options.uploadMaxBytes);
  hapiErrorPages(server, errors, (request) => ({
    app: options.app,
    request: { path: request.path, query: request.query, route: null, htmx: request.headers['hx-request'] === 'true', boosted: request.headers['hx-boosted'] === 'true' },
  }));
  securityHeadersStage(server, { https, trustedProxies: options.trustedProxies, random: options.random, logger: options.logger });
  requestIdStage(server, options.random);
  trustedHostsStage(server, options.trustedHosts);
  bodyLimitStage(server, options.uploadMaxBytes);
  builtInRoutes(server, { publicFiles, robotsTxt: ROBOTS_TXT });
  uploadStage(server, { maxBytes: options.uploadMaxBytes, tempDir: options.uploadTempDir ?? join(tmpdir(), 'fw-uploads'), now: () => options.clock.now(), translator: options.forms.translator });
  if (storage !== undefined) storageRoutes(server, { storage, publicFolders: options.publicStorage ?? [], signing: { key: options.keys.signedUrls, clock: options.clock } });

  const driver =
    options.sessionStore === null
      ? new CookieSessionDriver(sealer, options.sessionLifetimeMinutes, options.cacheStore)
      : new DatabaseSessionDriver(options.sessionStore, options.random, options.sessionLifetimeMinutes, options.logger);
  const frameworkStages = [
    sessionStage({ driver, clock: options.clock, random: options.random }),
    viewsStage({ renderer, errors, globals: (ctx) => viewGlobals(ctx, globalsOptions), appOrigin }),
    // The user and CSRF stages run inside the views stage (the spec lists them just before it),
    // so a bearer token's 401 and the 419 are pages or JSON like every other error.
    userStage(options.identity),
    csrfStage({ xsrfCookie: options.xsrfCookie }),
    maintenanceStage({ maintenance: options.maintenance, key: options.keys.maintenanceBypass, clock: options.clock, logger: options.logger }),
    timeoutStage(options.requestTimeoutMs),
  ];

  const dispatch = dispatcher({
    table: options.table,
    shared: { bodyMaxDepth: options.bodyMaxDepth, table: options.table, appUrl: options.app.url, locale: options.app.locale, provided: options.provided, sealer, forms: options.forms, signing: { key: options.keys.signedUrls, clock: options.clock }, identity: options.identity, records: options.records, services: options.services },
    publicFiles,
    frameworkStages,
    appLayers: options.appLayers,
    routeLayers: routeLayerMiddleware(options.table, { store: options.cacheStore, clock: options.clock, rateLimiters: options.rateLimiters, identity: options.identity, webhooks: options.webhooks }),
    send: { sealer, https },
    origin: options.origin,
    afterResponse: options.afterResponse,
  });
  server.route({
    method: '*',
    path: '/{path*}',
    options: {
      payload: {
        maxBytes: options.uploadMaxBytes,
        output: 'data',
        parse: true,
        multipart: { output: 'data' },
      },
    },
    handler: dispatch,
  });
  // Webhook paths keep their body's bytes for the signature check.
  rawBodyRoutes(server, webhookPaths(options.table), { maxBytes: options.uploadMaxBytes, handler: dispatch });
  return server;
}
