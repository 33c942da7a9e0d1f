import type { HostPattern } from './host-pattern.js';
import type { FallbackDefinition, RouteDefinition } from './route.js';
import type { Routes } from './routes.js';
import { RoutingError } from './routing-error.js';

/** The routes of one of the app's modules, in the app's module order. */
export interface ModuleRoutes<H> {
  readonly module: string;
  readonly routes: Routes<H>;
}

export interface Route<H> extends RouteDefinition<H> {
  readonly module: string;
}

export interface Fallback<H> extends FallbackDefinition<H> {
  readonly module: string;
}

/** The routes one host can reach, and the fallback that answers when none matches. */
export interface RouteScope<H> {
  readonly routes: readonly Route<H>[];
  readonly fallback: Fallback<H> | null;
}

export interface DomainScope<H> extends RouteScope<H> {
  /** The first-declared pattern of this shape; patterns differing only in names share a scope. */
  readonly host: HostPattern;
}

/**
 * The whole app's routes, validated. Everything in it is frozen; matching, URL generation
 * and `route:list` only read it.
 */
export interface RouteTable<H> {
  /** Every route in declaration order: module order, then each module's own order. */
  readonly routes: readonly Route<H>[];
  readonly fallbacks: readonly Fallback<H>[];
  readonly named: ReadonlyMap<string, Route<H>>;
  /** What hosts matching no domain get: the routes without a domain and the app's fallback. */
  readonly plain: RouteScope<H>;
  /** One scope per domain shape, in the order the domains were first declared. */
  readonly domains: readonly DomainScope<H>[];
}

/**
 * Checks the app's routes as a whole and builds the table. Throws `RoutingError` for a route
 * name used twice, two routes that would answer the same method, path and domain, and a
 * second fallback for the same scope. Patterns are compared by shape, so `/p/{id}` and
 * `/p/{slug}` clash; a `*` route clashes with every route on its path.
 */
export function buildRouteTable<H>(modules: readonly ModuleRoutes<H>[]): RouteTable<H> {
  const routes = modules.flatMap(({ module, routes: set }) =>
    set.definitions.map((route): Route<H> => Object.freeze({ ...route, module })),
  );
  const fallbacks = modules.flatMap(({ module, routes: set }) =>
    set.fallbacks.map((fallback): Fallback<H> => Object.freeze({ ...fallback, module })),
  );

  const named = new Map<string, Route<H>>();
  const byPath = new Map<string, Route<H>[]>();
  for (const route of routes) {
    if (route.name !== null) {
      const other = named.get(route.name);
      if (other !== undefined) {
        throw new RoutingError(
          'routing.duplicate-name',
          `route name '${route.name}' is used twice: ${describeRoute(other)} and ${describeRoute(route)}`,
        );
      }
      named.set(route.name, route);
    }
    const key = `${route.domain?.shape ?? ''} ${route.pattern.shape}`;
    const samePath = byPath.get(key) ?? [];
    const clash = samePath.find((other) => methodsOverlap(other, route));
    if (clash !== undefined) {
      throw new RoutingError(
        'routing.duplicate-route',
        `${describeRoute(clash)} and ${describeRoute(route)} answer the same method and path; the second could never be reached`,
      );
    }
    byPath.set(key, [...samePath, route]);
  }

  const plain = scope(routes, fallbacks, null);
  const domains: DomainScope<H>[] = [];
  const seen = new Set<string>();
  for (const host of [...routes, ...fallbacks].flatMap((entry) => (entry.domain === null ? [] : [entry.domain]))) {
    if (seen.has(host.shape)) continue;
    seen.add(host.shape);
    domains.push(Object.freeze({ ...scope(routes, fallbacks, host), host }));
  }

  return Object.freeze({
    routes: Object.freeze(routes),
    fallbacks: Object.freeze(fallbacks),
    named,
    plain,
    domains: Object.freeze(domains),
  });
}

function scope<H>(
  routes: readonly Route<H>[],
  fallbacks: readonly Fallback<H>[],
  host: HostPattern | null,
): RouteScope<H> {
  const inScope = (domain: HostPattern | null): boolean =>
    domain === null || host === null ? domain === host : domain.shape === host.shape;
  const own = fallbacks.filter((fallback) => inScope(fallback.domain));
  const [first, second] = own;
  if (first !== undefined && second !== undefined) {
    const where = host === null ? 'the app' : `domain '${host.source}'`;
    throw new RoutingError(
      'routing.two-fallbacks',
      `${where} has two fallbacks, in modules ${first.module} and ${second.module}; one is allowed`,
    );
  }
  return Object.freeze({ routes: Object.freeze(routes.filter((route) => inScope(route.domain))), fallback: first ?? null });
}

function methodsOverlap<H>(a: Route<H>, b: Route<H>): boolean {
  return a.methods.includes('*') || b.methods.includes('*') || a.methods.some((method) => b.methods.includes(method));
}

/** `GET /products/{id} ('products.show', module shop)`, for error messages. */
export function describeRoute<H>(route: Route<H>): string {
  const domain = route.domain === null ? '' : ` on ${route.domain.source}`;
  const name = route.name === null ? '' : `'${route.name}', `;
  return `${route.methods.join('|')} ${route.pattern.source}${domain} (${name}module ${route.module})`;
}
