import { parse as parseQueryString } from 'node:querystring';
import type { Lifecycle, Request, Server } from '@hapi/hapi';
import { BODY_TOO_DEEP, bodyDepthWithin } from '../../../domain/security/body-depth.js';
import { HttpAbort } from '../http-error.js';

declare module '@hapi/hapi' {
  interface RouteOptionsApp {
    /** The route keeps the body's bytes (`payload.parse: 'gunzip'`); the framework parses them on demand. */
    fwRawBody?: boolean;
  }
}

/**
 * Registers, next to the catch-all route, a POST route per webhook path whose body hapi reads
 * but does not parse (only gzip/deflate is undone, as senders sign the uncompressed body), so
 * the signature can be checked against the bytes as sent. hapi's router prefers these more
 * specific routes; every request still goes to the same dispatcher, which matches it with the
 * app's own router, and `RequestBody` parses the bytes when a handler asks for the body.
 */
export function rawBodyRoutes(server: Server, paths: readonly string[], options: { maxBytes: number; handler: Lifecycle.Method }): void {
  for (const path of paths) {
    server.route({
      method: 'POST',
      path,
      options: {
        app: { fwRawBody: true },
        payload: { maxBytes: options.maxBytes, output: 'data', parse: 'gunzip' },
      },
      handler: options.handler,
    });
  }
}

/**
 * A request's body. On the catch-all route hapi has parsed it already; on a raw-body route it
 * is parsed here, once, the first time it is asked for, the way hapi would have: JSON (a
 * `__proto__` key refused as hapi does), urlencoded forms, text, and otherwise the bytes.
 */
export class RequestBody {
  private parsed: { value: unknown } | null = null;

  constructor(
    private readonly request: Request,
    private readonly maxDepth: number,
  ) {}

  /** The bytes as received, on a raw-body route; null elsewhere. */
  raw(): Buffer | null {
    if (this.request.route.settings.app?.fwRawBody !== true) return null;
    const payload = this.request.payload;
    return Buffer.isBuffer(payload) ? payload : Buffer.alloc(0);
  }

  value(): unknown {
    const raw = this.raw();
    if (raw === null) return this.request.payload;
    const type: unknown = this.request.headers['content-type'];
    this.parsed ??= { value: parseBody(raw, typeof type === 'string' ? type : undefined) };
    if (!bodyDepthWithin(this.parsed.value, this.maxDepth)) throw new HttpAbort(400, BODY_TOO_DEEP);
    return this.parsed.value;
  }
}

/** What hapi's parser (subtext) makes of a body, except that an unknown type gives the bytes instead of 415. */
export function parseBody(raw: Buffer, contentType: string | undefined): unknown {
  const mime = (contentType ?? 'application/octet-stream').split(';')[0]?.trim().toLowerCase() ?? '';
  if (/^application\/(?:.+\+)?json$/u.test(mime)) return raw.length === 0 ? null : parseJson(raw.toString('utf8'));
  if (mime === 'application/x-www-form-urlencoded') return raw.length === 0 ? {} : parseQueryString(raw.toString('utf8'));
  if (/^text\/.+$/u.test(mime)) return raw.toString('utf8');
  return raw.length === 0 ? null : raw;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text, (key, value: unknown) => {
      // An own `__proto__` key turns into a prototype when the object is later merged.
      if (key === '__proto__') throw new SyntaxError('__proto__ key');
      return value;
    });
  } catch {
    throw new HttpAbort(400, 'Invalid request payload JSON format');
  }
}
