import { hkdfSync } from 'node:crypto';
import { MisuseError } from '../shared/errors.js';

/**
 * APP_KEY is the only secret; every use gets its own key derived once at start with HKDF, so
 * a key that leaks from one use (a cookie library, a log) cannot forge anything else.
 */
export interface AppKeys {
  /** @hapi/iron's encryption key for sealed cookies and the cookie session. */
  readonly cookieEncryption: Buffer;
  /** @hapi/iron's integrity (HMAC) key for sealed cookies. */
  readonly cookieIntegrity: Buffer;
  /** HMAC-SHA256 key of signed URLs. */
  readonly signedUrls: Buffer;
  /** HMAC key of the maintenance-mode bypass cookie. */
  readonly maintenanceBypass: Buffer;
  /** AES-256-GCM key of the TOTP secrets stored in `users.two_factor_secret`. */
  readonly twoFactorEncryption: Buffer;
  /** AES-256-GCM key of models' `column.encrypted()` values. */
  readonly modelEncryption: Buffer;
  /** AES-256-GCM key of secrets inside queued jobs' payloads (a password reset token on its way to the mailer). */
  readonly queuedSecrets: Buffer;
}

const SALT = Buffer.from('fw.app-keys.v1');

function derive(appKey: Buffer, purpose: string): Buffer {
  return Buffer.from(hkdfSync('sha256', appKey, SALT, `fw:${purpose}`, 32));
}

export function deriveAppKeys(appKey: Buffer): AppKeys {
  if (appKey.length !== 32) throw new MisuseError('security.bad-app-key', `APP_KEY must be 32 bytes, got ${appKey.length}`);
  return {
    cookieEncryption: derive(appKey, 'cookie-encryption'),
    cookieIntegrity: derive(appKey, 'cookie-integrity'),
    signedUrls: derive(appKey, 'signed-urls'),
    maintenanceBypass: derive(appKey, 'maintenance-bypass'),
    twoFactorEncryption: derive(appKey, 'two-factor-encryption'),
    modelEncryption: derive(appKey, 'model-encryption'),
    queuedSecrets: derive(appKey, 'queued-secrets'),
  };
}
