import { clientIp } from '../../../domain/http/client-ip/client-ip.js';
import type { TrustedProxies } from '../../../domain/http/client-ip/client-ip.js';
import { acceptRequestId, newRequestId } from '../../../domain/http/request-id.js';
import { securityHeaders } from '../../../domain/http/security-headers.js';
import type { Logger } from '../../../ports/logger.js';
import type { RandomSource } from '../../../ports/random-source.js';
import { headerText } from './context.js';
import type { RequestState } from './request.js';
import { bytesAsBuffer } from '../../../domain/shared/bytes.js';

/**
 * The stages before routing (spec 001's stages 1 to 4), as rules each transport applies with
 * its own request and response: hapi as server extensions, the fetch handler in line.
 */

export interface FrontOptions {
  https: boolean;
  trustedProxies: TrustedProxies;
  random: RandomSource;
  logger: Logger;
}

type Headers = Readonly<Record<string, string | string[] | undefined>>;

/**
 * Stages 1 and 3 on the way in: a fresh CSP nonce, the client's address through trusted
 * proxies, and the request id (kept from `X-Request-Id` when acceptable, otherwise made) with a
 * log span whose every line carries it.
 */
export function startRequest(options: FrontOptions, remoteAddress: string | undefined, headers: Headers): RequestState {
  const nonce = bytesAsBuffer(options.random.bytes(16)).toString('base64');
  const incoming = headers['x-request-id'];
  const requestId = acceptRequestId(typeof incoming === 'string' ? incoming : undefined) ?? newRequestId(options.random.bytes(16));
  const xForwardedFor = headerText(headers['x-forwarded-for']);
  const forwarded = headerText(headers['forwarded']);
  return {
    nonce,
    clientIp:
      xForwardedFor === undefined && forwarded === undefined
        ? socketClientIp(remoteAddress, options.trustedProxies)
        : clientIp({ remoteAddress, xForwardedFor, forwarded, trustedProxies: options.trustedProxies }),
    requestId,
    log: options.logger.child({ requestId }),
    startedAt: performance.now(),
    formBytes: 0,
    printedCsrfToken: null,
  };
}

/**
 * Without forwarding headers the client is the socket's peer, whoever the trusted proxies are:
 * its canonical text is remembered per address (parsing and formatting it was a tenth of the
 * framework's own time on `/health`, docs/performance.md). A few addresses make most requests
 * (a proxy, a load balancer); the memo is bounded all the same.
 */
const socketAddresses = new Map<string, string | null>();
const SOCKET_ADDRESSES = 1024;

function socketClientIp(remoteAddress: string | undefined, trustedProxies: TrustedProxies): string | null {
  if (remoteAddress === undefined) return clientIp({ remoteAddress, trustedProxies });
  let known = socketAddresses.get(remoteAddress);
  if (known === undefined) {
    known = clientIp({ remoteAddress, trustedProxies });
    if (socketAddresses.size >= SOCKET_ADDRESSES) socketAddresses.clear();
    socketAddresses.set(remoteAddress, known);
  }
  return known;
}

/**
 * Stages 1 and 3 on the way out: the security headers and the request id on every response
 * (pages, errors, files and `/health` alike). A 304 answers a cached page whose nonce is long
 * gone: it carries no policy.
 */
export function frontHeaders(state: RequestState, https: boolean, status: number): Record<string, string> {
  const headers = securityHeaders({ https, nonce: state.nonce });
  if (status === 304) delete headers['content-security-policy'];
  headers['x-request-id'] = state.requestId;
  return headers;
}

/** Stage 3's access-log line, once the response is sent. */
export function logAccess(state: RequestState, method: string, path: string, status: number): void {
  state.log.info('request', { method, path, status, ms: Math.round((performance.now() - state.startedAt) * 10) / 10, ip: state.clientIp });
}

/** A form without files never needs more: its text fields are what the 2 MB limit is for. */
export const FORM_LIMIT_BYTES = 2 * 1024 * 1024;
export const FORM_TOO_LARGE = 'The form is too large.';
export const PAYLOAD_TOO_LARGE = 'Payload too large.';

export type BodyKind = 'form' | 'upload' | 'other';

export function bodyKind(headers: Headers): BodyKind {
  const header = headers['content-type'];
  const type = typeof header === 'string' ? header.toLowerCase() : '';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (type.startsWith('multipart/form-data')) return 'upload';
  return 'other';
}

/** The most bytes a body of this kind may have: 2 MB for a plain form, UPLOAD_MAX_SIZE otherwise. */
export function bodyLimit(kind: BodyKind, uploadMaxBytes: number): number {
  return kind === 'form' ? FORM_LIMIT_BYTES : uploadMaxBytes;
}

/**
 * Stage 3's body limit, for a body past its limit: forms and uploads get 400 with a sentence
 * a person understands, other bodies 413.
 */
export function tooLarge(kind: BodyKind): { status: number; text: string } {
  return kind === 'other' ? { status: 413, text: PAYLOAD_TOO_LARGE } : { status: 400, text: FORM_TOO_LARGE };
}

/** `/robots.txt` when the app has none in `public/`: everything may be crawled. */
export const ROBOTS_TXT = 'User-agent: *\nDisallow:\n';

/** A year: asset URLs carry their content's hash, so they never go stale. */
export const ASSET_CACHE = 'public, max-age=31536000, immutable';

/** A file of `public/`: versioned URLs (`?v=`) are cached for a year, others revalidated. */
export function publicFileCache(versioned: boolean): string {
  return versioned ? ASSET_CACHE : 'public, max-age=0, must-revalidate';
}

/** What `GET /health` answers on every transport (with `Cache-Control: no-store`), for any Host. */
export const HEALTH_ANSWER = { status: 'ok' } as const;
