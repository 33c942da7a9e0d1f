import { MisuseError } from '../shared/errors.js';
export interface SecurityHeaderInput {
  /** APP_URL is https: browsers are told to use https only (HSTS). */
  https: boolean;
  /** This request's CSP nonce: inline scripts and styles carry it to run. */
  nonce: string;
}

/** A year, as browsers and the HSTS preload list expect. */
const HSTS_MAX_AGE = 31_536_000;

/**
 * The headers every response gets. The Content-Security-Policy allows the app's own origin
 * and inline code that carries this request's nonce, nothing else; `frame-ancestors 'self'`
 * and X-Frame-Options keep pages out of other sites' frames (clickjacking).
 */
export function securityHeaders(input: SecurityHeaderInput): Record<string, string> {
  const headers: Record<string, string> = {
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-frame-options': 'SAMEORIGIN',
    'content-security-policy': contentSecurityPolicy(input.nonce),
  };
  if (input.https) headers['strict-transport-security'] = `max-age=${HSTS_MAX_AGE}; includeSubDomains`;
  return headers;
}

const NONCE = /^[A-Za-z0-9+/=_-]{16,}$/u;
/** The policy's fixed directives after the two that carry the nonce, joined once. */
const FIXED_DIRECTIVES = ["img-src 'self' data:", "font-src 'self'", "connect-src 'self'", "object-src 'none'", "base-uri 'self'", "form-action 'self'", "frame-ancestors 'self'"].join('; ');

export function contentSecurityPolicy(nonce: string): string {
  if (!NONCE.test(nonce)) throw new MisuseError('http.bad-nonce', 'a CSP nonce needs at least 16 base64 characters');
  return `default-src 'self'; script-src 'self' 'nonce-${nonce}'; style-src 'self' 'nonce-${nonce}'; ${FIXED_DIRECTIVES}`;
}
