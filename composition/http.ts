import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { CookieSealer } from '../adapters/http/cookie-sealer.js';
import { createFetchHandler } from '../adapters/http/fetch/fetch-handler.js';
import type { FetchHandler } from '../adapters/http/fetch/fetch-handler.js';
import { createNodeServer } from '../adapters/http/fetch/node-listener.js';
import { createHttpKernel } from '../adapters/http/hapi/http-kernel.js';
import { createKernel } from '../adapters/http/kernel/kernel.js';
import type { KernelOptions } from '../adapters/http/kernel/kernel.js';
import type { IdentityServices } from '../adapters/http/kernel/identity.js';
import { compileRouteLayers } from '../adapters/http/kernel/route-layers.js';
import type { LimiterRule } from '../adapters/http/kernel/stages/throttle.js';
import type { SharedValue } from '../adapters/http/kernel/view-globals.js';
import { validatorFormatChecks } from '../adapters/validation/validator-format-checks.js';
import type { WebhookVerifier } from '../adapters/http/webhooks.js';
import type { Handler, Middleware } from '../adapters/http/kernel/request-context.js';
import type { RouteTable } from '../domain/http/routing/route-table.js';
import { urlFor } from '../domain/http/routing/url.js';
import type { GuardPages } from '../domain/http/guards.js';
import { parseTrustedProxies } from '../domain/http/client-ip/client-ip.js';
import { parseTrustedHosts } from '../domain/http/trusted-hosts.js';
import type { AppServices } from './services.js';
import { TOKENS } from './tokens.js';
import { requestServices } from './request-services.js';
import { PUBLIC_DISK_PATH, storageSettings } from './storage.js';
import type { AfterResponseWork } from '../adapters/http/after-response.js';
import type { DevTools } from '../adapters/http/dev-tools/dev-tools.js';
import { PublicFiles } from '../adapters/http/kernel/public-files.js';
import type { ViewRenderer } from '../ports/view-renderer.js';

/** What the App contributes to its HTTP kernel besides configuration and services. */
export interface HttpParts {
  root: string;
  /** The framework's folder: its `public/` (the default stylesheet) is served after the app's. */
  frameworkRoot: string;
  table: RouteTable<Handler>;
  layers: readonly Middleware[];
  provided: ReadonlyMap<symbol, unknown>;
  shares: readonly SharedValue[];
  xsrfCookie: boolean;
  rateLimiters: ReadonlyMap<string, LimiterRule>;
  webhooks: ReadonlyMap<string, WebhookVerifier>;
  afterResponse: AfterResponseWork;
  /** Live reload and the request inspector, while debugging locally; null otherwise. */
  devTools?: DevTools | null;
}

/**
 * Where guards send visitors, by the spec's route names. Without a `login` route a turned-away
 * guest gets a 401 page (an API-only app); the others fall back to the spec's paths.
 */
export function guardPages(table: RouteTable<Handler>): GuardPages {
  const url = (name: string): string | null => (table.named.has(name) ? urlFor(table, name) : null);
  return {
    login: url('login'),
    verificationNotice: url('verification.notice'),
    home: url('home') ?? '/',
    passwordConfirm: url('password.confirm') ?? '/confirm-password',
  };
}

/** `fw_live()` in views: the live-reload script, its URL versioned like `asset()` gives it. */
function devToolsShare(devTools: DevTools, renderer: ViewRenderer, publicDirs: readonly string[]): SharedValue {
  const files = new PublicFiles(publicDirs, true);
  return devTools.share(renderer, (path) => files.assetUrl(path));
}

/**
 * What the kernel is made of: its settings from the configuration, its services from the
 * container, and the app's routes compiled into plans (a route naming a limiter, a webhook
 * check or a layer kind the app did not register stops start-up here).
 */
function kernelOptions(services: AppServices, parts: HttpParts): KernelOptions {
  const { config } = services;
  const renderer = services.get(TOKENS.viewRenderer);
  const keys = services.get(TOKENS.appKeys);
  const clock = services.get(TOKENS.clock);
  // One folder once: the framework's own folder may be the app's (`npm start` in this repository).
  const publicDirs = [...new Set([join(parts.root, 'public'), join(parts.frameworkRoot, 'public')])].filter((dir) => existsSync(dir));
  const identity: IdentityServices = {
    users: services.get(TOKENS.userRepository),
    tokens: services.get(TOKENS.tokenVerifier),
    policy: services.get(TOKENS.accessPolicy),
    endOtherSessions: services.get(TOKENS.endOtherSessions),
    clock,
    random: services.get(TOKENS.random),
    rememberLifetimeMinutes: config.session.rememberLifetimeMinutes,
    pages: guardPages(parts.table),
  };
  const cacheStore = services.get(TOKENS.cacheStore);
  const storage = storageSettings(config);
  return {
    settings: {
      app: {
        name: config.app.name,
        env: config.app.env,
        debug: config.app.debug,
        url: config.app.url,
        locale: config.app.locale,
        timezone: config.app.timezone,
        currency: config.app.currency,
      },
      debugPages: config.app.debug && config.app.env === 'local',
      uploadMaxBytes: config.http.uploadMaxBytes,
      bodyMaxDepth: config.http.bodyMaxDepth,
      requestTimeoutMs: config.http.requestTimeoutMs,
      trustedProxies: parseTrustedProxies(config.http.trustedProxies),
      trustedHosts: parseTrustedHosts(config.http.trustedHosts, config.app.url),
      sessionLifetimeMinutes: config.session.lifetimeMinutes,
      publicDirs,
      watchFiles: config.app.env === 'local',
      xsrfCookie: parts.xsrfCookie,
      publicStorage: [{ urlPath: PUBLIC_DISK_PATH, root: storage.publicRoot }],
      uploadTempDir: storage.uploadTempDir,
    },
    services: {
      keys,
      sealer: new CookieSealer({ encryption: keys.cookieEncryption, integrity: keys.cookieIntegrity }, services.get(TOKENS.random)),
      logger: services.get(TOKENS.logger),
      clock,
      random: services.get(TOKENS.random),
      renderer,
      sessionStore: config.session.driver === 'database' ? services.get(TOKENS.sessionStore) : null,
      cacheStore,
      identity,
      forms: {
        records: services.get(TOKENS.recordLookup),
        passwords: services.get(TOKENS.passwordHasher),
        formats: validatorFormatChecks,
        translator: services.get(TOKENS.translator),
      },
      records: services.get(TOKENS.recordFinder),
      maintenance: services.get(TOKENS.maintenance),
      container: requestServices(services),
      afterResponse: parts.afterResponse,
      storage: services.get(TOKENS.storage),
      devTools: parts.devTools ?? undefined,
    },
    plans: {
      table: parts.table,
      routeLayers: compileRouteLayers(parts.table, { store: cacheStore, clock, rateLimiters: parts.rateLimiters, identity, webhooks: parts.webhooks }),
      appLayers: parts.layers,
      provided: parts.provided,
      shares: parts.devTools === null || parts.devTools === undefined ? parts.shares : [...parts.shares, devToolsShare(parts.devTools, renderer, publicDirs)],
    },
  };
}

/** The app as a WHATWG fetch handler: the same kernel as `serve`, with no server around it. */
export function buildFetchHandler(services: AppServices, parts: HttpParts): FetchHandler {
  return createFetchHandler(createKernel(kernelOptions(services, parts)));
}

/** A server listening on HOST:PORT. */
export interface HttpServer {
  /** `http://127.0.0.1:54321`: where it listens. */
  readonly uri: string;
  /** Stops accepting connections and waits up to `timeoutMs` for requests in flight. */
  stop(timeoutMs: number): Promise<void>;
}

/** Starts the transport HTTP_TRANSPORT names: hapi (the default), or the fetch handler on node:http. */
export async function startHttpServer(services: AppServices, parts: HttpParts): Promise<HttpServer> {
  const { config } = services;
  // Watching before the first page is served: an edit made right after start reloads it too.
  await parts.devTools?.live().start();
  if (config.http.transport === 'fetch') {
    const server = createNodeServer(buildFetchHandler(services, parts));
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(config.server.port, config.server.host, () => resolve());
    });
    const address = server.address() as AddressInfo;
    return {
      uri: `http://${address.family === 'IPv6' ? `[${address.address}]` : address.address}:${address.port}`,
      stop: (timeoutMs) =>
        new Promise<void>((resolve) => {
          parts.devTools?.endStreams();
          const force = setTimeout(() => server.closeAllConnections(), timeoutMs);
          // A connection whose answer ends after this (a request in flight, an ended live-reload
          // stream) is closed once idle, not left open until its keep-alive runs out.
          const idle = setInterval(() => server.closeIdleConnections(), 50);
          server.close(() => {
            clearTimeout(force);
            clearInterval(idle);
            resolve();
          });
          server.closeIdleConnections();
        }),
    };
  }
  const server = await createHttpKernel({ host: config.server.host, port: config.server.port, ...kernelOptions(services, parts) });
  await server.start();
  return { uri: server.info.uri, stop: (timeoutMs) => server.stop({ timeout: timeoutMs }) };
}
