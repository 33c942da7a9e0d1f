import { compareHostSpecificity, hostLabels, matchHost } from './host-pattern.js';
import { compareSpecificity, matchPath, splitRequestPath } from './path-pattern.js';
import type { DomainScope, Fallback, Route, RouteScope, RouteTable } from './route-table.js';

export interface RouteRequest {
  readonly method: string;
  /** The Host header value; the port and letter case do not matter. */
  readonly host: string;
  /** The path without the query string, still percent-encoded. */
  readonly path: string;
}

export type RouteMatch<H> =
  | {
      readonly kind: 'matched';
      readonly route: Route<H>;
      readonly params: Record<string, string>;
      readonly domainParams: Record<string, string>;
    }
  | { readonly kind: 'method-not-allowed'; readonly allowed: string[] }
  | { readonly kind: 'fallback'; readonly fallback: Fallback<H>; readonly domainParams: Record<string, string> }
  | { readonly kind: 'not-found' }
  | { readonly kind: 'bad-path' };

/** The order methods are listed in an `Allow` header. */
const METHOD_ORDER = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE'];

/**
 * Finds the route for a request. The host picks the scope: a host matching a domain gets
 * only that domain's routes and fallback (the most specific domain when several match);
 * every other host gets the routes without a domain. Within the scope, among the routes
 * whose path matches and which accept the method, the most specific pattern wins, and the
 * one declared first among equals. GET routes answer HEAD; `*` routes answer every method.
 *
 * A path that does not start with `/`, or holds a malformed percent escape, is `bad-path`.
 */
export function matchRoute<H>(table: RouteTable<H>, request: RouteRequest): RouteMatch<H> {
  const split = splitRequestPath(request.path);
  if (split === null) return { kind: 'bad-path' };
  const labels = hostLabels(request.host);
  const scope: RouteScope<H> | DomainScope<H> = domainScope(table, labels) ?? table.plain;
  const method = request.method.toUpperCase();

  let best: { route: Route<H>; params: Record<string, string> } | null = null;
  const allowed = new Set<string>();
  for (const route of scope.routes) {
    const params = matchPath(route.pattern, split.raw, split.decoded);
    if (params === null) continue;
    if (!accepts(route, method)) {
      for (const other of route.methods) allowed.add(other);
      continue;
    }
    // Strictly more specific only: among equals the route declared first stays.
    if (best === null || compareSpecificity(route.pattern, best.route.pattern) < 0) best = { route, params };
  }

  if (best !== null) {
    const domainParams = best.route.domain === null ? {} : (matchHost(best.route.domain, labels) ?? {});
    return { kind: 'matched', route: best.route, params: best.params, domainParams };
  }
  if (allowed.size > 0) {
    if (allowed.has('GET')) allowed.add('HEAD');
    return { kind: 'method-not-allowed', allowed: METHOD_ORDER.filter((name) => allowed.has(name)) };
  }
  if (scope.fallback !== null) {
    const { fallback } = scope;
    const domainParams = fallback.domain === null ? {} : (matchHost(fallback.domain, labels) ?? {});
    return { kind: 'fallback', fallback, domainParams };
  }
  return { kind: 'not-found' };
}

function domainScope<H>(table: RouteTable<H>, labels: readonly string[]): DomainScope<H> | null {
  let best: DomainScope<H> | null = null;
  for (const domain of table.domains) {
    if (matchHost(domain.host, labels) === null) continue;
    if (best === null || compareHostSpecificity(domain.host, best.host) < 0) best = domain;
  }
  return best;
}

function accepts<H>(route: Route<H>, method: string): boolean {
  return route.methods.some((own) => own === '*' || own === method || (own === 'GET' && method === 'HEAD'));
}
