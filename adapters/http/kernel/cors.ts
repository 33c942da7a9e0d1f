import { matchRoute } from '../../../domain/http/routing/match.js';
import { corsPolicies } from '../../../domain/http/routing/route-layer.js';
import type { RouteLayer } from '../../../domain/http/routing/route-layer.js';
import type { RouteTable } from '../../../domain/http/routing/route-table.js';
import { corsDecisionAmong, mergeVary } from '../../../domain/http/cors/cors.js';
import type { CorsPolicy } from '../../../domain/http/cors/cors.js';
import { isPreflight, preflightAnswer } from '../../../domain/http/cors/cors-preflight.js';
import type { PreflightRefusal } from '../../../domain/http/cors/cors-preflight.js';
import { HttpAbort } from './http-error.js';
import { Header, status, text, withExtras } from './replies.js';
import type { Reply } from './replies.js';
import type { Middleware } from './request-context.js';
import { StopWithReply, headerText } from './context.js';
import { MisuseError } from '../../../domain/shared/errors.js';

type RequestHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** What `answerPreflight` reads of a request. */
export interface PreflightRequest {
  /** As received (not overridden): a preflight is a real OPTIONS. */
  method: string;
  host: string;
  /** Without the query string, still percent-encoded. */
  path: string;
  headers: RequestHeaders;
}

/** Shown to whoever reads a refused preflight (curl, the network tab); browsers only block. */
const REFUSALS: Record<PreflightRefusal, string> = {
  origin: 'CORS preflight refused: this origin may not call this route.',
  method: 'CORS preflight refused: this method is not allowed here.',
  headers: 'CORS preflight refused: a requested header is not allowed.',
};

/**
 * The answer to a browser's preflight, or null when the request is no preflight or no cors
 * layer covers the path (the app's routes then answer it, e.g. 405). The route is found with
 * the method the browser asks about; when no route of the path serves that method but one of
 * them is a CORS route, the preflight is refused. The dispatcher calls this before the
 * framework stages: a preflight opens no session, needs no CSRF token and is counted by no
 * throttle, so it costs the app nothing and cannot use up a visitor's limit.
 */
export function answerPreflight<H>(table: RouteTable<H>, request: PreflightRequest): Reply | null {
  const question = {
    method: request.method,
    origin: headerText(request.headers['origin']),
    requestMethod: headerText(request.headers['access-control-request-method']),
    requestHeaders: headerText(request.headers['access-control-request-headers']),
  };
  if (!isPreflight(question)) return null;
  const target = preflightTarget(table, request, (question.requestMethod ?? '').trim());
  if (target === null) return null;
  const answer = preflightAnswer(target.policies, question, target.served);
  const headers = Object.entries(answer.headers).map(([name, value]) => Header.make(name, value));
  return answer.kind === 'allowed' ? withExtras(status(answer.status), ...headers) : withExtras(text(REFUSALS[answer.reason], answer.status), ...headers);
}

function preflightTarget<H>(table: RouteTable<H>, request: PreflightRequest, method: string): { policies: CorsPolicy[]; served: boolean } | null {
  const match = matchRoute(table, { method, host: request.host, path: request.path });
  if (match.kind === 'matched') {
    const policies = corsPolicies(match.route.layers);
    return policies.length === 0 ? null : { policies, served: true };
  }
  if (match.kind !== 'method-not-allowed') return null;
  const policies = match.allowed.flatMap((other) => {
    const found = matchRoute(table, { method: other, host: request.host, path: request.path });
    return found.kind === 'matched' ? corsPolicies(found.route.layers) : [];
  });
  return policies.length === 0 ? null : { policies, served: false };
}

/**
 * The CORS part of actual (non-preflight) requests to routes under cors layers: every answer
 * gets `Vary: Origin`, and an allowed origin gets `Access-Control-Allow-Origin` (with
 * credentials and exposed headers as configured). A refused origin is still served, without
 * those headers: same-origin POSTs carry an Origin too, and the browser keeps the answer from
 * a foreign page.
 *
 * Error answers get the headers too, so a script on an allowed origin can read its 419, 429,
 * 403 or 503 instead of an opaque network error. The dispatcher runs it outside every other
 * stage, where inner errors arrive as finished pages; thrown aborts are still given the
 * headers, so it also works deeper in the onion.
 */
export function corsMiddleware(policies: readonly CorsPolicy[]): Middleware {
  if (policies.length === 0) throw new MisuseError('cors.no-policy', 'corsMiddleware needs at least one policy');
  return async (ctx, next) => {
    // No Access-Control-Request-Method: preflights were answered before the onion.
    const { headers } = corsDecisionAmong(policies, { method: ctx.method, origin: headerText(ctx.headers['origin']) });
    let reply: Reply;
    try {
      reply = await next();
    } catch (error) {
      throw withCorsOnError(error, headers);
    }
    return withCorsHeaders(reply, headers);
  };
}

const built = new WeakMap<object, readonly Middleware[]>();

/**
 * The route's CORS middleware as a list to put in front of the framework stages (empty when no
 * cors layer covers it), built once per route. Outermost of all, not among the route's own
 * layers: the CSRF 419, maintenance 503 and timeout 500 come from framework stages, and a
 * `.throttle` declared after `.cors` would otherwise answer its 429 outside it.
 */
export function routeCorsLayers(route: { readonly layers: readonly RouteLayer[] }): readonly Middleware[] {
  let layers = built.get(route);
  if (layers === undefined) {
    const policies = corsPolicies(route.layers);
    layers = Object.freeze(policies.length === 0 ? [] : [corsMiddleware(policies)]);
    built.set(route, layers);
  }
  return layers;
}

/**
 * The reply with the headers. `Vary: Origin` joins any Vary the reply already has: hapi's
 * `response.header('vary', …)` appends to the header rather than replacing it.
 */
export function withCorsHeaders(reply: Reply, headers: Record<string, string>): Reply {
  return withExtras(reply, ...Object.entries(headers).map(([name, value]) => Header.make(name, value)));
}

/** Headers of a thrown abort with the CORS ones; a plain object, so its Vary is merged here. */
function withHeaders(own: Record<string, string>, headers: Record<string, string>): Record<string, string> {
  const kept = Object.fromEntries(Object.entries(own).filter(([name]) => name.toLowerCase() !== 'vary'));
  const vary = Object.entries(own).filter(([name]) => name.toLowerCase() === 'vary').map(([, value]) => value);
  return { ...kept, ...headers, vary: mergeVary(...vary, headers['vary']) };
}

function withCorsOnError(error: unknown, headers: Record<string, string>): unknown {
  if (error instanceof HttpAbort) {
    const abort = new HttpAbort(error.status, error.message, withHeaders(error.headers, headers));
    if (error.stack !== undefined) abort.stack = error.stack;
    return abort;
  }
  if (error instanceof StopWithReply) return new StopWithReply(withCorsHeaders(error.reply, headers));
  // Anything else is a 500. Outermost, this layer never sees one (the views stage inside it
  // made the page, which got the headers above); deeper, that page goes without them.
  return error;
}
