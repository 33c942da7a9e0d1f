import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Server } from '@hapi/hapi';
import type { Environment } from 'nunjucks';
import { createHttpKernel } from '../adapters/http/hapi/http-kernel.js';
import type { LimiterRule } from '../adapters/http/hapi/stages/throttle.js';
import type { SharedValue } from '../adapters/http/hapi/view-globals.js';
import type { Handler, Middleware } from '../adapters/http/request-context.js';
import { FRAMEWORK_TEMPLATES } from '../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../adapters/views/nunjucks/nunjucks-view-renderer.js';
import type { RouteTable } from '../domain/routing/route-table.js';
import { deriveAppKeys } from '../domain/security/app-keys.js';
import { parseTrustedProxies } from '../domain/security/client-ip.js';
import { parseTrustedHosts } from '../domain/security/trusted-hosts.js';
import { FrameworkError } from '../domain/shared/errors.js';
import type { AppServices } from './services.js';
import { TOKENS } from './tokens.js';

/** What the App contributes to its HTTP kernel besides configuration and services. */
export interface HttpParts {
  root: string;
  table: RouteTable<Handler>;
  layers: readonly Middleware[];
  provided: ReadonlyMap<symbol, unknown>;
  shares: readonly SharedValue[];
  templates: readonly ((env: Environment) => void)[];
  xsrfCookie: boolean;
  rateLimiters: ReadonlyMap<string, LimiterRule>;
}

/** Layer kinds the kernel gives behaviour to today; the rest arrive with the security work. */
const SUPPORTED_LAYERS = new Set(['middleware', 'csrf-off', 'etag', 'throttle', 'throttle-by']);

/**
 * Refuses at start-up a route whose guard this version cannot enforce yet: serving it
 * unguarded would be worse than not starting.
 */
export function checkLayersSupported(table: RouteTable<Handler>): void {
  for (const route of table.routes) {
    for (const layer of route.layers) {
      if (!SUPPORTED_LAYERS.has(layer.kind)) {
        throw new FrameworkError(
          'http.layer-unavailable',
          `The route ${route.methods.join('|')} ${route.pattern.source} uses '${layer.label ?? layer.kind}', which is not implemented yet (it arrives with sessions and security)`,
        );
      }
    }
  }
}

export function buildHttpServer(services: AppServices, parts: HttpParts): Promise<Server> {
  checkLayersSupported(parts.table);
  const { config } = services;
  const appViews = join(parts.root, 'resources', 'views');
  const renderer = new NunjucksViewRenderer({
    searchPaths: [...(existsSync(appViews) ? [appViews] : []), FRAMEWORK_TEMPLATES],
    debug: config.app.debug,
    watch: config.app.env === 'local',
    configure: (env) => {
      for (const configure of parts.templates) configure(env);
    },
  });
  const publicDir = join(parts.root, 'public');
  return createHttpKernel({
    host: config.server.host,
    port: config.server.port,
    app: { name: config.app.name, env: config.app.env, debug: config.app.debug, url: config.app.url, locale: config.app.locale },
    debugPages: config.app.debug && config.app.env === 'local',
    uploadMaxBytes: config.http.uploadMaxBytes,
    requestTimeoutMs: config.http.requestTimeoutMs,
    trustedProxies: parseTrustedProxies(config.http.trustedProxies),
    trustedHosts: parseTrustedHosts(config.http.trustedHosts, config.app.url),
    sessionLifetimeMinutes: config.session.lifetimeMinutes,
    keys: deriveAppKeys(config.app.key.reveal()),
    logger: services.get(TOKENS.logger),
    clock: services.get(TOKENS.clock),
    random: services.get(TOKENS.random),
    renderer,
    publicDir: existsSync(publicDir) ? publicDir : null,
    watchFiles: config.app.env === 'local',
    table: parts.table,
    appLayers: parts.layers,
    provided: parts.provided,
    shares: parts.shares,
    forms: { records: services.get(TOKENS.recordLookup), passwords: services.get(TOKENS.passwordHasher) },
    maintenance: services.get(TOKENS.maintenance),
    xsrfCookie: parts.xsrfCookie,
    cacheStore: services.get(TOKENS.cacheStore),
    rateLimiters: parts.rateLimiters,
  });
}
