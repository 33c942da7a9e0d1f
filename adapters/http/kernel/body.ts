import { parse as parseQueryString } from 'node:querystring';
import { bodyDepthWithin } from '../../../domain/http/body-depth.js';
import { BODY_TOO_DEEP } from './refusal-messages.js';
import { HttpAbort } from './http-error.js';

/**
 * A request's body. Mostly the transport has parsed it already; on a webhook route it keeps
 * the bytes as sent (for the signature) and they are parsed here, once, the first time a
 * handler asks for the body, the way hapi would have: JSON (a `__proto__` key refused as hapi
 * does), urlencoded forms, text, and otherwise the bytes.
 */
export class RequestBody {
  private parsed: { value: unknown } | null = null;

  private constructor(
    private readonly payload: unknown,
    private readonly bytes: Buffer | null,
    private readonly contentType: string | undefined,
    private readonly maxDepth: number,
  ) {}

  /** A body the transport parsed (or none: `undefined`). */
  static parsed(value: unknown): RequestBody {
    return new RequestBody(value, null, undefined, Infinity);
  }

  /** A body kept as bytes, parsed on demand by its Content-Type; nested deeper than `maxDepth`, it is refused (400). */
  static raw(bytes: Buffer, contentType: string | undefined, maxDepth: number): RequestBody {
    return new RequestBody(undefined, bytes, contentType, maxDepth);
  }

  /** The bytes as received, on a raw-body route; null elsewhere. */
  raw(): Buffer | null {
    return this.bytes;
  }

  value(): unknown {
    if (this.bytes === null) return this.payload;
    this.parsed ??= { value: parseBody(this.bytes, this.contentType) };
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

/** A `"__proto__":` key, also spelled with `\u` escapes (the check @hapi/bourne makes). */
const PROTO_KEY = /"(?:_|\\u005[Ff])(?:_|\\u005[Ff])(?:p|\\u0070)(?:r|\\u0072)(?:o|\\u006[Ff])(?:t|\\u0074)(?:o|\\u006[Ff])(?:_|\\u005[Ff])(?:_|\\u005[Ff])"\s*:/u;

function parseJson(text: string): unknown {
  try {
    const value: unknown = JSON.parse(text);
    // The reviver walks the value recursively (a body 5000 deep would overflow the stack before
    // the depth limit could refuse it), so it runs only when such a key may be there.
    if (!PROTO_KEY.test(text)) return value;
    return JSON.parse(text, (key, item: unknown) => {
      // An own `__proto__` key turns into a prototype when the object is later merged.
      if (key === '__proto__') throw new SyntaxError('__proto__ key');
      return item;
    });
  } catch {
    throw new HttpAbort(400, 'Invalid request payload JSON format');
  }
}
