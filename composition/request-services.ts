import type { RequestContext, ServiceKey } from '../adapters/http/kernel/request-context.js';

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
