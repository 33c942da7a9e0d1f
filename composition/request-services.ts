import type { InProcessEventBus } from '../adapters/events/in-process-event-bus.js';
import type { RequestContext, ServiceKey } from '../adapters/http/kernel/request-context.js';
import type { RequestOrigin } from '../ports/request-origin.js';
import { EVENT_TOKENS } from './bindings/events.js';
import { recipeOf } from './bindings/provide.js';
import type { Recipe } from './bindings/provide.js';
import type { AppServices } from './services.js';

/**
 * A module's services for one request, named as its handlers want them and resolved only when
 * a handler reads one: `servicesFrom(ctx, { attemptLogin: TOKENS.attemptLogin, … })`.
 */
export function servicesFrom<T extends object>(ctx: RequestContext, keys: { readonly [K in keyof T]: ServiceKey<T[K]> }): T {
  const services = {} as T;
  for (const name of Object.keys(keys) as (keyof T)[]) {
    Object.defineProperty(services, name, { enumerable: true, get: () => ctx.service(keys[name]) });
  }
  return services;
}

/** A service lookup for one request: `ctx.service(key)` reads through it. */
export type RequestServiceLookup = (key: symbol) => unknown;

/**
 * The app's services as one request sees them (what `ctx.service` resolves), given the
 * request's origin (client address, request id). The same singletons, except the event bus
 * and what is built on it: `TOKENS.eventBus` is the request's own view of the bus, whose
 * listeners hear the request's origin with each event, and every service whose recipe
 * reaches the bus (the use cases that publish: `CompleteLogin`, `RegisterUser`,
 * `CompleteSignIn`…) is built again for the request around that view, once, on first ask.
 *
 * This is how the audit log learns which request an event came from without an
 * AsyncLocalStorage (on Node 20 it turns on promise hooks for every promise of the process:
 * 3–8 % of a page's CPU). What it asks of services built on the bus: they keep no state of
 * their own beyond their dependencies (the framework's use cases do not). A service bound
 * other than with `provide` (an override, a module's own binding) is the app's one, and
 * publishes with no origin; so does anything reached from `app.services()` (commands, jobs).
 */
export function requestServices(services: AppServices): (origin: RequestOrigin) => RequestServiceLookup {
  const { container } = services;
  let hub: InProcessEventBus | null = null;
  /** Whether a token's service is built on the bus, worked out once per token. */
  const onBus = new Map<symbol, boolean>();
  const builtOnBus = (key: symbol): boolean => {
    if (key === EVENT_TOKENS.eventBus) return true;
    let known = onBus.get(key);
    if (known === undefined) {
      onBus.set(key, false);
      known = recipeOf(container, key)?.deps.some(builtOnBus) ?? false;
      onBus.set(key, known);
    }
    return known;
  };
  return (origin) => {
    let own: Map<symbol, unknown> | null = null;
    const lookup = (key: symbol): unknown => {
      if (!builtOnBus(key)) return services.get(key);
      own ??= new Map();
      if (own.has(key)) return own.get(key);
      let service: unknown;
      if (key === EVENT_TOKENS.eventBus) {
        hub ??= services.get(EVENT_TOKENS.eventHub);
        service = hub.from(origin);
      } else {
        const recipe = recipeOf(container, key) as Recipe;
        service = recipe.factory(...(recipe.deps.map(lookup) as never[]));
      }
      own.set(key, service);
      return service;
    };
    return lookup;
  };
}
