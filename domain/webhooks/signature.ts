import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';

/**
 * Outgoing webhooks signed as Standard Webhooks (standardwebhooks.com) says: headers
 * `webhook-id`, `webhook-timestamp` (Unix seconds) and `webhook-signature` = `v1,` + base64
 * HMAC-SHA256 over `<id>.<timestamp>.<body>`, keyed with the bytes of a secret written
 * `whsec_<base64>`. Receivers verify with any Standard Webhooks library.
 */
export const SECRET_PREFIX = 'whsec_';

/** The key bytes of a `whsec_…` secret, or null when it is not one (24 to 64 random bytes). */
export function secretKey(secret: string): Buffer | null {
  if (!secret.startsWith(SECRET_PREFIX)) return null;
  const encoded = secret.slice(SECRET_PREFIX.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/u.test(encoded)) return null;
  const key = Buffer.from(encoded, 'base64');
  return key.length >= 24 && key.length <= 64 ? key : null;
}

/** `whsec_` + base64 of the given key bytes. */
export function formatSecret(key: Uint8Array): string {
  return `${SECRET_PREFIX}${Buffer.from(key).toString('base64')}`;
}

export interface SignedMessage {
  id: string;
  /** Unix time in whole seconds. */
  timestamp: number;
  body: string;
}

/** The `webhook-signature` header's value for one message: `v1,<base64>`. */
export function signWebhook(message: SignedMessage, key: Uint8Array): string {
  const mac = createHmac('sha256', key).update(`${message.id}.${message.timestamp}.${message.body}`).digest('base64');
  return `v1,${mac}`;
}

/** The three headers of one delivery, and the JSON content type. */
export function webhookHeaders(message: SignedMessage, key: Uint8Array): Record<string, string> {
  return {
    'content-type': 'application/json',
    'webhook-id': message.id,
    'webhook-timestamp': String(message.timestamp),
    'webhook-signature': signWebhook(message, key),
  };
}

/**
 * What a receiver checks: one of the space-separated `v1,` signatures matches (compared in
 * constant time), and the timestamp is within `toleranceSeconds` of `nowSeconds` (replays of
 * old messages are refused). For tests and for apps that receive Standard Webhooks themselves.
 */
export function verifyWebhook(message: SignedMessage, signatureHeader: string, key: Uint8Array, nowSeconds: number, toleranceSeconds = 300): boolean {
  if (!Number.isSafeInteger(message.timestamp) || Math.abs(nowSeconds - message.timestamp) > toleranceSeconds) return false;
  // The base64 text is compared, not its decoded bytes: decoding forgives changed padding bits.
  const expected = Buffer.from(signWebhook(message, key), 'utf8');
  return signatureHeader.split(' ').some((entry) => {
    const presented = Buffer.from(entry, 'utf8');
    return presented.length === expected.length && timingSafeEqual(presented, expected);
  });
}

/**
 * The default secret of one endpoint: derived from APP_KEY and the URL (without its query and
 * fragment) with HKDF, so each endpoint has its own, nothing is stored, and the app can show it
 * to the receiver (`webhooks.secretFor(url)`). Rotating APP_KEY changes every one of them.
 */
export function derivedEndpointSecret(appKey: Uint8Array, url: URL): string {
  const endpoint = `${url.origin}${url.pathname}`;
  return formatSecret(Buffer.from(hkdfSync('sha256', appKey, 'fw.webhooks.v1', `fw:webhook-endpoint:${endpoint}`, 32)));
}
