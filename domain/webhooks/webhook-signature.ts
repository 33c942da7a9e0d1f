import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * The common webhook signature: an HMAC-SHA256 of the raw request body with a secret shared
 * with the sender, sent in a header as hex (GitHub: `X-Hub-Signature-256: sha256=<hex>`) or
 * base64 (Shopify: `X-Shopify-Hmac-Sha256`), sometimes after a prefix.
 */
export interface HmacSignature {
  /** The body exactly as received: any re-encoding of parsed JSON would change it. */
  readonly body: Uint8Array;
  readonly secret: string | Uint8Array;
  /** The header's value, or undefined when the request has none. */
  readonly presented: string | undefined;
  /** Text before the digest, e.g. `sha256=`; '' for none. */
  readonly prefix: string;
  readonly encoding: 'hex' | 'base64';
}

const HEX = /^[0-9a-fA-F]{64}$/u;
const BASE64 = /^[A-Za-z0-9+/]{43}=$/u;

/**
 * Whether the presented digest is the body's. Malformed, missing or wrong are all false; the
 * 32-byte digests are compared with `timingSafeEqual`, so the time taken says nothing about
 * how much of a forged signature was right.
 */
export function hmacSha256Matches(check: HmacSignature): boolean {
  const { presented, prefix } = check;
  if (presented === undefined || !presented.startsWith(prefix)) return false;
  const digest = presented.slice(prefix.length);
  if (!(check.encoding === 'hex' ? HEX : BASE64).test(digest)) return false;
  const expected = createHmac('sha256', check.secret).update(check.body).digest();
  return timingSafeEqual(expected, Buffer.from(digest, check.encoding));
}
