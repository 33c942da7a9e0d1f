import { Readable } from 'node:stream';
import type { ResponseObject, ResponseToolkit } from '@hapi/hapi';
// Brings `h.file()` (the @hapi/inert plugin) into hapi's types.
import type {} from '@hapi/inert';
import type { Reply } from '../kernel/replies.js';
import type { Sealer } from '../kernel/sealer.js';
import { toWire, toWireNow } from '../kernel/wire.js';
import type { WireBody, WireResponse } from '../kernel/wire.js';

export interface SendOptions {
  sealer: Sealer;
  /** APP_URL is https: every cookie is `Secure`. */
  https: boolean;
}

/** Writes a finished reply (made HTTP by the kernel's `toWire`) as hapi's response. */
export async function sendReply(h: ResponseToolkit, reply: Reply, options: SendOptions): Promise<ResponseObject> {
  const wireOptions = { ...options, now: Date.now };
  return sendWire(h, toWireNow(reply, wireOptions) ?? (await toWire(reply, wireOptions)));
}

/** Writes a reply the kernel already made HTTP (`toWire`) as hapi's response. */
export function sendWire(h: ResponseToolkit, wire: WireResponse): ResponseObject {
  const response = body(h, wire.body).code(wire.status);
  for (const [name, value] of wire.headers) response.header(name, value);
  for (const line of wire.cookies) response.header('set-cookie', line, { append: true });
  return response;
}

function body(h: ResponseToolkit, source: WireBody): ResponseObject {
  switch (source.kind) {
    case 'empty':
      return h.response();
    case 'text':
      return h.response(source.text);
    case 'bytes':
      return h.response(Buffer.from(source.bytes));
    case 'stream':
      return h.response(byteStream(source.stream));
    case 'file':
      // Files go through @hapi/inert: streamed, with Last-Modified and ranges; a missing one is a 404.
      return h.file(source.path, { confine: false, etagMethod: false });
  }
}

/**
 * hapi sends only byte streams; an app's stream may be in object mode (`Readable.from(rows)`),
 * so its chunks (strings or bytes) are read into a byte stream.
 */
function byteStream(stream: NodeJS.ReadableStream): Readable {
  return Readable.from(stream as AsyncIterable<string | Uint8Array>, { objectMode: false });
}
