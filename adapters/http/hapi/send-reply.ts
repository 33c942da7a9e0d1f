import { Readable } from 'node:stream';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
// Brings `h.file()` (the @hapi/inert plugin) into hapi's types.
import type {} from '@hapi/inert';
import type { Sealer } from '../kernel/sealer.js';
import { SetCookie } from '../kernel/cookies.js';
import { Combined, Download, Header, HxHeader, JsonReply, Redirect, StatusReply, TextReply, View } from '../kernel/replies.js';
import type { Reply } from '../kernel/replies.js';
import { RawReply, ResolvedRedirect } from '../kernel/resolved-replies.js';

export interface SendOptions {
  sealer: Sealer;
  /** APP_URL is https: every cookie is `Secure`. */
  https: boolean;
}

/**
 * Turns a finished reply into hapi's response: the one place where reply values meet HTTP.
 * Views and redirects arrive resolved by the views stage.
 */
export async function sendReply(h: ResponseToolkit, reply: Reply, options: SendOptions): Promise<ResponseObject> {
  if (reply instanceof Combined) {
    const response = await sendReply(h, reply.primary, options);
    for (const extra of reply.extras) {
      if (extra instanceof SetCookie) await setCookie(response, extra, options);
      else if (extra instanceof HxHeader || extra instanceof Header) response.header(extra.name, sendableHeader(extra.value));
    }
    return response;
  }
  if (reply instanceof RawReply) {
    const response = h.response(reply.body).code(reply.status).type(reply.contentType);
    for (const [name, value] of Object.entries(reply.headers)) response.header(name, value);
    return response;
  }
  if (reply instanceof ResolvedRedirect) return h.response().code(reply.status).location(sendableHeader(reply.location));
  if (reply instanceof JsonReply) return h.response(JSON.stringify(reply.data ?? null)).code(reply.status).type('application/json; charset=utf-8');
  if (reply instanceof TextReply) return h.response(reply.text).code(reply.status).type(reply.contentType);
  if (reply instanceof StatusReply) return h.response().code(reply.status);
  if (reply instanceof Download) {
    const { source } = reply;
    // Files go through @hapi/inert: streamed, with Last-Modified and ranges; a missing one is a 404.
    const response =
      source.kind === 'file'
        ? h.file(source.path, { confine: false, etagMethod: false })
        : h.response(source.kind === 'stream' ? byteStream(source.stream) : typeof source.body === 'string' ? source.body : Buffer.from(source.body));
    return response.type(reply.contentType).header('content-disposition', reply.contentDisposition()).header('x-content-type-options', 'nosniff');
  }
  if (reply instanceof View || reply instanceof Redirect) throw new Error('A view or redirect reached the wire without the views stage');
  if (typeof reply === 'string') return h.response(reply).type('text/html; charset=utf-8');
  if (reply === null) return h.response().code(204);
  return h.response(JSON.stringify(reply)).type('application/json; charset=utf-8');
}

/**
 * A header value Node will send: Node refuses characters past U+00FF (hapi then fails after
 * the error pages ran, answering a bare 500 without the security headers), sends U+0080-U+00FF
 * as single bytes no client reads back as UTF-8, and CR/LF would end the header. So a URL
 * (`Redirect.to('/café')`) goes out percent-encoded, and JSON (`HxHeader.trigger({ … })`)
 * with `\u` escapes, which keep it the same JSON.
 */
function sendableHeader(value: string): string {
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

async function setCookie(response: ResponseObject, cookie: SetCookie, options: SendOptions): Promise<void> {
  const { path, httpOnly, sameSite, maxAgeSeconds, encrypted, remove } = cookie.options;
  if (remove) {
    response.unstate(cookie.name, { path });
    return;
  }
  const value = encrypted ? await options.sealer.seal(cookie.name, cookie.value) : String(cookie.value);
  response.state(cookie.name, value, {
    encoding: 'none',
    path,
    isHttpOnly: httpOnly,
    isSameSite: sameSite,
    isSecure: options.https,
    ttl: maxAgeSeconds === null ? null : maxAgeSeconds * 1000,
    strictHeader: false,
  });
}

/**
 * hapi sends only byte streams; an app's stream may be in object mode (`Readable.from(rows)`),
 * so its chunks (strings or bytes) are read into a byte stream.
 */
function byteStream(stream: NodeJS.ReadableStream): Readable {
  return Readable.from(stream as AsyncIterable<string | Uint8Array>, { objectMode: false });
}
