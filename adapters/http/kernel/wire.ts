import { mergeVary } from '../../../domain/http/cors/cors.js';
import { SetCookie } from './cookies.js';
import { Combined, Download, Header, HxHeader, JsonReply, Redirect, StatusReply, TextReply, View } from './replies.js';
import type { Reply } from './replies.js';
import { RawReply, ResolvedRedirect } from './resolved-replies.js';
import type { Sealer } from './sealer.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** What goes on the wire as the body: each transport writes these its own way. */
export type WireBody =
  | { kind: 'empty' }
  | { kind: 'text'; text: string }
  | { kind: 'bytes'; bytes: Uint8Array }
  | { kind: 'stream'; stream: NodeJS.ReadableStream }
  /** A file on disk: streamed, with Last-Modified and ranges where the transport can; a missing one is a 404. */
  | { kind: 'file'; path: string; start?: number; end?: number };

/** A finished reply as HTTP: status, headers (names in lower case), `Set-Cookie` lines, body. */
export interface WireResponse {
  status: number;
  headers: Map<string, string>;
  cookies: string[];
  body: WireBody;
}

export interface WireOptions {
  sealer: Sealer;
  /** APP_URL is https: every cookie is `Secure`. */
  https: boolean;
  /** For a cookie's `Expires`. */
  now: () => number;
}

/**
 * Turns a finished reply into status, headers, cookies and body: the one place where reply
 * values meet HTTP, for every transport. Views and redirects arrive resolved by the views stage.
 */
export async function toWire(reply: Reply, options: WireOptions): Promise<WireResponse> {
  if (reply instanceof Combined) {
    const response = await toWire(reply.primary, options);
    for (const extra of reply.extras) {
      if (extra instanceof SetCookie) response.cookies.push(await cookieLine(extra, options));
      else if (extra instanceof HxHeader || extra instanceof Header) setHeader(response.headers, extra.name, sendableHeader(extra.value));
    }
    return response;
  }
  return primaryWire(reply);
}

/**
 * `toWire` without waiting, for a reply with no cookie to seal (a page whose session cookie the
 * session stage has sealed already is one): the same answer, without the promises each step
 * of `toWire` costs. Null: the reply has a cookie to seal, `toWire` it.
 */
export function toWireNow(reply: Reply, options: WireOptions): WireResponse | null {
  if (!(reply instanceof Combined)) return primaryWire(reply);
  if (reply.primary instanceof Combined) return null;
  for (const extra of reply.extras) if (extra instanceof SetCookie && extra.options.encrypted && !extra.options.remove) return null;
  const response = primaryWire(reply.primary);
  for (const extra of reply.extras) {
    if (extra instanceof SetCookie) response.cookies.push(formatCookie(extra, String(extra.options.remove ? '' : extra.value), options));
    else if (extra instanceof HxHeader || extra instanceof Header) setHeader(response.headers, extra.name, sendableHeader(extra.value));
  }
  return response;
}

function primaryWire(reply: Reply): WireResponse {
  if (reply instanceof RawReply) {
    const response = wire(reply.status, reply.contentType, { kind: 'text', text: reply.body });
    for (const [name, value] of Object.entries(reply.headers)) setHeader(response.headers, name, value);
    return response;
  }
  if (reply instanceof ResolvedRedirect) {
    const response = wire(reply.status, null, { kind: 'empty' });
    response.headers.set('location', sendableHeader(reply.location));
    return response;
  }
  if (reply instanceof JsonReply) return wire(reply.status, 'application/json; charset=utf-8', { kind: 'text', text: JSON.stringify(reply.data ?? null) });
  if (reply instanceof TextReply) return wire(reply.status, reply.contentType, { kind: 'text', text: reply.text });
  if (reply instanceof StatusReply) return wire(reply.status, null, { kind: 'empty' });
  if (reply instanceof Download) {
    const { source } = reply;
    const body: WireBody =
      source.kind === 'file'
        ? { kind: 'file', path: source.path }
        : source.kind === 'stream'
          ? { kind: 'stream', stream: source.stream }
          : typeof source.body === 'string'
            ? { kind: 'text', text: source.body }
            : { kind: 'bytes', bytes: source.body };
    const response = wire(200, reply.contentType, body);
    response.headers.set('content-disposition', reply.contentDisposition());
    response.headers.set('x-content-type-options', 'nosniff');
    return response;
  }
  if (reply instanceof View || reply instanceof Redirect) throw new FrameworkError('http.unresolved-reply', 'A view or redirect reached the wire without the views stage');
  if (typeof reply === 'string') return wire(200, 'text/html; charset=utf-8', { kind: 'text', text: reply });
  if (reply === null) return wire(204, null, { kind: 'empty' });
  return wire(200, 'application/json; charset=utf-8', { kind: 'text', text: JSON.stringify(reply) });
}

/** Sets a header; `Vary` joins the names already listed instead (as hapi's `response.header` does). */
function setHeader(headers: Map<string, string>, name: string, value: string): void {
  const key = name.toLowerCase();
  headers.set(key, key === 'vary' ? mergeVary(headers.get(key), value) : value);
}

function wire(status: number, contentType: string | null, body: WireBody): WireResponse {
  const headers = new Map<string, string>();
  if (contentType !== null) headers.set('content-type', contentType);
  return { status, headers, cookies: [], body };
}

/**
 * A header value Node will send: Node refuses characters past U+00FF (the transport then fails
 * after the error pages ran, answering a bare 500 without the security headers), sends
 * U+0080-U+00FF as single bytes no client reads back as UTF-8, and CR/LF would end the header.
 * So a URL (`Redirect.to('/café')`) goes out percent-encoded, and JSON (`HxHeader.trigger({ … })`)
 * with `\u` escapes, which keep it the same JSON.
 */
export function sendableHeader(value: string): string {
  if (/^[\x20-\x7e]*$/u.test(value)) return value;
  if (value.startsWith('{') || value.startsWith('[')) {
    // Per UTF-16 unit (no `u` flag): an emoji becomes its escaped surrogate pair, still valid JSON.
    return value.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  }
  return value.replace(/[^\x21-\x7e]/gu, (c) => {
    try {
      return encodeURIComponent(c);
    } catch {
      return '%EF%BF%BD'; // a lone surrogate: U+FFFD, as a browser would send it
    }
  });
}

/**
 * One `Set-Cookie` line, in the attribute order hapi's statehood writes. A removal keeps the
 * cookie's own attributes (hapi's `unstate` wrote `Secure; SameSite=Strict` even over http).
 */
async function cookieLine(cookie: SetCookie, options: WireOptions): Promise<string> {
  const { encrypted, remove } = cookie.options;
  return formatCookie(cookie, remove ? '' : encrypted ? await options.sealer.seal(cookie.name, cookie.value) : String(cookie.value), options);
}

/** The line of a cookie whose value is ready (sealed if it is to be). */
function formatCookie(cookie: SetCookie, value: string, options: WireOptions): string {
  const { path, httpOnly, sameSite, maxAgeSeconds, remove } = cookie.options;
  const ttl = remove ? 0 : maxAgeSeconds;
  let line = `${cookie.name}=${value}`;
  if (ttl !== null) line += `; Max-Age=${ttl}; Expires=${new Date(ttl === 0 ? 0 : options.now() + ttl * 1000).toUTCString()}`;
  if (options.https) line += '; Secure';
  if (httpOnly) line += '; HttpOnly';
  return `${line}; SameSite=${sameSite}; Path=${path}`;
}
