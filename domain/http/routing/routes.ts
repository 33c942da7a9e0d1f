import type { CorsLayerOptions } from '../cors/cors.js';
import { parseHostPattern } from './host-pattern.js';
import type { HostPattern } from './host-pattern.js';
import { joinPaths, parsePathPattern } from './path-pattern.js';
import { RESOURCE_ROUTES } from './resource.js';
import type { ResourceAction, ResourceActions } from './resource.js';
import type { FallbackDefinition, RouteDefinition, RouteMethod, RouteTarget } from './route.js';
import { checkLayer, corsLayer, namedLayer, throttleLayer } from './route-layer.js';
import type { ExtensionLayer, RouteLayer } from './route-layer.js';
import { checkNamePrefix, checkRouteName } from './route-name.js';
import { RoutingError } from './routing-error.js';

/**
 * The set of routes a module declares, built fluently:
 *
 *     new Routes<Handler>().get('/products', list).name('products.index').requireAuth()
 *
 * A `Routes` is immutable: every method returns a new value and leaves its receiver as it
 * was, so a set handed to `group`, `merge` or `domain` cannot change afterwards and the same
 * set may be used twice. Use the returned value; a call whose result is dropped does nothing.
 *
 * Layers (guards, throttles, `routeLayer`) wrap the routes added before them in this set
 * only. Each route keeps its layers outermost first: the layer added last wraps the others.
 * Fallbacks are never wrapped.
 *
 * Mistakes in a definition throw `RoutingError` at once, so the app stops at start-up.
 */
export class Routes<H> {
  #routes: readonly RouteDefinition<H>[] = Object.freeze([]);
  #fallbacks: readonly FallbackDefinition<H>[] = Object.freeze([]);

  /** The routes in the order they were added. */
  get definitions(): readonly RouteDefinition<H>[] {
    return this.#routes;
  }

  /** At most one without a domain and at most one per domain. */
  get fallbacks(): readonly FallbackDefinition<H>[] {
    return this.#fallbacks;
  }

  get(path: string, handler: H): Routes<H> {
    return this.#add(['GET'], path, { kind: 'handler', handler });
  }

  post(path: string, handler: H): Routes<H> {
    return this.#add(['POST'], path, { kind: 'handler', handler });
  }

  put(path: string, handler: H): Routes<H> {
    return this.#add(['PUT'], path, { kind: 'handler', handler });
  }

  patch(path: string, handler: H): Routes<H> {
    return this.#add(['PATCH'], path, { kind: 'handler', handler });
  }

  delete(path: string, handler: H): Routes<H> {
    return this.#add(['DELETE'], path, { kind: 'handler', handler });
  }

  /**
   * A POST route for another service's calls: no CSRF token, and the request must pass the
   * signature check the app registers with `App.webhook(verifier, …)` (an unregistered one
   * stops start-up). The check wraps this route only; `route:list` shows `webhook:<verifier>`.
   */
  webhook(path: string, verifier: string, handler: H): Routes<H> {
    const route = definition<H>(['POST'], path, { kind: 'handler', handler }, null);
    return this.#with([...this.#routes, Object.freeze({ ...route, layers: Object.freeze([namedLayer('webhook', verifier)]) })]);
  }

  /** A route for any method; `route:list` shows its method as `*`. */
  route(path: string, handler: H): Routes<H> {
    return this.#add(['*'], path, { kind: 'handler', handler });
  }

  /** A GET route answering with a template rendered with the global view values. */
  view(path: string, template: string): Routes<H> {
    if (template.trim() === '') throw new RoutingError('routing.bad-target', `view route '${path}' needs a template name`);
    return this.#add(['GET'], path, { kind: 'view', template });
  }

  /** Any method, 302. */
  redirect(from: string, to: string): Routes<H> {
    return this.#redirect(from, to, 302);
  }

  /** Any method, 301. */
  permanentRedirect(from: string, to: string): Routes<H> {
    return this.#redirect(from, to, 301);
  }

  /** Names the route added just before. */
  name(name: string): Routes<H> {
    const last = this.#routes[this.#routes.length - 1];
    if (last === undefined) {
      throw new RoutingError('routing.no-route-to-name', `.name('${name}') needs a route added before it`);
    }
    if (last.name !== null) {
      throw new RoutingError(
        'routing.already-named',
        `.name('${name}'): the route ${last.pattern.source} is already named '${last.name}'`,
      );
    }
    const named = Object.freeze({ ...last, name: checkRouteName(name) });
    return this.#with([...this.#routes.slice(0, -1), named]);
  }

  /**
   * The inner routes under a path prefix and a name prefix. The inner index route `/`
   * becomes the prefix path itself; the inner routes keep their layers.
   */
  group(prefix: string, namePrefix: string, routes: Routes<H>): Routes<H> {
    if (!prefix.startsWith('/') || prefix.endsWith('/')) {
      throw new RoutingError(
        'routing.group-prefix',
        `group prefix '${prefix}' must start with / and must not end with one (write '/admin', not 'admin' or '/admin/')`,
      );
    }
    parsePathPattern(prefix);
    checkNamePrefix(namePrefix);
    const withDomain = routes.#routes.find((route) => route.domain !== null);
    if (withDomain !== undefined) {
      throw new RoutingError(
        'routing.group-domain',
        `group '${prefix}': its routes must not use .domain(...) (${withDomain.pattern.source} does); put the group inside the domain instead`,
      );
    }
    if (routes.#fallbacks.length > 0) {
      throw new RoutingError('routing.group-fallback', `group '${prefix}': a group cannot have a .fallback(...)`);
    }
    const inner = routes.#routes.map((route) =>
      Object.freeze({
        ...route,
        pattern: parsePathPattern(joinPaths(prefix, route.pattern.source)),
        name: route.name === null ? null : `${namePrefix}${route.name}`,
      }),
    );
    return this.#with([...this.#routes, ...inner]);
  }

  /** Joins two sets, keeping names and layers. Both having a fallback (for the same domain) throws. */
  merge(routes: Routes<H>): Routes<H> {
    return this.#with([...this.#routes, ...routes.#routes], addFallbacks(this.#fallbacks, routes.#fallbacks, '.merge'));
  }

  /** The spec's resource routes under `path`, named `<name>.<action>`, for the actions given. */
  resource(path: string, name: string, actions: ResourceActions<H>): Routes<H> {
    checkRouteName(name, 'resource name');
    const known = new Set<string>(RESOURCE_ROUTES.map((entry) => entry.action));
    const unknown = Object.keys(actions).filter((key) => !known.has(key));
    if (unknown.length > 0) {
      throw new RoutingError(
        'routing.resource-actions',
        `resource '${name}': unknown action(s) ${unknown.join(', ')}; the actions are ${[...known].join(', ')}`,
      );
    }
    const given = RESOURCE_ROUTES.filter((entry) => actionHandler(actions, entry.action) !== undefined);
    if (given.length === 0) {
      throw new RoutingError('routing.resource-actions', `resource '${name}' has no actions`);
    }
    parsePathPattern(path);
    const added = given.map((entry) =>
      definition<H>(
        entry.methods,
        joinPaths(path, entry.suffix),
        { kind: 'handler', handler: actionHandler(actions, entry.action) as H },
        `${name}.${entry.action}`,
      ),
    );
    return this.#with([...this.#routes, ...added]);
  }

  /**
   * Routes served only on hosts matching `pattern`, where `{name}` matches one label. The
   * inner set may have a fallback: that domain's own.
   */
  domain(pattern: string, routes: Routes<H>): Routes<H> {
    const host = parseHostPattern(pattern);
    const nested =
      routes.#routes.find((route) => route.domain !== null) ?? routes.#fallbacks.find((fb) => fb.domain !== null);
    if (nested !== undefined) {
      throw new RoutingError(
        'routing.nested-domain',
        `.domain('${pattern}'): the inner routes already use .domain('${nested.domain?.source ?? ''}'); domains do not nest`,
      );
    }
    const inner = routes.#routes.map((route) => Object.freeze({ ...route, domain: host }));
    const fallbacks = routes.#fallbacks.map((fallback) => Object.freeze({ ...fallback, domain: host }));
    return this.#with([...this.#routes, ...inner], addFallbacks(this.#fallbacks, fallbacks, `.domain('${pattern}')`));
  }

  /** Answers when no route matches, instead of the 404 page. One per set. */
  fallback(handler: H): Routes<H> {
    return this.#with(this.#routes, addFallbacks(this.#fallbacks, [{ handler, domain: null }], '.fallback'));
  }

  /** Wraps the routes added before it in a middleware value (not listed among the guards). */
  routeLayer<L>(layer: L): Routes<H> {
    return this.#wrap({ kind: 'middleware', label: null, layer });
  }

  /** Wraps the routes added before it in an adapter's own layer (`liveValidation(form)`). */
  layer<V>(entry: ExtensionLayer<V>): Routes<H> {
    return this.#wrap(checkLayer(entry));
  }

  requireAuth(): Routes<H> {
    return this.#wrap({ kind: 'auth', label: 'auth' });
  }

  requireVerified(): Routes<H> {
    return this.#wrap({ kind: 'verified', label: 'verified' });
  }

  guestOnly(): Routes<H> {
    return this.#wrap({ kind: 'guest', label: 'guest' });
  }

  requireGate(name: string): Routes<H> {
    return this.#wrap(namedLayer('gate', name));
  }

  requireRole(name: string): Routes<H> {
    return this.#wrap(namedLayer('role', name));
  }

  requirePermission(name: string): Routes<H> {
    return this.#wrap(namedLayer('permission', name));
  }

  requireAbility(name: string): Routes<H> {
    return this.#wrap(namedLayer('ability', name));
  }

  requirePasswordConfirmed(): Routes<H> {
    return this.#wrap({ kind: 'password-confirmed', label: 'password.confirm' });
  }

  /** At most `max` requests per `perSeconds` seconds, both integers of at least 1. */
  throttle(max: number, perSeconds: number): Routes<H> {
    return this.#wrap(throttleLayer(max, perSeconds));
  }

  /** Uses the limiter the app registers under `name` (checked when the app starts). */
  throttleBy(name: string): Routes<H> {
    return this.#wrap(namedLayer('throttle-by', name));
  }

  /**
   * Lets browsers on these origins (`['*']` for any) fetch the routes added before it: methods
   * GET, POST, PUT, PATCH, DELETE, OPTIONS; headers Content-Type, Authorization, Accept,
   * X-CSRF-Token; no cookies; preflights kept an hour.
   */
  cors(origins: readonly string[]): Routes<H> {
    return this.#wrap(corsLayer({ origins }));
  }

  /** `.cors` with other methods, headers, exposed headers, credentials or preflight lifetime. */
  corsLayer(options: CorsLayerOptions): Routes<H> {
    return this.#wrap(corsLayer(options));
  }

  etag(): Routes<H> {
    return this.#wrap({ kind: 'etag', label: 'etag' });
  }

  withoutCsrf(): Routes<H> {
    return this.#wrap({ kind: 'csrf-off', label: 'csrf:off' });
  }

  #add(methods: readonly RouteMethod[], path: string, target: RouteTarget<H>): Routes<H> {
    return this.#with([...this.#routes, definition(methods, path, target, null)]);
  }

  #redirect(from: string, to: string, status: 301 | 302): Routes<H> {
    if (to.trim() === '') throw new RoutingError('routing.bad-target', `redirect from '${from}' needs a target`);
    return this.#add(['*'], from, { kind: 'redirect', to, status });
  }

  // A layer with nothing before it is almost always a guard written above the routes it was
  // meant to protect; since it would protect nothing, that mistake is reported.
  #wrap(layer: RouteLayer): Routes<H> {
    if (this.#routes.length === 0) {
      throw new RoutingError(
        'routing.layer-without-routes',
        `layer '${layer.label ?? (layer.kind === 'extension' ? layer.name : layer.kind)}' has no routes before it; a layer wraps only the routes added before it`,
      );
    }
    const frozen = Object.freeze(layer);
    const wrapped = this.#routes.map((route) => Object.freeze({ ...route, layers: Object.freeze([frozen, ...route.layers]) }));
    return this.#with(wrapped);
  }

  #with(routes: readonly RouteDefinition<H>[], fallbacks = this.#fallbacks): Routes<H> {
    const next = new Routes<H>();
    next.#routes = Object.freeze(routes);
    next.#fallbacks = Object.freeze(fallbacks);
    return next;
  }
}

function definition<H>(
  methods: readonly RouteMethod[],
  path: string,
  target: RouteTarget<H>,
  name: string | null,
): RouteDefinition<H> {
  return Object.freeze({
    methods: Object.freeze([...methods]),
    pattern: parsePathPattern(path),
    target: Object.freeze(target),
    name,
    layers: Object.freeze([]),
    domain: null,
  });
}

function actionHandler<H>(actions: ResourceActions<H>, action: ResourceAction): H | undefined {
  return actions[action];
}

/** One fallback per scope: the app's (no domain), or each domain's (by pattern shape). */
function addFallbacks<H>(
  existing: readonly FallbackDefinition<H>[],
  added: readonly FallbackDefinition<H>[],
  where: string,
): readonly FallbackDefinition<H>[] {
  const all = [...existing];
  for (const fallback of added) {
    if (all.some((other) => sameScope(other.domain, fallback.domain))) {
      const scope = fallback.domain === null ? 'the routes without a domain' : `domain '${fallback.domain.source}'`;
      throw new RoutingError('routing.two-fallbacks', `${where}: ${scope} would have two fallbacks; one is allowed`);
    }
    all.push(Object.freeze({ ...fallback }));
  }
  return all;
}

function sameScope(a: HostPattern | null, b: HostPattern | null): boolean {
  return a === null || b === null ? a === b : a.shape === b.shape;
}
