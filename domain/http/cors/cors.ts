import { normalizeOrigin } from './cors-origin.js';
import { MisuseError } from '../../shared/errors.js';

/**
 * Cross-origin rules of `.cors(origins)` and `.corsLayer(options)`: which origins may read the
 * answers of the routes, and the `Access-Control-*` headers that tell browsers so. Browsers
 * enforce the rules; the server only answers honestly and never says more than configured.
 */
export interface CorsPolicy {
  /** `'*'` was listed: every origin except `null` (which must be listed by name). */
  readonly anyOrigin: boolean;
  /** Listed origins, normalised (`https://app.example`), and `'null'` when listed. */
  readonly origins: ReadonlySet<string>;
  /** Upper case, as sent in `Access-Control-Allow-Methods`. */
  readonly methods: readonly string[];
  /** As configured; compared case-insensitively. */
  readonly allowedHeaders: readonly string[];
  readonly exposedHeaders: readonly string[];
  /** Cookies and HTTP authentication go along; never with `*` or `null` origins. */
  readonly credentials: boolean;
  readonly maxAgeSeconds: number;
}

export interface CorsLayerOptions {
  origins: readonly string[];
  methods?: readonly string[];
  headers?: readonly string[];
  exposedHeaders?: readonly string[];
  credentials?: boolean;
  maxAgeSeconds?: number;
}

export const DEFAULT_CORS_METHODS = Object.freeze(['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);
/**
 * `X-XSRF-TOKEN` is deliberately absent: it carries a token read from a cookie, which other
 * origins must never be invited to send. Scripts on allowed origins use `X-CSRF-Token`.
 */
export const DEFAULT_CORS_HEADERS = Object.freeze(['Content-Type', 'Authorization', 'Accept', 'X-CSRF-Token']);
/** An hour: the spec's preflight lifetime (browsers cap it at 2 h or more anyway). */
export const DEFAULT_CORS_MAX_AGE_SECONDS = 3600;

const TOKEN = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/u;

function tokens(what: string, values: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of values) {
    const value = raw.trim();
    // `*` means "anything" to browsers only without credentials; listing names keeps one meaning.
    if (!TOKEN.test(value) || value === '*') throw new MisuseError('cors.bad-name', `CORS ${what} '${raw}' is not a header or method name`);
    if (seen.has(value.toLowerCase())) continue;
    seen.add(value.toLowerCase());
    result.push(value);
  }
  return result;
}

/** `.cors(origins)`: the spec's methods and headers, no credentials, preflights kept an hour. */
export function corsPolicy(origins: readonly string[]): CorsPolicy {
  return corsLayerPolicy({ origins });
}

/**
 * `.corsLayer(options)`. Configuration mistakes are TypeErrors at start-up: credentials with
 * `*` (browsers refuse that answer, and reflecting every origin instead would let any site
 * read a logged-in user's data) and credentials with a listed `null` (sandboxed frames and
 * `data:` pages of any site send `null`, so it identifies nobody).
 */
export function corsLayerPolicy(options: CorsLayerOptions): CorsPolicy {
  if (options.origins.length === 0) throw new MisuseError('cors.no-origin', 'CORS needs at least one origin (or "*")');
  let anyOrigin = false;
  const origins = new Set<string>();
  for (const raw of options.origins) {
    if (raw.trim() === '*') {
      anyOrigin = true;
      continue;
    }
    const origin = normalizeOrigin(raw);
    if (origin === null) throw new MisuseError('cors.bad-origin', `CORS origin '${raw}' is not scheme://host[:port] or "null"`);
    origins.add(origin);
  }
  const credentials = options.credentials ?? false;
  if (credentials && anyOrigin) throw new MisuseError('cors.credentials-with-any-origin', 'CORS credentials cannot be combined with the "*" origin; list the origins');
  if (credentials && origins.has('null')) throw new MisuseError('cors.credentials-with-null-origin', 'CORS credentials cannot be combined with the "null" origin');
  const maxAgeSeconds = options.maxAgeSeconds ?? DEFAULT_CORS_MAX_AGE_SECONDS;
  if (!Number.isSafeInteger(maxAgeSeconds) || maxAgeSeconds < 0) {
    throw new MisuseError('cors.bad-max-age', `CORS maxAgeSeconds must be a whole number of seconds, got ${maxAgeSeconds}`);
  }
  return Object.freeze({
    anyOrigin,
    origins,
    methods: Object.freeze(tokens('method', options.methods ?? DEFAULT_CORS_METHODS).map((m) => m.toUpperCase())),
    allowedHeaders: Object.freeze(tokens('header', options.headers ?? DEFAULT_CORS_HEADERS)),
    exposedHeaders: Object.freeze(tokens('exposed header', options.exposedHeaders ?? [])),
    credentials,
    maxAgeSeconds,
  });
}

export interface CorsRequest {
  method: string;
  /** The `Origin` header. */
  origin?: string | undefined;
  /** `Access-Control-Request-Method`: present only on preflights. */
  requestMethod?: string | undefined;
  /** `Access-Control-Request-Headers`. */
  requestHeaders?: string | undefined;
}

/**
 * What to do with one request. Every kind carries headers to add to the answer (at least
 * `Vary: Origin`, to be merged with any other Vary): the answer always depends on the Origin
 * (even with `*`, a `null` origin is refused), so shared caches must keep answers apart.
 *
 * - `not-cors`: no Origin; handle as usual.
 * - `actual`: an allowed cross-origin request; handle it and add the headers.
 * - `origin-refused`: handle it without CORS headers; the browser keeps the answer from the
 *   page (same-origin POSTs carry an Origin too, so refusing outright would break the app).
 * - `preflight`: answer 204 with the headers; the handler is not run.
 * - `preflight-refused`: answer without CORS headers (the browser then blocks the request).
 */
export type CorsDecision =
  | { readonly kind: 'not-cors'; readonly headers: Record<string, string> }
  | { readonly kind: 'actual'; readonly headers: Record<string, string> }
  | { readonly kind: 'origin-refused'; readonly headers: Record<string, string> }
  | { readonly kind: 'preflight'; readonly headers: Record<string, string> }
  | {
      readonly kind: 'preflight-refused';
      readonly reason: 'origin' | 'method' | 'headers';
      readonly headers: Record<string, string>;
    };

/** Methods browsers send cross-origin without asking: allowing them in a preflight changes nothing. */
const SAFELISTED_METHODS = new Set(['GET', 'HEAD', 'POST']);

/** The `Access-Control-Allow-Origin` value for this Origin header, or null when refused. */
function allowOrigin(policy: CorsPolicy, header: string): string | null {
  const origin = normalizeOrigin(header);
  if (origin === null) return null;
  if (origin === 'null') return policy.origins.has('null') && !policy.credentials ? 'null' : null;
  if (policy.origins.has(origin)) return origin;
  return policy.anyOrigin ? '*' : null;
}

/** Every name of an `Access-Control-Request-Headers` list is allowed (case-insensitively). */
function headersAllowed(policy: CorsPolicy, list: string | undefined): boolean {
  const allowed = new Set(policy.allowedHeaders.map((name) => name.toLowerCase()));
  const names = (list ?? '').split(',').map((name) => name.trim()).filter((name) => name !== '');
  return names.every((name) => TOKEN.test(name) && allowed.has(name.toLowerCase()));
}

export function corsDecision(policy: CorsPolicy, request: CorsRequest): CorsDecision {
  const vary = { vary: 'Origin' };
  if (request.origin === undefined || request.origin.trim() === '') return { kind: 'not-cors', headers: vary };
  const preflight = request.method.toUpperCase() === 'OPTIONS' && request.requestMethod !== undefined;
  const origin = allowOrigin(policy, request.origin);
  if (origin === null) {
    return preflight ? { kind: 'preflight-refused', reason: 'origin', headers: vary } : { kind: 'origin-refused', headers: vary };
  }
  const headers: Record<string, string> = { ...vary, 'access-control-allow-origin': origin };
  if (policy.credentials) headers['access-control-allow-credentials'] = 'true';
  if (!preflight) {
    if (policy.exposedHeaders.length > 0) headers['access-control-expose-headers'] = policy.exposedHeaders.join(', ');
    return { kind: 'actual', headers };
  }
  // Methods are case-sensitive; browsers already upper-case the standard ones (not `patch`).
  const method = (request.requestMethod ?? '').trim();
  if (!policy.methods.includes(method) && !SAFELISTED_METHODS.has(method)) {
    return { kind: 'preflight-refused', reason: 'method', headers: vary };
  }
  if (!headersAllowed(policy, request.requestHeaders)) return { kind: 'preflight-refused', reason: 'headers', headers: vary };
  headers['access-control-allow-methods'] = policy.methods.join(', ');
  if (policy.allowedHeaders.length > 0) headers['access-control-allow-headers'] = policy.allowedHeaders.join(', ');
  headers['access-control-max-age'] = String(policy.maxAgeSeconds);
  return { kind: 'preflight', headers };
}

/**
 * The decision when several cors layers cover one route (`.get(a).cors(x).get(b).cors(y)`
 * puts `a` under both): each layer grants its origins, so the first policy that allows the
 * request answers with its own headers, and a request none allows gets the first refusal.
 * Each answer comes from one policy whole, so credentials never travel with another layer's
 * `*` or `null`. `policies` are in precedence order: the layer declared nearest the route first.
 */
export function corsDecisionAmong(policies: readonly CorsPolicy[], request: CorsRequest): CorsDecision {
  let refusal: CorsDecision | null = null;
  for (const policy of policies) {
    const decision = corsDecision(policy, request);
    if (decision.kind === 'actual' || decision.kind === 'preflight' || decision.kind === 'not-cors') return decision;
    refusal ??= decision;
  }
  if (refusal === null) throw new MisuseError('cors.no-policy', 'a CORS decision needs at least one policy');
  return refusal;
}

/** One header name, nothing to trim, split or merge. */
const SINGLE_NAME = /^[!#$%&'+.^_`|~0-9A-Za-z-]+$/u;

/**
 * One `Vary` value from several (`Accept` and `Origin` → `Accept, Origin`): names kept once,
 * case-insensitively, in the order met; `*` absorbs everything. A CORS answer must add
 * `Origin` to whatever Vary the app set, never replace it.
 */
export function mergeVary(...values: readonly (string | undefined)[]): string {
  // The usual call: one name onto nothing yet (a page's `Vary: Accept-Language`).
  if (values.length === 2 && values[0] === undefined && values[1] !== undefined && SINGLE_NAME.test(values[1])) return values[1];
  const seen = new Set<string>();
  const names: string[] = [];
  for (const value of values) {
    for (const part of (value ?? '').split(',')) {
      const name = part.trim();
      if (name === '') continue;
      if (name === '*') return '*';
      if (seen.has(name.toLowerCase())) continue;
      seen.add(name.toLowerCase());
      names.push(name);
    }
  }
  return names.join(', ');
}
