import { createHash } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';

/**
 * `.etag()`: cache validators for rendered pages.
 *
 * The hash leaves out the request's CSP nonce, so the same page rendered for two requests
 * (each with its own nonce) has one ETag and a browser revalidating gets 304. A 304 carries
 * no Content-Security-Policy: the browser keeps the cached page together with the CSP it came
 * with, whose nonce matches the nonces inside that cached page.
 *
 * The ETag is strong because it stands for the bytes of the page. Two answers that differ
 * only in the nonce share it, so these ETags must not be used to join byte ranges (If-Range);
 * rendered pages are not served in ranges.
 */

/** The spec's limit: larger bodies are not hashed (2 MB, like the form body limit). */
export const ETAG_MAX_BODY_BYTES = 2 * 1024 * 1024;

/** 22 base64url characters = 132 bits of SHA-256: far beyond any collision of one URL's versions. */
const ETAG_LENGTH = 22;

/** The pieces of `body` between the occurrences of `nonce`. */
function withoutNonce(body: Buffer, nonce: Buffer | null): Buffer[] {
  if (nonce === null) return [body];
  const pieces: Buffer[] = [];
  let start = 0;
  for (let found = body.indexOf(nonce, start); found !== -1; found = body.indexOf(nonce, start)) {
    pieces.push(body.subarray(start, found));
    start = found + nonce.length;
  }
  pieces.push(body.subarray(start));
  return pieces;
}

/**
 * The CSRF token as the page printed it, masked with this response's pad, and the session's
 * token it stands for (`csrf-mask.ts`).
 */
export interface PrintedCsrfToken {
  readonly printed: string;
  readonly session: string;
}

/**
 * A strong ETag (`"…"`) of the body as sent, with every occurrence of the nonce removed and
 * every occurrence of the masked CSRF token hashed as the session's token: the mask differs on
 * every response, the page it stands for does not (and another session's page still differs).
 */
export function etagFor(body: Uint8Array | string, nonce: string | null, csrf: PrintedCsrfToken | null = null): string {
  if (nonce === '') throw new MisuseError('http.bad-nonce', 'etagFor: the nonce is null or a non-empty string');
  if (csrf !== null && csrf.printed === '') throw new MisuseError('http.bad-csrf-token', 'etagFor: the printed CSRF token is empty');
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const hash = createHash('sha256');
  const printed = csrf === null ? null : Buffer.from(csrf.printed, 'utf8');
  for (const piece of withoutNonce(bytes, nonce === null ? null : Buffer.from(nonce, 'utf8'))) {
    if (printed === null || csrf === null) {
      hash.update(piece);
      continue;
    }
    const parts = withoutNonce(piece, printed);
    hash.update(parts[0] as Buffer);
    for (let i = 1; i < parts.length; i++) hash.update(csrf.session, 'utf8').update(parts[i] as Buffer);
  }
  return `"${hash.digest('base64url').slice(0, ETAG_LENGTH)}"`;
}

export interface EtagCandidate {
  method: string;
  status: number;
  /** The body's length in bytes; for HEAD, the length the GET body would have. */
  bodyBytes: number;
}

/** Only GET/HEAD answers with status 200 and a body of at most 2 MB get an ETag. */
export function etagEligible(candidate: EtagCandidate): boolean {
  const method = candidate.method.toUpperCase();
  return (method === 'GET' || method === 'HEAD') && candidate.status === 200 && candidate.bodyBytes <= ETAG_MAX_BODY_BYTES;
}

/** The opaque tags of an If-None-Match list, or null when the list does not parse. */
function entityTags(header: string): string[] | null {
  const tags: string[] = [];
  let at = 0;
  const skipSpace = (): void => {
    while (header[at] === ' ' || header[at] === '\t') at++;
  };
  for (;;) {
    skipSpace();
    if (at >= header.length) return tags;
    // Empty list elements (`"a", , "b"`) are allowed by RFC 9110 §5.6.1.
    if (header[at] === ',') {
      at++;
      continue;
    }
    if (header.startsWith('W/', at)) at += 2;
    if (header[at] !== '"') return null;
    // etagc excludes only DQUOTE (and controls), so a comma may sit inside the quotes.
    const end = header.indexOf('"', at + 1);
    if (end === -1) return null;
    tags.push(header.slice(at, end + 1));
    at = end + 1;
    skipSpace();
    if (at < header.length && header[at] !== ',') return null;
  }
}

/**
 * RFC 9110 §13.1.2: `*` matches any current answer; otherwise one tag of the list must equal
 * the ETag under weak comparison (a `W/` prefix is ignored on both sides). A list that does
 * not parse matches nothing, so the full answer is sent, which is always correct.
 */
export function ifNoneMatchMatches(headerValue: string | undefined, etag: string): boolean {
  if (headerValue === undefined) return false;
  const value = headerValue.trim();
  if (value === '*') return true;
  const opaque = etag.startsWith('W/') ? etag.slice(2) : etag;
  return entityTags(value)?.includes(opaque) ?? false;
}
