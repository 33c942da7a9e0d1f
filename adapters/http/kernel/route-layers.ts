import type { Route, RouteTable } from '../../../domain/http/routing/route-table.js';
import { describeRoute } from '../../../domain/http/routing/route-table.js';
import type { RouteLayer } from '../../../domain/http/routing/route-layer.js';
import { Limit } from '../../../domain/http/rate-limits/rate-limit.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import type { CacheStore } from '../../../ports/cache-store.js';
import type { Clock } from '../../../ports/clock.js';
import type { Handler, Middleware } from './request-context.js';
import { guardMiddleware } from './guards.js';
import type { IdentityServices } from './identity.js';
import { throttleMiddleware } from './stages/throttle.js';
import type { LimiterRule } from './stages/throttle.js';
import type { WebhookVerifier } from '../webhooks.js';
import { webhookMiddleware } from './webhook-routes.js';
import { LIVE_VALIDATION_LAYER } from './live-validation.js';
import type { FormSchema } from '../validation/form-schema.js';

export interface RouteLayerServices {
  store: CacheStore;
  clock: Clock;
  rateLimiters: ReadonlyMap<string, LimiterRule>;
  identity: IdentityServices;
  /** `App.webhook(name, verifier)`: the checks `Routes.webhook` routes name. */
  webhooks: ReadonlyMap<string, WebhookVerifier>;
}

/** What a route's own layers make of it, worked out once at start. */
export interface RouteLayerPlan {
  /** The layers that run code on a request, outermost first. */
  readonly middleware: readonly Middleware[];
  /** `.withoutCsrf()`, or a webhook (it checks a signature instead). */
  readonly csrfExempt: boolean;
  /** `Routes.webhook(...)`: its callers keep no cookies, and its body is kept raw. */
  readonly webhook: boolean;
  /** `.etag()`. */
  readonly etag: boolean;
  /** The form `liveValidation(...)` names, the layer nearest the route winning; null without one. */
  readonly liveForm: FormSchema<unknown> | null;
}

/**
 * Every route's plan, built once when the server starts. A `.throttleBy(name)` without
 * `App.rateLimiter(name, …)`, a `.webhook(path, name, …)` without `App.webhook(name, …)`, or an
 * extension layer this kernel does not know stops start-up, naming the route. `cors` layers are
 * applied by the dispatcher outside the framework stages (see cors.ts), so they add nothing here.
 */
export function compileRouteLayers(table: RouteTable<Handler>, services: RouteLayerServices): Map<object, RouteLayerPlan> {
  const plans = new Map<object, RouteLayerPlan>();
  for (const route of table.routes) plans.set(route, compileRoute(route, services));
  return plans;
}

function compileRoute(route: Route<Handler>, services: RouteLayerServices): RouteLayerPlan {
  const middleware: Middleware[] = [];
  let csrfExempt = false;
  let webhook = false;
  let etag = false;
  let liveForm: FormSchema<unknown> | null = null;
  const guard = { ...services.identity, clock: services.clock };
  // Layers are stored outermost first; each kind is handled here and nowhere else.
  for (const layer of route.layers) {
    switch (layer.kind) {
      case 'middleware':
        middleware.push(layer.layer as Middleware);
        break;
      case 'auth':
      case 'verified':
      case 'guest':
      case 'password-confirmed':
        middleware.push(guardMiddleware(layer.kind, null, guard));
        break;
      case 'gate':
      case 'role':
      case 'permission':
      case 'ability':
        middleware.push(guardMiddleware(layer.kind, layer.options.name, guard));
        break;
      case 'throttle': {
        const limit = Limit.per(layer.options.max, layer.options.perSeconds);
        middleware.push(throttleMiddleware({ ...services, name: `route:${describeRoute(route)}`, limit: () => limit }));
        break;
      }
      case 'throttle-by':
        middleware.push(namedThrottle(route, layer.options.name, services));
        break;
      case 'webhook':
        webhook = true;
        csrfExempt = true;
        middleware.push(webhookMiddleware(route, layer.options.name, services.webhooks));
        break;
      case 'cors':
        break;
      case 'etag':
        etag = true;
        break;
      case 'csrf-off':
        csrfExempt = true;
        break;
      case 'extension':
        if (layer.name !== LIVE_VALIDATION_LAYER) throw unknownLayer(route, layer);
        liveForm = layer.value as FormSchema<unknown>;
        break;
      default:
        throw unknownLayer(route, layer satisfies never);
    }
  }
  return { middleware, csrfExempt, webhook, etag, liveForm };
}

function namedThrottle(route: Route<Handler>, name: string, services: RouteLayerServices): Middleware {
  const rule = services.rateLimiters.get(name);
  if (rule === undefined) {
    throw new FrameworkError(
      'http.unknown-rate-limiter',
      `The route ${describeRoute(route)} uses .throttleBy('${name}'), but the app registers no App.rateLimiter('${name}', …)`,
    );
  }
  return throttleMiddleware({
    ...services,
    name: `limiter:${name}`,
    limit: (ctx) => rule({ user: ctx.user, ip: ctx.ip, method: ctx.method, path: ctx.path, headers: ctx.headers }),
  });
}

/** A layer meant for another version of the kernel: the route would be served without it. */
function unknownLayer(route: Route<Handler>, layer: RouteLayer): FrameworkError {
  const name = layer.kind === 'extension' ? layer.name : String((layer as { kind: unknown }).kind);
  return new FrameworkError(
    'http.layer-unavailable',
    `The route ${route.methods.join('|')} ${route.pattern.source} uses the layer '${layer.label ?? name}', which this version of the kernel does not know`,
  );
}
