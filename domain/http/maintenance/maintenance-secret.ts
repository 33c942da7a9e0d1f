import { sameSecret } from '../../security/constant-time.js';

/**
 * The `--secret` of `fwx down`: one path segment of unreserved URL characters, so `/<SECRET>`
 * reaches the server exactly as typed (no percent-encoding, no `/`, `?` or `#` to cut it).
 * All-dot secrets are refused: clients fold `/.` and `/..` away before sending.
 */
const SECRET = /^[A-Za-z0-9._~-]{1,200}$/u;

export function isValidMaintenanceSecret(secret: string): boolean {
  return SECRET.test(secret) && !/^\.+$/u.test(secret);
}

/**
 * Whether the request path is exactly `/<SECRET>`. Both sides are hashed first so the compare
 * takes the same time whatever the path's length or how much of the secret it guessed.
 */
export function isSecretPath(path: string, secret: string | null): boolean {
  if (secret === null || !isValidMaintenanceSecret(secret)) return false;
  return sameSecret(path, `/${secret}`);
}
