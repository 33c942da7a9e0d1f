import type { RouteTable } from '../../../domain/routing/route-table.js';
import { describeRoute } from '../../../domain/routing/route-table.js';
import { Limit } from '../../../domain/security/rate-limit.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { Handler, Middleware } from '../request-context.js';
import { throttleMiddleware } from './stages/throttle.js';
import type { LimiterRule } from './stages/throttle.js';

export interface RouteLayerServices {
  store: CacheStore;
  clock: Clock;
  rateLimiters: ReadonlyMap<string, LimiterRule>;
}

/**
 * Every route's layers as middleware, outermost first, built once when the server starts. A
 * `.throttleBy(name)` without `App.rateLimiter(name, …)` stops start-up, naming the route.
 * `withoutCsrf()` and `etag()` are markers the kernel reads, not middleware.
 */
export function routeLayerMiddleware(table: RouteTable<Handler>, services: RouteLayerServices): Map<object, Middleware[]> {
  const built = new Map<object, Middleware[]>();
  for (const route of table.routes) {
    const middleware: Middleware[] = [];
    for (const layer of route.layers) {
      if (layer.kind === 'middleware') middleware.push(layer.layer as Middleware);
      else if (layer.kind === 'throttle') {
        const { max, perSeconds } = layer.options as { max: number; perSeconds: number };
        const limit = Limit.per(max, perSeconds);
        middleware.push(throttleMiddleware({ ...services, name: `route:${describeRoute(route)}`, limit: () => limit }));
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
              const userId = ctx.session.userId();
              return rule({ user: userId === null ? null : { id: userId }, ip: ctx.ip, method: ctx.method, path: ctx.path, headers: ctx.headers });
            },
          }),
        );
      }
    }
    built.set(route, middleware);
  }
  return built;
}
