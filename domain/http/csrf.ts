import { sameSecret } from '../security/constant-time.js';
import { isMaskOf } from './csrf-mask.js';

/**
 * CSRF: every POST, PUT, PATCH and DELETE must carry the session's token (otherwise 419).
 *
 * Where the token is read, first non-empty source wins: the `_token` form field, then the
 * `X-CSRF-Token` header, then `X-XSRF-TOKEN`, the last only when the app turned on the
 * `XSRF-TOKEN` cookie (`App.xsrfCookie()`). Without that cookie the framework never gave
 * scripts the token under that name, so a value there is ignored rather than trusted. A
 * wrong token in an earlier source is not rescued by a right one in a later source: one
 * request, one token.
 *
 * Pages print the token masked (`csrf-mask.ts`, against BREACH), so what comes back is
 * normally a masked token; the raw session token is accepted too (docs/decisions.md, masked
 * CSRF tokens): pages printed before masking, still open in browsers, keep working.
 */
const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** HTTP libraries differ on case (hapi lower-cases methods), so the method is compared upper-cased. */
export function csrfRequired(method: string): boolean {
  return UNSAFE_METHODS.has(method.toUpperCase());
}

type Token = string | null | undefined;

export interface CsrfInput {
  readonly method: string;
  /** The token kept in the session; null when the session has none (a new or lost session). */
  readonly sessionToken: Token;
  /** `_token` from an urlencoded or multipart form. */
  readonly fieldToken?: Token;
  /** `X-CSRF-Token`. */
  readonly headerToken?: Token;
  /** `X-XSRF-TOKEN`, the `XSRF-TOKEN` cookie echoed by a script. */
  readonly xsrfHeaderToken?: Token;
  /** `App.xsrfCookie()` is on. */
  readonly xsrfCookieEnabled: boolean;
  /**
   * The request is authenticated by an `Authorization: Bearer` token. A cross-site form or
   * link cannot set that header, so such a request is no forgery; a Bearer token that logs
   * nobody in is answered 401 before CSRF is checked.
   */
  readonly bearer: boolean;
  /** The route is under `.withoutCsrf()`. */
  readonly exempt: boolean;
}

export type CsrfVerdict =
  | { readonly kind: 'passed' }
  | { readonly kind: 'skipped'; readonly reason: 'safe-method' | 'bearer' | 'exempt' }
  | { readonly kind: 'refused'; readonly reason: 'missing' | 'mismatch' };

export function csrfCheck(input: CsrfInput): CsrfVerdict {
  if (!csrfRequired(input.method)) return { kind: 'skipped', reason: 'safe-method' };
  if (input.exempt) return { kind: 'skipped', reason: 'exempt' };
  if (input.bearer) return { kind: 'skipped', reason: 'bearer' };
  const sent = [input.fieldToken, input.headerToken, input.xsrfCookieEnabled ? input.xsrfHeaderToken : undefined].find(present);
  if (sent === undefined) return { kind: 'refused', reason: 'missing' };
  // A session without a token matches nothing: the form outlived its session.
  if (!present(input.sessionToken) || !tokenAccepted(input.sessionToken, sent)) return { kind: 'refused', reason: 'mismatch' };
  return { kind: 'passed' };
}

function present(token: Token): token is string {
  return token !== null && token !== undefined && token !== '';
}

/** `sent` is the session's token masked (what pages print) or, for older pages, the raw token. */
export function tokenAccepted(sessionToken: string, sent: string): boolean {
  return isMaskOf(sessionToken, sent) || tokensMatch(sessionToken, sent);
}

/** Constant-time comparison of the session's token with the one sent (see `sameSecret`). */
export function tokensMatch(expected: string, actual: string): boolean {
  return sameSecret(expected, actual);
}
