import type { RouteTable } from './route-table.js';

/** One line of `route:list`. */
export interface RouteListRow {
  /** `GET|HEAD` for GET routes, `PUT|PATCH` for a resource's update, `*` for any method. */
  method: string;
  path: string;
  /** '' when the route has no name. */
  name: string;
  module: string;
  /** The layers' labels in the order they were added, joined with ', '; plain middleware is left out. */
  guards: string;
  /** '' when the route has no domain. */
  domain: string;
}

/** Every route in declaration order. Fallbacks are not routes and are not listed. */
export function routeListRows<H>(table: RouteTable<H>): RouteListRow[] {
  return table.routes.map((route) => ({
    method: route.methods.includes('*')
      ? '*'
      : route.methods.flatMap((method) => (method === 'GET' ? ['GET', 'HEAD'] : [method])).join('|'),
    path: route.pattern.source,
    name: route.name ?? '',
    module: route.module,
    // Layers are stored outermost first, which is the reverse of the order they were added.
    guards: route.layers
      .flatMap((layer) => (layer.label === null ? [] : [layer.label]))
      .reverse()
      .join(', '),
    domain: route.domain?.source ?? '',
  }));
}

/** Whether the CLI should show the domain column. */
export function routeListHasDomains<H>(table: RouteTable<H>): boolean {
  return table.routes.some((route) => route.domain !== null);
}
