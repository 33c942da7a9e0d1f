/**
 * Bytes as a Buffer for encoding (`toString('base64url')`), without copying them: the random
 * source already hands each caller bytes of its own, and `Buffer.from(bytes)` copied them again
 * (node's array-like path: a dozen calls and an allocation, on every request's CSP nonce,
 * request id, session token and seal IV; docs/performance.md). A Buffer is returned as it is;
 * other bytes get a view on their memory.
 */
export function bytesAsBuffer(bytes: Uint8Array): Buffer {
  return Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** Bytes as base64url text (tokens and ids made from random bytes), through `bytesAsBuffer`. */
export function base64url(bytes: Uint8Array): string {
  return bytesAsBuffer(bytes).toString('base64url');
}
