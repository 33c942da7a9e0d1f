import { createServer } from 'node:http';
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { FetchConnection, FetchHandler } from './fetch-handler.js';

/**
 * A node:http server for a fetch handler: `createNodeServer(app.fetch).listen(3000)`. A
 * request Node's parser refuses (a broken request line, bytes after a GET's body) gets a bare
 * 400 and the connection is closed, as on hapi.
 */
export function createNodeServer(handler: FetchHandler): Server {
  const server = createServer(nodeListener(handler));
  server.on('clientError', (error, socket) => {
    if (socket.writable) socket.end('HTTP/1.1 400 Bad Request\r\n\r\n');
    else socket.destroy(error);
  });
  return server;
}

/**
 * Serves a fetch handler from `node:http`: `http.createServer(nodeListener(app.fetch))`. The
 * request's Host header goes to the handler as sent (routing and trusted hosts read it), even
 * when it is no valid host and the URL has to be built without it.
 */
export function nodeListener(handler: FetchHandler): (incoming: IncomingMessage, outgoing: ServerResponse) => void {
  return (incoming, outgoing) => {
    serve(handler, incoming, outgoing).catch((error: unknown) => {
      // Only a failure while writing lands here (the handler answers its own errors): the
      // client has gone or the socket broke, and the headers may be out already.
      outgoing.destroy(error instanceof Error ? error : new Error(String(error)));
    });
  };
}

/** Methods a WHATWG `Request` cannot carry (the fetch standard forbids them). */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK']);

async function serve(handler: FetchHandler, incoming: IncomingMessage, outgoing: ServerResponse): Promise<void> {
  const method = incoming.method ?? 'GET';
  if (FORBIDDEN_METHODS.has(method.toUpperCase())) {
    // No route can have them (fw's routes take the methods a form or fetch can send).
    outgoing.writeHead(405, { 'content-type': 'text/plain; charset=utf-8', 'x-content-type-options': 'nosniff', 'cache-control': 'no-store', connection: 'close' });
    outgoing.end('Method Not Allowed');
    return;
  }
  const headers = new Headers();
  for (let index = 0; index < incoming.rawHeaders.length; index += 2) {
    headers.append(incoming.rawHeaders[index] ?? '', incoming.rawHeaders[index + 1] ?? '');
  }
  const { url, absolute } = requestUrl(incoming);
  // RFC 9112 §3.2.2: an absolute-form target's authority wins over the Host header.
  if (absolute) headers.set('host', url.host);
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const body = hasBody ? bodyStream(incoming) : null;
  const request = new Request(url, {
    method,
    headers,
    body: body?.stream ?? null,
    // Node's fetch needs this for a streamed request body.
    ...(hasBody ? { duplex: 'half' } : {}),
  });
  const connection: FetchConnection = { target: incoming.url ?? '/', answered: new Promise((resolve) => outgoing.once('close', () => resolve())) };
  if (incoming.socket.remoteAddress !== undefined) connection.remoteAddress = incoming.socket.remoteAddress;
  const response = await handler(request, connection);

  const head: Record<string, string | string[]> = {};
  response.headers.forEach((value, name) => {
    if (name !== 'set-cookie') head[name] = value;
  });
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) head['set-cookie'] = cookies;
  outgoing.writeHead(response.status, head);
  // A request body nobody read to its end (a refusal before or while reading it) is read and
  // dropped, as hapi does, so the client gets the answer and the connection can be reused.
  body?.drain();
  if (response.body === null || method === 'HEAD') {
    outgoing.end();
    return;
  }
  await pipeline(Readable.fromWeb(response.body as NodeReadableStream<Uint8Array>), outgoing);
}

/**
 * The request body as a web stream that reads the socket only as fast as the handler does,
 * and can be drained afterwards (`Readable.toWeb` would destroy the socket when cancelled).
 */
function bodyStream(incoming: IncomingMessage): { stream: ReadableStream<Uint8Array>; drain(): void } {
  let dropping = false;
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      incoming.pause();
      incoming.on('data', (chunk: Buffer) => {
        if (dropping) return;
        controller.enqueue(new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength));
        if ((controller.desiredSize ?? 0) <= 0) incoming.pause();
      });
      incoming.on('end', () => {
        if (!dropping) controller.close();
      });
      incoming.on('error', (error) => {
        if (!dropping) controller.error(error);
      });
    },
    pull() {
      incoming.resume();
    },
    cancel() {
      dropping = true;
      incoming.resume();
    },
  });
  return {
    stream,
    drain() {
      if (incoming.complete) return;
      dropping = true;
      incoming.resume();
    },
  };
}

/**
 * The request's URL: an absolute-form target as sent; otherwise the path on `localhost` (the
 * Host header travels as sent in the headers: it may be no host at all, or carry a path).
 */
function requestUrl(incoming: IncomingMessage): { url: URL; absolute: boolean } {
  const target = incoming.url ?? '/';
  if (!target.startsWith('/')) {
    try {
      return { url: new URL(target), absolute: true };
    } catch {
      // Not a URL either: read as a path below.
    }
  }
  return { url: new URL(`http://localhost${target.startsWith('/') ? target : `/${target}`}`), absolute: false };
}
