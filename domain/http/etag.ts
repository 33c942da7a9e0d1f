import { createHash } from 'node:crypto';
import { bytesAsBuffer } from '../shared/bytes.js';
import { MisuseError } from '../shared/errors.js';

/**
 * `.etag()`: cache validators for rendered pages; below, those of served files (`fileEtag`,
 * `fileNotModified`), which share the If-None-Match rule.
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
  const bytes = typeof body === 'string' ? Buffer.from(body, 'utf8') : bytesAsBuffer(body);
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

/**
 * A served file's ETag from its size and modification time (`"<size>-<mtime ms>"` in hex), as
 * @hapi/inert's `etagMethod: 'simple'`, nginx and most servers make it: no byte of the file is
 * read to answer a revalidation. Strong, so it can join byte ranges (If-Range): a file rewritten
 * with another size or at another millisecond gets another tag.
 */
export function fileEtag(size: number, mtimeMs: number): string {
  return `"${size.toString(16)}-${Math.floor(mtimeMs).toString(16)}"`;
}

/** A GET or HEAD of a file and the validators the client sent with it. */
export interface FileConditions {
  method: string;
  /** The file's ETag; null for a file served without one (a `Download.file` reply, as on hapi). */
  etag: string | null;
  /** The file's modification time in epoch milliseconds; Last-Modified carries whole seconds. */
  modifiedMs: number;
  ifNoneMatch: string | undefined;
  ifModifiedSince: string | undefined;
}

const MONTH = '(?:Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)';
const TIME = '\\d{2}:\\d{2}:\\d{2}';
/** RFC 9110 §5.6.7: IMF-fixdate, the obsolete RFC 850 form, and asctime (which is in GMT). */
const HTTP_DATE = new RegExp(`^(?:[A-Z][a-z]{2}, \\d{2} ${MONTH} \\d{4} ${TIME} GMT|[A-Z][a-z]+, \\d{2}-${MONTH}-\\d{2} ${TIME} GMT|[A-Z][a-z]{2} ${MONTH} [ \\d]\\d ${TIME} \\d{4})$`, 'u');

/** Epoch milliseconds of an HTTP-date, or null for anything else (RFC 9110 §13.1.3: ignored). */
export function httpDateMs(value: string): number | null {
  const text = value.trim();
  if (!HTTP_DATE.test(text)) return null;
  const ms = Date.parse(text.endsWith('GMT') ? text : `${text} GMT`);
  return Number.isNaN(ms) ? null : ms;
}

/**
 * RFC 9110 §13.2.2 for a file that exists: whether a GET or HEAD is answered 304. If-None-Match,
 * when sent, decides alone (`*`, or a tag equal to the ETag under weak comparison); otherwise
 * If-Modified-Since does: 304 when the file is not newer than that date, to the second. Any other
 * method, a date that does not parse, or no validator: the full answer.
 */
export function fileNotModified(conditions: FileConditions): boolean {
  const method = conditions.method.toUpperCase();
  if (method !== 'GET' && method !== 'HEAD') return false;
  if (conditions.ifNoneMatch !== undefined) {
    return conditions.etag === null ? conditions.ifNoneMatch.trim() === '*' : ifNoneMatchMatches(conditions.ifNoneMatch, conditions.etag);
  }
  if (conditions.ifModifiedSince === undefined) return false;
  const since = httpDateMs(conditions.ifModifiedSince);
  return since !== null && Math.floor(conditions.modifiedMs / 1000) * 1000 <= since;
}

/**
 * RFC 9110 §13.1.5: a Range sent with If-Range is served only while the client's copy is
 * current, judged by strong comparison with the ETag (as @hapi/inert does; a date in If-Range
 * is not trusted, as inert does not either). Otherwise the whole file goes out, always correct.
 */
export function rangeStillValid(ifRange: string | undefined, etag: string | null): boolean {
  if (ifRange === undefined) return true;
  return etag !== null && !etag.startsWith('W/') && ifRange.trim() === etag;
}
