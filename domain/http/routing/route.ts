import type { HostPattern } from './host-pattern.js';
import type { PathPattern } from './path-pattern.js';
import type { RouteLayer } from './route-layer.js';

/** `*` is a route for any method (`.route`, `.redirect`); HEAD is answered by GET routes. */
export type RouteMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | '*';

/** What a matched route answers with. The domain never calls a handler; it only hands it back. */
export type RouteTarget<H> =
  | { readonly kind: 'handler'; readonly handler: H }
  | { readonly kind: 'view'; readonly template: string }
  | { readonly kind: 'redirect'; readonly to: string; readonly status: 301 | 302 };

/**
 * One route as a `Routes` builder holds it. A resource's `update` is one route with the
 * methods PUT and PATCH, so it has one name and one `route:list` row.
 */
export interface RouteDefinition<H> {
  readonly methods: readonly RouteMethod[];
  readonly pattern: PathPattern;
  readonly target: RouteTarget<H>;
  readonly name: string | null;
  /** Outermost first: the layer added last wraps all the others. */
  readonly layers: readonly RouteLayer[];
  /** Null for routes served on every host that matches no domain. */
  readonly domain: HostPattern | null;
}

/** Answers when no route matches: the app's (domain null) or one domain's. */
export interface FallbackDefinition<H> {
  readonly handler: H;
  readonly domain: HostPattern | null;
}
