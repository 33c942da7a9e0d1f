import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidMaintenanceSecret } from './maintenance-secret.js';
import { MisuseError } from '../../shared/errors.js';
import { secretKey } from '../../shared/secret-key.js';

/**
 * The cookie that lets one browser past maintenance mode: `<expires>.<hmac-hex>`, where
 * expires is in Unix seconds and the HMAC-SHA256 (keyed with APP_KEY's maintenance-bypass
 * key) covers the expiry and the secret. A new `fwx down --secret` therefore ends every
 * bypass given out for the old secret, and nobody can stretch the expiry.
 */
export const MAINTENANCE_BYPASS_COOKIE = 'fw_maintenance';

const MIN_KEY_BYTES = 16;
/** Canonical only (no leading zero, lower-case hex): the MAC is over these exact characters. */
const VALUE = /^([1-9]\d{0,14})\.([0-9a-f]{64})$/u;

function mac(key: Buffer, secret: string, expires: string): Buffer {
  return createHmac('sha256', secretKey(key)).update(`fw.maintenance-bypass.v1\n${expires}\n${secret}`, 'utf8').digest();
}

export interface BypassCookieInput {
  key: Buffer;
  secret: string;
  now: Date;
  ttlSeconds: number;
}

export function maintenanceBypassCookie(input: BypassCookieInput): string {
  if (input.key.length < MIN_KEY_BYTES) throw new MisuseError('maintenance.bad-key', `the bypass key needs at least ${MIN_KEY_BYTES} bytes`);
  if (!isValidMaintenanceSecret(input.secret)) throw new MisuseError('maintenance.bad-secret', 'the maintenance secret is not a valid path segment');
  if (Number.isNaN(input.now.getTime())) throw new MisuseError('maintenance.bad-time', 'now is an invalid Date');
  if (!Number.isSafeInteger(input.ttlSeconds) || input.ttlSeconds <= 0) {
    throw new MisuseError('maintenance.bad-ttl', `ttlSeconds must be a positive whole number, got ${input.ttlSeconds}`);
  }
  const expires = String(Math.floor(input.now.getTime() / 1000) + input.ttlSeconds);
  return `${expires}.${mac(input.key, input.secret, expires).toString('hex')}`;
}

/** True for an unaltered cookie made with this key and secret whose expiry is after `now`. */
export function bypassCookieValid(value: string | undefined, check: { key: Buffer; secret: string; now: Date }): boolean {
  const match = VALUE.exec(value ?? '');
  if (match === null || !isValidMaintenanceSecret(check.secret) || check.key.length < MIN_KEY_BYTES) return false;
  const expires = match[1] ?? '';
  const given = Buffer.from(match[2] ?? '', 'hex');
  const signed = timingSafeEqual(given, mac(check.key, check.secret, expires));
  return signed && Number(expires) * 1000 > check.now.getTime();
}
