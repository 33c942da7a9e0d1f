import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import { describeRoute } from '../../../domain/http/routing/route-table.js';
import { Limit } from '../../../domain/http/rate-limits/rate-limit.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { GuardKind } from '../../../domain/http/guards.js';
import type { Handler, Middleware } from './request-context.js';
import { GUARD_KINDS, guardMiddleware } from './guards.js';
import type { IdentityServices } from './identity.js';
import { throttleMiddleware } from './stages/throttle.js';
import type { LimiterRule } from './stages/throttle.js';
import type { WebhookVerifier } from '../webhooks.js';
import { webhookMiddleware } from './webhook-routes.js';

export interface RouteLayerServices {
  store: CacheStore;
  clock: Clock;
  rateLimiters: ReadonlyMap<string, LimiterRule>;
  identity: IdentityServices;
  /** `App.webhook(name, verifier)`: the checks `Routes.webhook` routes name. */
  webhooks: ReadonlyMap<string, WebhookVerifier>;
}

/**
 * Every route's layers as middleware, outermost first, built once when the server starts. A
 * `.throttleBy(name)` without `App.rateLimiter(name, …)`, or a `.webhook(path, name, …)`
 * without `App.webhook(name, …)`, stops start-up, naming the route.
 * `withoutCsrf()` and `etag()` are markers the kernel reads, not middleware; `cors` layers are
 * applied by the dispatcher outside the framework stages (see cors.ts), so they are skipped here.
 */
export function routeLayerMiddleware(table: RouteTable<Handler>, services: RouteLayerServices): Map<object, Middleware[]> {
  const built = new Map<object, Middleware[]>();
  for (const route of table.routes) {
    const middleware: Middleware[] = [];
    for (const layer of route.layers) {
      if (layer.kind === 'middleware') middleware.push(layer.layer as Middleware);
      else if (GUARD_KINDS.has(layer.kind)) {
        const name = (layer.options as { name?: string } | undefined)?.name ?? null;
        middleware.push(guardMiddleware(layer.kind as GuardKind, name, { ...services.identity, clock: services.clock }));
      }
      else if (layer.kind === 'throttle') {
        const { max, perSeconds } = layer.options as { max: number; perSeconds: number };
        const limit = Limit.per(max, perSeconds);
        middleware.push(throttleMiddleware({ ...services, name: `route:${describeRoute(route)}`, limit: () => limit }));
      } else if (layer.kind === 'webhook') {
        middleware.push(webhookMiddleware(route, (layer.options as { name: string }).name, services.webhooks));
      } else if (layer.kind === 'throttle-by') {
        const { name } = layer.options as { name: string };
        const rule = services.rateLimiters.get(name);
        if (rule === undefined) {
          throw new FrameworkError(
            'http.unknown-rate-limiter',
            `The route ${describeRoute(route)} uses .throttleBy('${name}'), but the app registers no App.rateLimiter('${name}', …)`,
          );
        }
        middleware.push(
          throttleMiddleware({
            ...services,
            name: `limiter:${name}`,
            limit: (ctx) => {
              return rule({ user: ctx.user, ip: ctx.ip, method: ctx.method, path: ctx.path, headers: ctx.headers });
            },
          }),
        );
      }
    }
    built.set(route, middleware);
  }
  return built;
}
