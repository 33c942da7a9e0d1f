import { FrameworkError } from '../../shared/errors.js';

/**
 * Every way a route definition or a URL request can be wrong. These are programmer errors
 * (the spec's "panics" and "is an error"): they are thrown, never returned, and the app stops
 * at start-up or the caller's bug surfaces at once. The codes are stable so tests and the
 * error pages can tell them apart without reading messages.
 */
export type RoutingErrorCode =
  | 'routing.empty-path'
  | 'routing.bad-pattern'
  | 'routing.bad-domain'
  | 'routing.bad-name'
  | 'routing.bad-target'
  | 'routing.no-route-to-name'
  | 'routing.already-named'
  | 'routing.group-prefix'
  | 'routing.group-name-prefix'
  | 'routing.group-domain'
  | 'routing.group-fallback'
  | 'routing.nested-domain'
  | 'routing.two-fallbacks'
  | 'routing.resource-actions'
  | 'routing.layer-without-routes'
  | 'routing.layer-argument'
  | 'routing.throttle'
  | 'routing.duplicate-name'
  | 'routing.duplicate-route'
  | 'routing.unknown-route'
  | 'routing.url-arguments'
  | 'routing.url-query';

export class RoutingError extends FrameworkError<RoutingErrorCode> {

  constructor(code: RoutingErrorCode, message: string) {
    super(code, message);
  }
}
