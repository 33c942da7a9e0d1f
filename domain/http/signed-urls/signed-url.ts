import { createHmac, timingSafeEqual } from 'node:crypto';
import { canonicalPath } from './signed-url-path.js';
import { MisuseError } from '../../shared/errors.js';
import { secretKey } from '../../shared/secret-key.js';

/**
 * Signed URLs: `<path>?expires=<epoch seconds>&signature=<hex HMAC-SHA256>`.
 *
 * The HMAC (with `AppKeys.signedUrls`, derived from APP_KEY) covers `"<path>\n<expires>"`, the
 * path exactly as it travels (escapes in upper-case hex). Because only the path and expiry
 * are signed, a signed link carries no other query string: any extra, missing or reordered
 * parameter is refused rather than ignored, so nothing unsigned can ride along.
 *
 * `expires` is the first second at which the link no longer works: valid while
 * `now < expires`, so a link signed at t with a ttl of 60 works from t to t+59 inclusive.
 */
export interface SignOptions {
  /** Epoch seconds; see `expiresAfter`. */
  readonly expiresAt: number;
  /** At least 32 bytes: `AppKeys.signedUrls`. */
  readonly key: Buffer;
}

export interface VerifyOptions {
  /** Epoch seconds. */
  readonly now: number;
  readonly key: Buffer;
}

export type SignedUrlVerdict =
  | { readonly kind: 'valid' }
  | { readonly kind: 'invalid'; readonly reason: 'missing' | 'malformed' | 'expired' | 'tampered' };

// No leading zeros: the expiry is signed as written, so one instant has exactly one spelling.
const QUERY = /^expires=(0|[1-9][0-9]*)&signature=([0-9a-f]{64})$/u;

function checkKey(key: Buffer): void {
  if (!Buffer.isBuffer(key) || key.length < 32) throw new MisuseError('signed-url.bad-key', 'a signed-URL key must be a Buffer of at least 32 bytes');
}

function mac(key: Buffer, path: string, expires: string): Buffer {
  return createHmac('sha256', secretKey(key)).update(`${path}\n${expires}`, 'utf8').digest();
}

/** `now` plus `ttlSeconds`, in whole epoch seconds (rounded down, so a link never outlives its ttl). */
export function expiresAfter(nowSeconds: number, ttlSeconds: number): number {
  if (!Number.isFinite(nowSeconds) || nowSeconds < 0) throw new MisuseError('signed-url.bad-time', `now must be epoch seconds, got ${nowSeconds}`);
  if (!Number.isSafeInteger(ttlSeconds) || ttlSeconds < 1) throw new MisuseError('signed-url.bad-ttl', `a ttl must be whole seconds of at least 1, got ${ttlSeconds}`);
  return Math.floor(nowSeconds) + ttlSeconds;
}

/** The path with `?expires=…&signature=…` appended. A query string, fragment or unsendable path throws. */
export function signPath(path: string, { expiresAt, key }: SignOptions): string {
  checkKey(key);
  if (!Number.isSafeInteger(expiresAt) || expiresAt < 0) throw new MisuseError('signed-url.bad-time', `expiresAt must be whole epoch seconds, got ${expiresAt}`);
  if (path.includes('?') || path.includes('#')) {
    throw new MisuseError('signed-url.bad-path', `cannot sign '${path}': a signed link carries no other query string and no fragment`);
  }
  const canonical = canonicalPath(path);
  if (canonical.kind === 'refused') throw new MisuseError('signed-url.bad-path', `cannot sign '${path}': the path ${canonical.why}`);
  const expires = String(expiresAt);
  return `${canonical.path}?expires=${expires}&signature=${mac(key, canonical.path, expires).toString('hex')}`;
}

/**
 * Checks a request's path and query. The signature is checked before the expiry, so
 * `expired` only ever describes a genuine link that ran out (worth telling the user), never
 * a forgery.
 */
export function verifySignedPath(pathAndQuery: string, { now, key }: VerifyOptions): SignedUrlVerdict {
  checkKey(key);
  if (!Number.isFinite(now)) throw new MisuseError('signed-url.bad-time', `now must be epoch seconds, got ${now}`);
  if (pathAndQuery.includes('#')) return invalid('malformed');
  const mark = pathAndQuery.indexOf('?');
  if (mark < 0) return invalid('missing');
  const path = canonicalPath(pathAndQuery.slice(0, mark));
  const query = pathAndQuery.slice(mark + 1);
  const names = query.split('&').map((pair) => pair.split('=', 1)[0]);
  if (!names.includes('expires') || !names.includes('signature')) return invalid('missing');
  const match = QUERY.exec(query);
  if (path.kind === 'refused' || match === null) return invalid('malformed');
  const [, expires = '', signature = ''] = match;
  if (!Number.isSafeInteger(Number(expires))) return invalid('malformed');
  // Both sides are 32 bytes here (64 hex characters were matched), as timingSafeEqual needs.
  if (!timingSafeEqual(mac(key, path.path, expires), Buffer.from(signature, 'hex'))) return invalid('tampered');
  if (now >= Number(expires)) return invalid('expired');
  return { kind: 'valid' };
}

function invalid(reason: 'missing' | 'malformed' | 'expired' | 'tampered'): SignedUrlVerdict {
  return { kind: 'invalid', reason };
}

const ORIGIN = /^https?:\/\/[^/?#]*/iu;

/**
 * `appUrl` (APP_URL, which may end in a base path) followed by the signed `path`. Only the
 * path is signed, not the origin: the app may be reached under several hosts (a CDN, an
 * internal name, TRUSTED_HOSTS), and a link must work on each of them.
 */
export function signUrl(appUrl: string, path: string, options: SignOptions): string {
  if (!ORIGIN.test(appUrl) || /[?#]/u.test(appUrl)) {
    throw new MisuseError('signed-url.bad-app-url', `'${appUrl}' must be an absolute http(s) address without a query or fragment`);
  }
  return `${appUrl.replace(/\/+$/u, '')}${signPath(path, options)}`;
}

export interface VerifyUrlOptions extends VerifyOptions {
  /** APP_URL's path (`/app`) when it has one: it is not part of what `signUrl` signed. */
  readonly basePath?: string;
}

/** True for an unexpired, unaltered signed link: an absolute http(s) URL (any host) or a path. */
export function verifySignedUrl(url: string, { basePath = '', ...options }: VerifyUrlOptions): boolean {
  if (basePath !== '' && !/^\/.*[^/]$/u.test(basePath)) throw new MisuseError('signed-url.bad-base-path', `basePath must be '' or start with / and not end with /, got '${basePath}'`);
  const origin = ORIGIN.exec(url);
  let target = origin === null ? url : url.slice(origin[0].length);
  if (origin !== null && !target.startsWith('/')) target = `/${target}`;
  if (!target.startsWith('/')) return false;
  if (basePath !== '') {
    if (!target.startsWith(`${basePath}/`)) return false;
    target = target.slice(basePath.length);
  }
  return verifySignedPath(target, options).kind === 'valid';
}
