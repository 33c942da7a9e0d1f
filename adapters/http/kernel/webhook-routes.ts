import type { PathPattern } from '../../../domain/http/routing/path-pattern.js';
import type { Route, RouteTable } from '../../../domain/http/routing/route-table.js';
import { describeRoute } from '../../../domain/http/routing/route-table.js';
import { FrameworkError } from '../../../domain/shared/errors.js';
import { HttpAbort } from './http-error.js';
import type { Handler, Middleware } from './request-context.js';
import type { WebhookVerifier } from '../webhooks.js';

export const WEBHOOK_REFUSED = 'The webhook signature is invalid.';

// What hapi's router takes literally in a path (its `legalChars`); other text becomes a
// parameter, which matches a superset: the app's router still decides.
const HAPI_LITERAL = /^[\w!$&'()*+,;=:@\-.~]+$/u;

/**
 * The hapi path that catches a pattern's requests, with parameters renamed `p0`, `p1`, … so
 * two patterns of one shape give one path (hapi refuses two routes that differ only in names).
 */
export function hapiPath(pattern: PathPattern): string {
  if (pattern.segments.length === 0) return '/';
  const parts = pattern.segments.map((segment, index) => {
    if (segment.kind === 'static' && HAPI_LITERAL.test(segment.text)) return segment.text;
    return segment.kind === 'wildcard' ? `{p${index}*}` : `{p${index}}`;
  });
  return `/${parts.join('/')}`;
}

/** The hapi paths of every webhook route, once each, for `rawBodyRoutes`. */
export function webhookPaths(table: RouteTable<Handler>): string[] {
  const paths = table.routes.filter((route) => route.layers.some((layer) => layer.kind === 'webhook')).map((route) => hapiPath(route.pattern));
  return [...new Set(paths)];
}

/**
 * The webhook layer of one route: the request passes the verifier registered under `name`
 * with the body's bytes, or gets 403. Built at start-up: an unregistered name stops it.
 */
export function webhookMiddleware(route: Route<Handler>, name: string, verifiers: ReadonlyMap<string, WebhookVerifier>): Middleware {
  const verifier = verifiers.get(name);
  if (verifier === undefined) {
    throw new FrameworkError('http.unknown-webhook', `The route ${describeRoute(route)} is a webhook '${name}', but the app registers no App.webhook('${name}', …)`);
  }
  return async (ctx, next) => {
    const body = ctx.rawBody();
    if (body === null) {
      // Only when hapi's router sent the request past the raw-body route (see hapiPath): the
      // bytes are gone, so the signature cannot be checked. Refused, never let through.
      ctx.log.warn('a webhook request arrived without its raw body; refused', { route: route.pattern.source });
      throw new HttpAbort(403, WEBHOOK_REFUSED);
    }
    const valid = await verifier({ method: ctx.method, path: ctx.path, headers: ctx.headers, body });
    if (valid !== true) throw new HttpAbort(403, WEBHOOK_REFUSED);
    return next();
  };
}
