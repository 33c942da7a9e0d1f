import type { RouteMethod } from './route.js';

/** The handlers of a resource; only the actions given produce routes. */
export interface ResourceActions<H> {
  readonly index?: H;
  readonly create?: H;
  readonly store?: H;
  readonly show?: H;
  readonly edit?: H;
  readonly update?: H;
  readonly destroy?: H;
}

export type ResourceAction = keyof ResourceActions<unknown>;

/** The spec's resource table, in the order the routes are added. */
export const RESOURCE_ROUTES: readonly {
  readonly action: ResourceAction;
  readonly methods: readonly RouteMethod[];
  readonly suffix: string;
}[] = Object.freeze([
  { action: 'index', methods: ['GET'], suffix: '/' },
  { action: 'create', methods: ['GET'], suffix: '/new' },
  { action: 'store', methods: ['POST'], suffix: '/' },
  { action: 'show', methods: ['GET'], suffix: '/{id}' },
  { action: 'edit', methods: ['GET'], suffix: '/{id}/edit' },
  { action: 'update', methods: ['PUT', 'PATCH'], suffix: '/{id}' },
  { action: 'destroy', methods: ['DELETE'], suffix: '/{id}' },
]);
