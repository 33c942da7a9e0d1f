import { corsDecisionAmong } from './cors.js';
import type { CorsPolicy, CorsRequest } from './cors.js';
import { MisuseError } from '../../shared/errors.js';

/**
 * A browser's preflight: OPTIONS with an `Origin` and an `Access-Control-Request-Method`.
 * An OPTIONS without either is an ordinary request and goes through the app's routes.
 */
export function isPreflight(request: CorsRequest): boolean {
  return (
    request.method.toUpperCase() === 'OPTIONS' &&
    request.origin !== undefined &&
    request.origin.trim() !== '' &&
    request.requestMethod !== undefined
  );
}

export type PreflightRefusal = 'origin' | 'method' | 'headers';

/**
 * How a preflight is answered. Both carry the headers to send (a refusal only `Vary: Origin`,
 * no `Access-Control-Allow-*`). A refusal is a 403 rather than a 204 without headers: the
 * browser blocks the request either way, and a 403 tells a developer reading the network tab,
 * or a non-browser client, that the server said no.
 */
export type PreflightAnswer =
  | { readonly kind: 'allowed'; readonly status: 204; readonly headers: Record<string, string> }
  | { readonly kind: 'refused'; readonly status: 403; readonly reason: PreflightRefusal; readonly headers: Record<string, string> };

/**
 * The answer to a preflight about a path with CORS routes. `policies` are those of the route
 * that serves the requested method (precedence order, see `corsDecisionAmong`) and `served`
 * is true; when no route of the path serves that method, `policies` are those of the path's
 * other routes and `served` is false: the real request would be a 405, so the preflight is
 * refused rather than inviting it (an unlisted origin is still told 'origin').
 */
export function preflightAnswer(policies: readonly CorsPolicy[], request: CorsRequest, served: boolean): PreflightAnswer {
  const decision = corsDecisionAmong(policies, request);
  switch (decision.kind) {
    case 'preflight':
      if (served) return { kind: 'allowed', status: 204, headers: decision.headers };
      return { kind: 'refused', status: 403, reason: 'method', headers: { vary: decision.headers['vary'] ?? 'Origin' } };
    case 'preflight-refused':
      return { kind: 'refused', status: 403, reason: decision.reason, headers: decision.headers };
    case 'actual':
    case 'not-cors':
    case 'origin-refused':
      // Not a preflight after all (no Origin or no Access-Control-Request-Method): callers ask
      // `isPreflight` first, so this is their mistake.
      throw new MisuseError('cors.not-a-preflight', `preflightAnswer was given a request that is not a preflight (${decision.kind})`);
  }
}
