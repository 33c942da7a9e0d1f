import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { parse as parseQuery } from 'node:querystring';
import { gzip } from 'node:zlib';
import type { Server } from '@hapi/hapi';
import { clientTimeout } from '@hapi/boom';
import { canonicalHost, hostAllowed } from '../../../domain/http/trusted-hosts.js';
import type { TrustedHosts } from '../../../domain/http/trusted-hosts.js';
import { RequestBody } from '../kernel/body.js';
import { frontHeaders, logAccess, startRequest } from '../kernel/front.js';
import type { FrontOptions } from '../kernel/front.js';
import type { Kernel } from '../kernel/kernel.js';
import type { KernelRequest, RequestState } from '../kernel/request.js';
import type { Sealer } from '../kernel/sealer.js';
import { toWire, toWireNow } from '../kernel/wire.js';
import { listenInFront } from './in-front-of-hapi.js';
import { checkedPayload } from './form-payload.js';
import { readSmallBody } from './read-small-body.js';
import type { WireResponse } from '../kernel/wire.js';

/** What the kernel made of a request before it was handed to hapi to be written. */
export interface HandedOver {
  state: RequestState;
  outcome: { kind: 'wire'; wire: WireResponse } | { kind: 'error'; error: unknown };
}

const handed = new WeakMap<IncomingMessage, HandedOver>();

/** The kernel's answer to a request `answerPagesFirst` took and then gave to hapi to write; undefined for others. */
export function handedOver(request: IncomingMessage): HandedOver | undefined {
  return handed.get(request);
}

/** hapi's compression threshold (`compression.minBytes`, left at its default): smaller bodies are sent as they are. */
const COMPRESSION_MIN_BYTES = 1024;

/**
 * A path hapi's router would read as it is: no percent-encoding to normalise, no fragment, and
 * no `.` at all, so no `.`/`..` segment either (a path with a dot goes to hapi).
 */
const PLAIN_PATH = /^\/[\w\-~!$&'()*+,;=:@/]*$/u;

/** What hapi logs for a request whose client went away before its answer was written (its `response.disconnectStatusCode`, left at its default). */
const CLIENT_GONE_STATUS = 499;

/**
 * The form posts read here: urlencoded, as browsers send them (no parameter, or UTF-8 named),
 * with a Content-Length up to this many bytes. Larger forms, chunked or compressed bodies and
 * every other type (JSON, multipart) go through hapi's payload reading and its 400/413/415.
 */
const SHORT_FORM_MAX_BYTES = 64 * 1024;
const SHORT_FORM_TYPE = /^application\/x-www-form-urlencoded(?:\s*;\s*charset=utf-8)?$/iu;
const CONTENT_LENGTH = /^\d{1,9}$/u;

/** Redirects without a body, written here with the headers hapi gives them. */
const REDIRECT_STATUSES: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);

/** The types whose pages are written here: hapi would neither rewrite their Content-Type nor refuse to compress them. */
const WRITTEN_TYPES = /^(?:text\/html|application\/json); charset=/u;

/**
 * What hapi's core reads of the request it keeps for a socket in `actives` (core.js, hapi 21):
 * its stop leaves a socket with an entry open until the answer is written (`has`), and its
 * `clientError` listener, when the next request on that socket is malformed, too large or too
 * slow, ends the one in flight with `_reply(400 with Connection: close)`, or, for an invalid
 * method, waits for `raw.res` to close.
 */
interface InFlight {
  raw: { req: IncomingMessage; res: ServerResponse };
  _reply(error: unknown): void;
}

/** hapi's parts this path stands in for: its socket bookkeeping for a clean stop and for client errors. */
interface HapiCore {
  started: boolean;
  actives: WeakMap<Socket, InFlight | object>;
}

function hapiCore(server: Server): HapiCore | null {
  const core = (server as unknown as { _core?: Partial<HapiCore> })._core;
  return core !== undefined && typeof core.started === 'boolean' && core.actives instanceof WeakMap ? (core as HapiCore) : null;
}

export interface PagesFirstOptions {
  kernel: Kernel;
  front: FrontOptions;
  trustedHosts: TrustedHosts;
  sealer: Sealer;
  /** BODY_MAX_DEPTH, as hapi's dispatcher applies it to a form's fields (form-payload.ts). */
  bodyMaxDepth: number;
  /** UPLOAD_MAX_SIZE: hapi's payload limit; a form posted here is never larger. */
  uploadMaxBytes: number;
}

/** A request taken here: its path, and for a form post how long hapi would wait for its body. */
interface Taken {
  path: string;
  form: { timeoutMs: number | false } | null;
}

/**
 * A plain `GET` for a page of the app's routes, run on the node listener before hapi's request
 * lifecycle: hapi's request object, router, extension points, response marshalling and the
 * streams it pipes a page through cost about a third of such a request's CPU
 * (docs/performance.md, fifth round), and for these requests they add nothing the kernel does
 * not do. The kernel runs as it does under hapi (stage 1's nonce and request id, the same
 * `KernelRequest`, `toWire`), and the common answer, a 200 page or JSON whose headers hapi would
 * only complete, is written here with the headers hapi would send (security headers, `no-cache`,
 * `Accept-Ranges`, `Vary: accept-encoding` and gzip from 1 KB) and its access-log line.
 *
 * A small urlencoded form POST (a login, a sign-up: the form as browsers send it, with a
 * Content-Length of at most 64 KB) is taken too: its body is read here as hapi's payload step
 * reads it (`Buffer.concat`, node's querystring, `{}` when empty), checked as hapi's dispatcher
 * checks it (form-payload.ts), and its usual answer, a redirect without a body, is written here
 * with the headers hapi gives one. Its other answers (a 422 page, a 200, errors, the 400 of a
 * form nested too deep) are handed to hapi as above; hapi's payload step then reads the body
 * already read as empty and the dispatcher answers with the kernel's result. A body that does
 * not come within hapi's payload timeout is handed over as hapi's (its 408).
 *
 * Anything else goes through hapi exactly as before: other requests with a body, a query hapi would
 * have to normalise, a Range or a conditional header, another route of hapi's (public files,
 * `/health`, storage, the framework's own), an untrusted or invalid Host, a stopping server.
 * Answers that need hapi's writing (another status, a file or a stream, a page to compress
 * for a weighted Accept-Encoding or deflate) and errors are handed to hapi with the kernel's
 * result already made (`handedOver`): hapi then writes them, with the same state (nonce,
 * request id) the page was rendered with.
 */
export function answerPagesFirst(server: Server, options: PagesFirstOptions): void {
  const core = hapiCore(server);
  // hapi is not the one this was written against: hapi takes every request.
  if (core === null) return;
  const { kernel, front, trustedHosts } = options;
  const wireOptions = { sealer: options.sealer, https: kernel.https, now: Date.now };

  // What the checks below learn from hapi's router and from a Host header is the same for every
  // request with that path or Host: hapi's routes are all in place before this is installed
  // (http-kernel.ts) and the trusted hosts are settings. Remembered, bounded (the client chooses
  // both): the router's lookup and the Host's parsing were ~25 µs of a login's main thread.
  const hosts = remembered((host: string): boolean => {
    if (host !== '' && canonicalHost(host) === null) return false;
    return trustedHosts.anyHost || hostAllowed(trustedHosts, host === '' ? undefined : host);
  });
  const getRoutes = remembered((path: string): boolean => {
    // Only hapi's catch-all GET route: the framework's own routes (robots.txt, storage, live reload) stay hapi's.
    const route = server.match('get', path);
    return route !== null && route.path === '/{path*}' && route.method === 'get';
  });
  // The payload timeout of the route a form post goes to, or null when that is not hapi's
  // catch-all route for bodies: webhooks (raw bodies) and the framework's own routes stay hapi's.
  const postRoutes = remembered((path: string): number | false | null => {
    const route = server.match('post', path);
    if (route === null || route.path !== '/{path*}' || route.method !== '*') return null;
    return route.settings.payload?.timeout ?? false;
  });

  const smallForm = (headers: IncomingMessage['headers']): boolean => {
    const length = headers['content-length'];
    const type = headers['content-type'];
    return length !== undefined && CONTENT_LENGTH.test(length) && Number(length) <= Math.min(SHORT_FORM_MAX_BYTES, options.uploadMaxBytes) && type !== undefined && SHORT_FORM_TYPE.test(type) && headers['content-encoding'] === undefined;
  };

  const plainRequest = (request: IncomingMessage): Taken | null => {
    const { method } = request;
    if ((method !== 'GET' && method !== 'POST') || !core.started) return null;
    const { headers } = request;
    if (headers['transfer-encoding'] !== undefined || headers['range'] !== undefined || headers['if-none-match'] !== undefined || headers['if-modified-since'] !== undefined || headers['expect'] !== undefined) return null;
    if (method === 'GET' ? headers['content-length'] !== undefined : !smallForm(headers)) return null;
    const url = request.url ?? '';
    const query = url.indexOf('?');
    const path = query === -1 ? url : url.slice(0, query);
    if (!PLAIN_PATH.test(path) || url.includes('#') || path === '/health') return null;
    const host = (headers.host ?? '').trim();
    if (!hosts.get(host)) return null;
    if (method === 'GET') {
      if (kernel.publicFiles.lookup(path) !== null) return null;
      return getRoutes.get(path) ? { path, form: null } : null;
    }
    const timeoutMs = postRoutes.get(path);
    return timeoutMs === null ? null : { path, form: { timeoutMs } };
  };

  // When someone else listens too, hapi takes every request.
  listenInFront(server.listener, (request, response, hapi) => {
    const taken = plainRequest(request);
    if (taken === null) {
      hapi(request, response);
      return;
    }
    const { path } = taken;
    const method = taken.form === null ? 'GET' : 'POST';
    const socket = request.socket;
    const state = startRequest(front, socket.remoteAddress, request.headers);
    // Set once the answer is settled: written here, handed to hapi, or left unwritten because the
    // client went away. Whatever finishes later (the kernel, gzip) then leaves the response alone.
    let settled = false;
    const handOver = (outcome: HandedOver['outcome']): void => {
      settled = true;
      handed.set(request, { state, outcome });
      hapi(request, response);
    };
    // hapi's request as its core sees it: a stop lets this answer finish before closing the
    // connection, and a bad request after it on the connection is answered as hapi answers one:
    // an answer not yet written becomes hapi's (its 400, written by hapi), a written one is left
    // to finish (hapi's `_reply` does nothing for a request already replied).
    const inFlight: InFlight = {
      raw: { req: request, res: response },
      _reply: (error) => {
        if (!settled) handOver({ kind: 'error', error });
      },
    };
    core.actives.set(socket, inFlight);
    response.once('finish', () => {
      // Once handed over, the entry is hapi's own request, which hapi removes.
      if (core.actives.get(socket) === inFlight) core.actives.delete(socket);
      if (!core.started) socket.end();
    });
    response.once('close', () => {
      if (settled) return;
      // The client went away first: nothing to write, and hapi's access-log line for it.
      settled = true;
      logged(state, method, path, CLIENT_GONE_STATUS);
    });
    const url = request.url ?? path;
    const queryAt = url.indexOf('?');
    const kernelRequest = (body: RequestBody): KernelRequest => ({
      method,
      path,
      target: url,
      host: (request.headers.host ?? '').trim(),
      // hapi's own reading of a plain target's query (node's querystring: repeated names become lists).
      query: (queryAt === -1 ? Object.create(null) : parseQuery(url.slice(queryAt + 1))) as Record<string, string | string[]>,
      headers: request.headers,
      body,
      state,
    });
    // Writing failed (a header Node refuses): hapi's 500 page, as when hapi writes it.
    const failed = (error: unknown): void => {
      if (response.headersSent) response.destroy(error instanceof Error ? error : new Error(String(error)));
      else handOver({ kind: 'error', error });
    };
    const send = (status: number, headers: Record<string, string | string[]>, body: string | Buffer): void => {
      settled = true;
      try {
        response.writeHead(status, headers);
        response.end(body);
      } catch (error) {
        failed(error);
        return;
      }
      logged(state, method, path, status);
    };
    const answer = (body: RequestBody): void => {
      kernel
        .dispatch(kernelRequest(body), () => new Promise((resolve) => response.once('close', () => resolve())))
        .then((reply) => toWireNow(reply, wireOptions) ?? toWire(reply, wireOptions))
        .then(
          (wire) => {
            if (settled) return;
            const written = writtenHere(wire, request, state, kernel.https, method);
            if (written === null) {
              handOver({ kind: 'wire', wire });
              return;
            }
            if (!written.gzip) {
              send(written.status, written.headers, written.body);
              return;
            }
            // On libuv's threads, as hapi's compression stream does.
            gzip(written.body, (error, compressed) => {
              if (settled) return;
              if (error !== null) {
                handOver({ kind: 'error', error });
                return;
              }
              written.headers['content-length'] = String(compressed.length);
              send(written.status, written.headers, compressed);
            });
          },
          (error: unknown) => {
            if (!settled) handOver({ kind: 'error', error });
          },
        )
        // A throw past the settling (a bug): hapi's 500 unless hapi has the request already.
        .catch((error: unknown) => {
          if (!handed.has(request)) failed(error);
        });
    };
    if (taken.form === null) {
      answer(RequestBody.parsed(undefined));
      return;
    }
    // A form post: its body read here as hapi's payload step reads it (node's querystring, `{}`
    // when empty), then checked as hapi's dispatcher checks it. A body that does not come in
    // time is hapi's to answer (its 408, once its own wait for the rest ends).
    readSmallBody(request, taken.form.timeoutMs, (bytes) => {
      if (settled) return;
      if (bytes === null) {
        handOver({ kind: 'error', error: clientTimeout() });
        return;
      }
      const checked = checkedPayload(bytes.length === 0 ? {} : parseQuery(bytes.toString('utf8')), true, options.bodyMaxDepth, state.log);
      if (checked.ok) answer(RequestBody.parsed(checked.payload));
      else handOver({ kind: 'error', error: checked.refusal });
    });
  });
}

/** How many answers `remembered` keeps before it starts again. */
const REMEMBERED_ANSWERS = 1024;

/** `answer`, remembered by its key: for a function whose answer depends on the key alone. */
function remembered<T>(answer: (key: string) => T): { get(key: string): T } {
  const known = new Map<string, T>();
  return {
    get(key) {
      if (known.has(key)) return known.get(key) as T;
      const value = answer(key);
      if (known.size >= REMEMBERED_ANSWERS) known.clear();
      known.set(key, value);
      return value;
    },
  };
}

/**
 * The access-log line, which must not throw where it is written: in gzip's callback a logger's
 * error would be uncaught and end the process, and elsewhere it would be taken for a failed
 * write. The answer is out either way; a logger that fails has nowhere to report to.
 */
function logged(state: RequestState, method: string, path: string, status: number): void {
  try {
    logAccess(state, method, path, status);
  } catch {
    // Nothing to do: see above.
  }
}

/**
 * The headers hapi would send for this answer, when it is one written here: a 200 with a
 * non-empty page or JSON, nothing hapi would add a header for but its defaults, and a body
 * hapi would not compress for this client. Null: hapi writes it.
 */
function writtenHere(wire: WireResponse, request: IncomingMessage, state: RequestState, https: boolean, method: 'GET' | 'POST'): { status: number; headers: Record<string, string | string[]>; body: string; gzip: boolean } | null {
  if (REDIRECT_STATUSES.has(wire.status) && wire.body.kind === 'empty') return redirectHere(wire, state, https);
  // A POST's page differs from a GET's in hapi's headers (no ranges of it): hapi writes it.
  if (method !== 'GET' || wire.status !== 200 || wire.body.kind !== 'text' || wire.body.text === '') return null;
  const type = wire.headers.get('content-type');
  if (type === undefined || !WRITTEN_TYPES.test(type)) return null;
  for (const name of ['content-length', 'content-encoding', 'etag', 'last-modified', 'accept-ranges']) if (wire.headers.has(name)) return null;
  const body = wire.body.text;
  const length = Buffer.byteLength(body);
  const compressible = length >= COMPRESSION_MIN_BYTES;
  const encoding = compressible ? contentEncoding(request.headers['accept-encoding']) : 'identity';
  if (encoding === null) return null;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of wire.headers) headers[name] = value;
  if (compressible) {
    const vary = headers['vary'];
    if (typeof vary === 'string' && /(?:^|,)\s*accept-encoding\s*(?:,|$)/iu.test(vary)) return null;
    headers['vary'] = vary === undefined ? 'accept-encoding' : `${vary as string},accept-encoding`;
  }
  // The app's own Set-Cookie header first, then the kernel's cookies, as hapi appends them (send-reply.ts).
  if (wire.cookies.length > 0) headers['set-cookie'] = headers['set-cookie'] === undefined ? wire.cookies : [headers['set-cookie'] as string, ...wire.cookies];
  const front = frontHeaders(state, https, 200);
  for (const name in front) headers[name] = front[name] as string;
  headers['cache-control'] ??= 'no-cache';
  if (encoding === 'gzip') {
    // hapi's headers for a compressed answer: no ranges of it; its length once compressed.
    headers['content-encoding'] = 'gzip';
    return { status: 200, headers, body, gzip: true };
  }
  headers['content-length'] = String(length);
  headers['accept-ranges'] = 'bytes';
  return { status: 200, headers, body, gzip: false };
}

/**
 * A redirect without a body (a form post's usual answer) with the headers hapi sends for it:
 * the kernel's, its cookies, the security headers, `no-cache` unless the app chose, and a
 * length of 0. Null when the app set a header hapi would act on (a type, a length, an
 * encoding): hapi writes those.
 */
function redirectHere(wire: WireResponse, state: RequestState, https: boolean): { status: number; headers: Record<string, string | string[]>; body: string; gzip: boolean } | null {
  for (const name of ['content-type', 'content-length', 'content-encoding', 'transfer-encoding', 'etag', 'last-modified', 'accept-ranges']) if (wire.headers.has(name)) return null;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of wire.headers) headers[name] = value;
  if (wire.cookies.length > 0) headers['set-cookie'] = headers['set-cookie'] === undefined ? wire.cookies : [headers['set-cookie'] as string, ...wire.cookies];
  const front = frontHeaders(state, https, wire.status);
  for (const name in front) headers[name] = front[name] as string;
  headers['cache-control'] ??= 'no-cache';
  headers['content-length'] = '0';
  return { status: wire.status, headers, body: '', gzip: false };
}

/**
 * hapi's choice among identity, gzip and deflate for the usual headers (`gzip, deflate, br`
 * and the like, without weights): gzip when named, identity when neither gzip nor deflate is.
 * Null for weights, `*` or deflate alone: hapi negotiates those itself.
 */
function contentEncoding(header: string | undefined): 'identity' | 'gzip' | null {
  if (header === undefined || header.trim() === '') return 'identity';
  if (header.includes(';') || header.includes('*')) return null;
  const names = header.toLowerCase().split(',').map((name) => name.trim());
  if (names.includes('gzip') || names.includes('x-gzip')) return 'gzip';
  return names.includes('deflate') ? null : 'identity';
}
