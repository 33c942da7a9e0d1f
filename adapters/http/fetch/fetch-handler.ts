import { createReadStream } from 'node:fs';
import { stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { gunzipSync, inflateSync } from 'node:zlib';
import { lookup as mimeLookup } from 'mime-types';
import { bodyDepthWithin } from '../../../domain/http/body-depth.js';
import { fileEtag, fileNotModified, rangeStillValid } from '../../../domain/http/etag.js';
import { BODY_TOO_DEEP } from '../kernel/refusal-messages.js';
import { canonicalHost, hostAllowed } from '../../../domain/http/trusted-hosts.js';
import { RequestBody, parseBody } from '../kernel/body.js';
import { headerText } from '../kernel/context.js';
import type { ErrorAnswer, ErrorPage } from '../kernel/error-responder.js';
import { HEALTH_ANSWER, ROBOTS_TXT, bodyKind, bodyLimit, frontHeaders, logAccess, publicFileCache, startRequest, tooLarge } from '../kernel/front.js';
import { HttpAbort } from '../kernel/http-error.js';
import type { Kernel } from '../kernel/kernel.js';
import type { KernelRequest, RequestState } from '../kernel/request.js';
import { toWire } from '../kernel/wire.js';
import { LIVE_HEADERS, LIVE_PATH } from '../dev-tools/live-reload.js';
import { formNamesRefusal, nestFormNames } from '../kernel/form-names.js';
import { DEFAULT_MULTIPART_LIMITS, MultipartError, parseMultipart } from '../uploads/multipart.js';
import { uploadRefusal } from '../uploads/upload-refusal.js';
import { PublicDisk, TemporaryLinks, publicDiskHeaders, temporaryLinkParams } from '../storage/storage-serving.js';
import type { WireResponse } from '../kernel/wire.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** What the host knows of the connection that a WHATWG `Request` does not carry. */
export interface FetchConnection {
  /** The peer's address (trusted proxies may name the client behind it); none: `ctx.ip` is null. */
  remoteAddress?: string;
  /**
   * The request target exactly as sent (node:http's `req.url`), when the host has it: routing
   * and signed URLs then read the path as the client wrote it, before WHATWG URL parsing
   * normalised it (dot segments, backslashes, percent-encoding), as on the hapi transport.
   */
  target?: string;
  /**
   * Resolves once the host has written the answer: work handlers leave for after it
   * (`ctx.afterResponse`) waits for this. Without it, the work starts once the handler has
   * returned its `Response`.
   */
  answered?: Promise<void>;
}

/** `app.fetch(request)`: the app as a WHATWG fetch handler, for node:http, Hono-style hosts and tests. */
export type FetchHandler = (request: Request, connection?: FetchConnection) => Promise<Response>;

type HeaderRecord = Record<string, string | string[] | undefined>;

/** Types hapi's parser reads (anything else with a body is 415, as on the hapi transport). */
const PARSED_TYPES = /^(?:application\/(?:.+\+)?json|application\/x-www-form-urlencoded|multipart\/form-data|application\/octet-stream|text\/.+)$/u;

/**
 * The second transport: the same kernel behind a WHATWG fetch handler. It does what hapi does
 * for the kernel (stages 1 to 4 before routing, public files, reading and parsing the body,
 * writing the reply), with the rules of `kernel/front.ts`, so both transports answer alike.
 */
export function createFetchHandler(kernel: Kernel): FetchHandler {
  const { settings, services } = kernel.options;
  const front = { https: kernel.https, trustedProxies: settings.trustedProxies, random: services.random, logger: services.logger };
  const wireOptions = { sealer: services.sealer, https: kernel.https, now: Date.now };
  const uploadTempDir = settings.uploadTempDir ?? join(tmpdir(), 'fw-uploads');
  const uploadLimits = { ...DEFAULT_MULTIPART_LIMITS, maxBytes: settings.uploadMaxBytes };
  // The storage routes, as hapi registers them: only when the app has storage disks.
  const storage = services.storage;
  const publicDisks = storage === undefined ? [] : (settings.publicStorage ?? []).map((folder) => new PublicDisk(folder));
  const temporaryLinks = storage === undefined ? null : new TemporaryLinks({ storage, signing: { key: services.keys.signedUrls, clock: services.clock } });

  /**
   * Stage 4's storage answers (decided in `storage/storage-serving.ts`, as on hapi): a local public
   * disk's file under its path, a private disk's object behind a temporary link. Null: the path is
   * neither. Before `public/`, as hapi's own routes for these paths win over its catch-all route.
   */
  const fromStorage = (method: string, path: string, target: string, headers: HeaderRecord, failed: (error: ErrorAnswer) => Promise<WireResponse>): Promise<WireResponse> | null => {
    // Decided before any await: a page's GET (most requests) pays no promise here.
    const disk = publicDisks.find((candidate) => candidate.owns(path));
    if (disk !== undefined) {
      const file = disk.file(path);
      if ('kind' in file) return failed({ status: file.status, detail: file.detail });
      // As for `public/` (see withFile): ETag, Last-Modified, 304, at most one byte range.
      return servedFile(file.absolutePath, method, headers).then(
        (served) => {
          for (const [name, value] of Object.entries(publicDiskHeaders(served.headers.get('content-type') ?? ''))) served.headers.set(name, value);
          return served;
        },
        () => failed({ status: 404, detail: '' }),
      );
    }
    const link = temporaryLinks === null ? null : temporaryLinkParams(path);
    if (temporaryLinks === null || link === null) return null;
    return openedLink(temporaryLinks, target, link, failed);
  };

  /** Stages 2 to 4, the body and the kernel, for a request whose state is open. */
  const answer = async (request: Request, url: URL, connection: FetchConnection, headers: HeaderRecord, state: RequestState): Promise<WireResponse> => {
    const sent = connection.target;
    const method = request.method.toUpperCase();
    // An origin-form target as sent; an absolute-form one (or none known) as the URL gives it.
    const origin = sent?.startsWith('/') === true ? sent : undefined;
    const path = origin === undefined ? url.pathname : originPath(origin);
    const target = origin ?? url.pathname + url.search;
    const host = headerText(headers['host']) ?? url.host;
    const query = queryRecord(url.searchParams);
    const failed = async (error: ErrorAnswer): Promise<WireResponse> => pageWire(await kernel.errorPage({ method, path, query, headers, state }, error));
    const plain = (status: number, text: string): WireResponse => ({ status, headers: new Map([['content-type', 'text/plain; charset=utf-8']]), cookies: [], body: { kind: 'text', text } });

    // Stage 2: with TRUSTED_HOSTS set, another Host is refused before anything else runs.
    if (!settings.trustedHosts.anyHost && path !== '/health' && !hostAllowed(settings.trustedHosts, host === '' ? undefined : host)) {
      return failed({ status: 400, detail: 'This site is not served under that host name.' });
    }
    // Stage 3: the body limit, from the declared length (a body without one is counted as it arrives).
    const kind = bodyKind(headers);
    const limit = bodyLimit(kind, settings.uploadMaxBytes);
    const declared = Number(headers['content-length'] ?? NaN);
    if (Number.isFinite(declared) && declared > limit) {
      const refusal = tooLarge(kind);
      return plain(refusal.status, refusal.text);
    }
    // Stage 4: the framework's own answers, for any Host.
    if (method === 'GET' || method === 'HEAD') {
      // The live-reload stream, only while debugging locally (no devTools otherwise: a 404).
      if (method === 'GET' && path === LIVE_PATH && services.devTools !== undefined) return { status: 200, headers: new Map(Object.entries(LIVE_HEADERS)), cookies: [], body: { kind: 'stream', stream: services.devTools.live().connect() } };
      if (path === '/health') {
        const health = await toWire(HEALTH_ANSWER, wireOptions);
        health.headers.set('cache-control', 'no-store');
        return health;
      }
      const stored = fromStorage(method, path, target, headers, failed);
      if (stored !== null) return await stored;
      const builtIn = path === '/robots.txt' || path === '/favicon.ico';
      const file = kernel.publicFiles.lookup(path);
      if (file !== null) {
        const served = await servedFile(file.absolutePath, method, headers);
        if (!builtIn) served.headers.set('cache-control', publicFileCache(url.searchParams.has('v')));
        return served;
      }
      if (path === '/robots.txt') return { ...plain(200, ROBOTS_TXT), headers: new Map([['content-type', 'text/plain; charset=utf-8'], ['cache-control', 'public, max-age=3600']]) };
      // No icon: an empty answer browsers may cache, instead of a 404 page on every visit.
      if (path === '/favicon.ico') return { status: 204, headers: new Map([['cache-control', 'public, max-age=86400']]), cookies: [], body: { kind: 'empty' } };
    }
    // RFC 9112 §3.2: a Host that is no host (`a b`, `[`, `a/admin?`) is the client's mistake.
    if (host !== '' && canonicalHost(host) === null) return failed({ status: 400, detail: 'The Host header is not a valid host' });

    const upload = method !== 'GET' && method !== 'HEAD' && kind === 'upload' && request.body !== null && !kernel.keepsRawBody({ method, host, path });
    let body: RequestBody;
    let removeUploads: (() => Promise<void>) | null = null;
    if (upload) {
      // Multipart forms go through the same parser as on hapi: files streamed to temporary
      // files (`Upload` values), removed once the answer is written.
      try {
        const parsed = await parseMultipart(Readable.fromWeb(request.body as NodeReadableStream<Uint8Array>), headers, { tempDir: uploadTempDir, limits: uploadLimits });
        removeUploads = () => parsed.cleanup();
        body = RequestBody.parsed(parsed.fields);
      } catch (error) {
        if (!(error instanceof MultipartError)) throw error;
        return plain(error.status, uploadRefusal(error, services.forms.translator, headerText(headers['accept-language']) ?? null));
      }
    } else {
      // GET and HEAD bodies are not read, as on hapi.
      const bytes = method === 'GET' || method === 'HEAD' ? Buffer.alloc(0) : await readBody(request, limit);
      if (bytes === 'too-large') {
        const refusal = tooLarge(kind);
        return plain(refusal.status, refusal.text);
      }
      let parsed: RequestBody | 'too-large';
      try {
        parsed = parsedBody(bytes, headers, kernel.keepsRawBody({ method, host, path }) ? settings.bodyMaxDepth : null, limit);
      } catch (error) {
        if (error instanceof HttpAbort) return failed({ status: error.status, detail: error.message });
        throw error;
      }
      if (parsed === 'too-large') {
        const refusal = tooLarge(kind);
        return plain(refusal.status, refusal.text);
      }
      body = parsed;
    }
    try {
      // Bracketed form names become groups and lists (`items[0][name]`), before anything reads the body.
      const fields = kind !== 'other' && body.raw() === null ? body.value() : null;
      if (typeof fields === 'object' && fields !== null && !Buffer.isBuffer(fields)) {
        const nested = nestFormNames(fields as Record<string, unknown>, settings.bodyMaxDepth);
        if (!nested.ok) {
          state.log.warn('a form with bracketed names past BODY_MAX_DEPTH or the list limit was refused', { reason: nested.reason, maxDepth: settings.bodyMaxDepth });
          return failed({ status: 400, detail: formNamesRefusal(nested.reason) });
        }
        body = RequestBody.parsed(nested.fields);
      }
      // Before anything reads the body (the method override, old input, validation, handlers):
      // whatever walks it afterwards can rely on it being shallow.
      if (!bodyDepthWithin(body.raw() === null ? body.value() : null, settings.bodyMaxDepth)) {
        state.log.warn('a request body nested deeper than BODY_MAX_DEPTH was refused', { maxDepth: settings.bodyMaxDepth });
        return failed({ status: 400, detail: BODY_TOO_DEEP });
      }
      const kernelRequest: KernelRequest = { method, path, target, host, query, headers, body, state };
      const wire = await toWire(await kernel.dispatch(kernelRequest, () => connection.answered ?? new Promise((resolve) => setImmediate(resolve))), wireOptions);
      // A `Download.file` has no ETag, as on hapi (send-reply.ts: `etagMethod: false`).
      return wire.body.kind === 'file' ? withFile(wire, method, headers, false).catch(() => failed({ status: 404, detail: '' })) : wire;
    } finally {
      // The uploads' temporary files go once the handler is done with them and the answer is out
      // (a host without `answered`: once the handler's answer is made), never while it runs.
      const remove = removeUploads;
      if (remove !== null) void (connection.answered ?? Promise.resolve()).then(remove);
    }
  };

  return async (request, connection = {}) => {
    const url = new URL(request.url);
    const headers = headerRecord(request.headers);
    const state = startRequest(front, connection.remoteAddress, headers);
    const method = request.method.toUpperCase();
    let wire: WireResponse;
    try {
      wire = await answer(request, url, connection, headers, state);
    } catch (error) {
      wire = pageWire(await kernel.errorPage({ method, path: url.pathname, query: queryRecord(url.searchParams), headers, state }, { status: 500, detail: '', error }));
    }
    for (const [name, value] of Object.entries(frontHeaders(state, kernel.https, wire.status))) wire.headers.set(name, value);
    const response = toResponse(wire, method === 'HEAD');
    logAccess(state, method, url.pathname, response.status);
    return response;
  };
}

/** The path of an origin-form target: up to its query or fragment. */
function originPath(target: string): string {
  const end = target.search(/[?#]/u);
  return end === -1 ? target : target.slice(0, end);
}

/** Headers as the kernel reads them: names in lower case, `Set-Cookie`-style repeats as lists. */
function headerRecord(headers: Headers): HeaderRecord {
  const record: HeaderRecord = {};
  headers.forEach((value, name) => {
    record[name] = value;
  });
  return record;
}

/** `?a=1&a=2&b=3` as `{ a: ['1', '2'], b: '3' }`, the shape hapi gives. */
function queryRecord(params: URLSearchParams): Record<string, string | string[]> {
  const query: Record<string, string | string[]> = Object.create(null) as Record<string, string | string[]>;
  for (const [name, value] of params) {
    const known = query[name];
    query[name] = known === undefined ? value : [...[known].flat(), value];
  }
  return query;
}

/** The body's bytes, or 'too-large' once more than `limit` arrived (a body without a length is counted as it comes). */
async function readBody(request: Request, limit: number): Promise<Buffer | 'too-large'> {
  if (request.body === null) return Buffer.alloc(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = request.body.getReader();
  for (;;) {
    // A request body's chunks are bytes (the fetch standard); the platform's types leave them `any`.
    const { done, value } = (await reader.read()) as { done: true; value?: undefined } | { done: false; value: Uint8Array };
    if (done) return Buffer.concat(chunks);
    size += value.byteLength;
    if (size > limit) {
      // The rest is not read: cancelling tells the sender's side to stop.
      await reader.cancel();
      return 'too-large';
    }
    chunks.push(value);
  }
}

/**
 * Undoes gzip/deflate (senders of webhooks sign the uncompressed body; hapi does the same), never
 * past `limit` bytes: a few kilobytes of gzipped zeros must not inflate to gigabytes in one call.
 * 'too-large' when the body would.
 */
function decoded(bytes: Buffer, encoding: string | undefined, limit: number): Buffer | 'too-large' {
  if (encoding !== 'gzip' && encoding !== 'deflate') return bytes;
  try {
    return encoding === 'gzip' ? gunzipSync(bytes, { maxOutputLength: limit }) : inflateSync(bytes, { maxOutputLength: limit });
  } catch (error) {
    if (error instanceof RangeError) return 'too-large';
    throw new HttpAbort(400, 'Invalid compressed payload');
  }
}

/** The body as hapi's parser would give it: a webhook's bytes kept, a urlencoded form's fields, JSON, text (multipart forms go to the uploads parser). */
/** `rawMaxDepth`: keep the bytes (a webhook's), refusing them when parsed deeper than this; null parses now. */
function parsedBody(raw: Buffer, headers: HeaderRecord, rawMaxDepth: number | null, limit: number): RequestBody | 'too-large' {
  const contentType = headerText(headers['content-type']);
  const bytes = decoded(raw, headerText(headers['content-encoding'])?.trim().toLowerCase(), limit);
  if (bytes === 'too-large') return bytes;
  if (rawMaxDepth !== null) return RequestBody.raw(bytes, contentType, rawMaxDepth);
  if (bytes.length === 0) return RequestBody.parsed(contentType === undefined ? null : parseBody(bytes, contentType));
  const mime = (contentType ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';
  if (!PARSED_TYPES.test(mime)) throw new HttpAbort(415, 'Unsupported Media Type');
  return RequestBody.parsed(parseBody(bytes, contentType));
}

/** An error page as a wire response. */
function pageWire(page: ErrorPage): WireResponse {
  return { status: page.status, headers: new Map([['content-type', page.contentType], ...Object.entries(page.headers)]), cookies: [], body: { kind: 'text', text: page.body } };
}

/** A private disk's object behind a temporary link (the target as sent: the signature covers the encoded path). */
async function openedLink(links: TemporaryLinks, target: string, link: { disk: string; key: string | undefined }, failed: (error: ErrorAnswer) => Promise<WireResponse>): Promise<WireResponse> {
  const opened = await links.open(target, link.disk, link.key);
  if (opened.kind === 'refused') return failed({ status: opened.status, detail: opened.detail });
  const headers = new Map([
    ['content-type', opened.contentType],
    ['content-length', String(opened.size)],
    ['content-disposition', opened.contentDisposition],
    ['cache-control', opened.cacheControl],
  ]);
  return { status: 200, headers, cookies: [], body: { kind: 'stream', stream: opened.stream } };
}

/** A file the framework serves itself (`public/`, the public disk's): with its ETag, as inert gives one. */
function servedFile(absolutePath: string, method: string, headers: HeaderRecord): Promise<WireResponse> {
  return withFile({ status: 200, headers: new Map(), cookies: [], body: { kind: 'file', path: absolutePath } }, method, headers, true);
}

/**
 * A response streaming a file (of `public/` or the public disk, or a `Download.file`): its type
 * unless the reply named one, its length, Last-Modified and, when `tagged`, an ETag, as inert
 * gives them on hapi. A GET or HEAD the client's copy still answers gets 304 without a body
 * (`fileNotModified`); a Range is served while If-Range still names the file. Rejects when the
 * file is gone.
 */
async function withFile(wire: WireResponse, method: string, headers: HeaderRecord, tagged: boolean): Promise<WireResponse> {
  if (wire.body.kind !== 'file') return wire;
  const { path } = wire.body;
  const info = await stat(path);
  if (!info.isFile()) throw new FrameworkError('http.not-a-file', `${path} is not a file`);
  if (!wire.headers.has('content-type')) {
    const type = mimeLookup(path) || 'application/octet-stream';
    wire.headers.set('content-type', type.startsWith('text/') || type === 'application/javascript' ? `${type}; charset=utf-8` : type);
  }
  const etag = tagged ? fileEtag(info.size, info.mtimeMs) : null;
  if (etag !== null) wire.headers.set('etag', etag);
  wire.headers.set('last-modified', info.mtime.toUTCString());
  const conditions = { method, etag, modifiedMs: info.mtimeMs, ifNoneMatch: headerText(headers['if-none-match']), ifModifiedSince: headerText(headers['if-modified-since']) };
  if (wire.status === 200 && fileNotModified(conditions)) {
    // Validators, type and cache headers stay; no body and no length of one (the file is not opened).
    wire.status = 304;
    wire.body = { kind: 'empty' };
    return wire;
  }
  wire.headers.set('accept-ranges', 'bytes');
  const range = rangeStillValid(headerText(headers['if-range']), etag) ? headerText(headers['range']) : undefined;
  const part = wire.status === 200 ? byteRange(range, info.size) : null;
  if (part === null) {
    wire.headers.set('content-length', String(info.size));
    return wire;
  }
  wire.status = 206;
  wire.headers.set('content-range', `bytes ${part.start}-${part.end}/${info.size}`);
  wire.headers.set('content-length', String(part.end - part.start + 1));
  wire.body = { kind: 'file', path, start: part.start, end: part.end };
  return wire;
}

/**
 * The one byte range asked for, when it can be served (`bytes=0-99`, `bytes=100-`,
 * `bytes=-500`); anything else (several ranges, one past the end, another unit) gets the whole
 * file, which RFC 9110 allows and which never needs a 416.
 */
function byteRange(range: string | undefined, size: number): { start: number; end: number } | null {
  const spec = range === undefined ? null : /^bytes=\s*(\d*)-(\d*)\s*$/iu.exec(range);
  if (spec === null || size === 0) return null;
  const [, first = '', last = ''] = spec;
  if (first === '') {
    const length = Number(last);
    return length > 0 ? { start: Math.max(0, size - length), end: size - 1 } : null;
  }
  const start = Number(first);
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return start < size && start <= end ? { start, end } : null;
}

/** The wire response as a WHATWG `Response`, with hapi's defaults: `no-cache`, charset on text, 204 for an empty 200. */
function toResponse(wire: WireResponse, head: boolean): Response {
  const headers = new Headers();
  for (const [name, value] of wire.headers) headers.set(name, value);
  for (const line of wire.cookies) headers.append('set-cookie', line);
  if (!headers.has('cache-control')) headers.set('cache-control', 'no-cache');
  const type = headers.get('content-type');
  if (type !== null && /^(?:text\/|application\/json)/u.test(type) && !/charset=/iu.test(type)) headers.set('content-type', `${type}; charset=utf-8`);
  const nothing = wire.body.kind === 'empty' || (wire.body.kind === 'text' && wire.body.text === '') || (wire.body.kind === 'bytes' && wire.body.bytes.byteLength === 0);
  const status = wire.status === 200 && nothing ? 204 : wire.status;
  if (head || status === 204 || status === 304) {
    // No body goes out (HEAD): a stream the reply opened (a stored object, `Download.stream`) is
    // closed now and a file is not opened, instead of holding a descriptor or a connection.
    if (wire.body.kind === 'stream' && wire.body.stream instanceof Readable) wire.body.stream.destroy();
    return new Response(null, { status, headers });
  }
  let body: ConstructorParameters<typeof Response>[0];
  switch (wire.body.kind) {
    case 'empty':
      body = null;
      break;
    case 'text':
      body = wire.body.text === '' ? null : wire.body.text;
      break;
    case 'bytes':
      body = wire.body.bytes.byteLength === 0 ? null : wire.body.bytes;
      break;
    case 'stream':
      body = Readable.toWeb(Readable.from(wire.body.stream as AsyncIterable<string | Uint8Array>, { objectMode: false })) as ReadableStream<Uint8Array>;
      break;
    case 'file':
      body = Readable.toWeb(createReadStream(wire.body.path, { start: wire.body.start, end: wire.body.end })) as ReadableStream<Uint8Array>;
      break;
  }
  return new Response(body, { status, headers });
}
