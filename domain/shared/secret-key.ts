import { createSecretKey } from 'node:crypto';
import type { KeyObject } from 'node:crypto';

/** Each key's KeyObject, made on first use: the keys are derived once and never change. */
const made = new WeakMap<Buffer, KeyObject>();

/**
 * A long-lived key (APP_KEY's derived keys) as a KeyObject for `createHmac` and
 * `createCipheriv`: on Node 24 each of those given a Buffer spends ~11 µs checking whether it is
 * a KeyObject or a CryptoKey, against ~1.7 µs given a KeyObject (Node 20 and 22 do not differ;
 * docs/performance.md). Made once per Buffer; a key must not be changed in place after use.
 */
export function secretKey(key: Buffer): KeyObject {
  let keyObject = made.get(key);
  if (keyObject === undefined) {
    keyObject = createSecretKey(key);
    made.set(key, keyObject);
  }
  return keyObject;
}
