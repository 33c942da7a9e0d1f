import { isSecretPath, isValidMaintenanceSecret } from './maintenance-secret.js';
import { MisuseError } from '../../shared/errors.js';

export { bypassCookieValid, MAINTENANCE_BYPASS_COOKIE, maintenanceBypassCookie } from './maintenance-bypass.js';
export type { BypassCookieInput } from './maintenance-bypass.js';
export { isSecretPath, isValidMaintenanceSecret } from './maintenance-secret.js';

/**
 * Maintenance mode. `fwx down` writes the marker file `storage/framework/down`; while it
 * exists every process on the machine answers 503. This module holds the file's content as a
 * value and the decision for one request; reading and writing the file is the adapters' job.
 */

/** Retry-After when `down` was given no `--retry`: the spec always sends the header. */
export const DEFAULT_MAINTENANCE_RETRY_AFTER_SECONDS = 60;

export interface MaintenanceMarkerInput {
  secret?: string | undefined;
  retryAfterSeconds?: number | undefined;
  since: Date;
}

/**
 * The marker file exists, so the site is down, whatever the content says. A file that does
 * not parse (half-written, hand-edited) still means down, with `damaged: true` and the
 * unreadable fields null: a broken file must never bring the site up, and with no readable
 * secret nobody gets a bypass.
 */
export interface MaintenanceMarker {
  readonly kind: 'down';
  readonly secret: string | null;
  readonly retryAfterSeconds: number | null;
  readonly since: Date | null;
  readonly damaged: boolean;
}

function validRetry(value: unknown): boolean {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}

/** The marker file's content (JSON). Bad input is a TypeError: the CLI validates its flags. */
export function maintenanceMarker(input: MaintenanceMarkerInput): string {
  if (Number.isNaN(input.since.getTime())) throw new MisuseError('maintenance.bad-time', 'since is an invalid Date');
  if (input.secret !== undefined && !isValidMaintenanceSecret(input.secret)) {
    throw new MisuseError('maintenance.bad-secret', 'the secret must be 1 to 200 of A-Z a-z 0-9 . _ ~ - (one URL path segment)');
  }
  if (input.retryAfterSeconds !== undefined && !validRetry(input.retryAfterSeconds)) {
    throw new MisuseError('maintenance.bad-retry-after', `retryAfterSeconds must be a whole number of seconds, got ${input.retryAfterSeconds}`);
  }
  const content = {
    since: input.since.toISOString(),
    secret: input.secret ?? null,
    retryAfterSeconds: input.retryAfterSeconds ?? null,
  };
  return `${JSON.stringify(content)}\n`;
}

const DAMAGED: MaintenanceMarker = Object.freeze({
  kind: 'down',
  secret: null,
  retryAfterSeconds: null,
  since: null,
  damaged: true,
});

export function parseMaintenanceMarker(text: string): MaintenanceMarker {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    return DAMAGED;
  }
  if (typeof data !== 'object' || data === null || Array.isArray(data)) return DAMAGED;
  const record = data as Record<string, unknown>;
  const rawSecret = record['secret'] ?? null;
  const rawRetry = record['retryAfterSeconds'] ?? null;
  const rawSince = record['since'];
  const secret = typeof rawSecret === 'string' && isValidMaintenanceSecret(rawSecret) ? rawSecret : null;
  const retryAfterSeconds = typeof rawRetry === 'number' && validRetry(rawRetry) ? rawRetry : null;
  const parsedSince = typeof rawSince === 'string' ? new Date(rawSince) : null;
  const since = parsedSince !== null && !Number.isNaN(parsedSince.getTime()) ? parsedSince : null;
  const damaged = secret !== rawSecret || retryAfterSeconds !== rawRetry || since === null;
  return Object.freeze({ kind: 'down', secret, retryAfterSeconds, since, damaged });
}

export interface MaintenanceRequest {
  /** The request path without query string. */
  path: string;
  /** A framework script or a file of the public disk: served before maintenance mode. */
  isPublicFile: boolean;
  /** The request carries a valid bypass cookie (see `bypassCookieValid`). */
  hasValidBypass: boolean;
  /** The parsed marker, or null when there is no marker file (the site is up). */
  marker: MaintenanceMarker | null;
}

/**
 * - `pass`: handle the request as usual.
 * - `bypass-set`: the visit to `/<SECRET>`: set the bypass cookie and redirect to `/`.
 * - `unavailable`: 503 with `Retry-After`, page `errors/503.html` or the built-in one.
 */
export type MaintenanceAnswer =
  | { readonly kind: 'pass' }
  | { readonly kind: 'bypass-set' }
  | { readonly kind: 'unavailable'; readonly retryAfterSeconds: number };

export function maintenanceAnswer(request: MaintenanceRequest): MaintenanceAnswer {
  const { marker } = request;
  // Load balancers must keep seeing the process as alive, and pages must keep their assets.
  if (marker === null || request.path === '/health' || request.isPublicFile) return { kind: 'pass' };
  if (isSecretPath(request.path, marker.secret)) return { kind: 'bypass-set' };
  if (request.hasValidBypass) return { kind: 'pass' };
  return { kind: 'unavailable', retryAfterSeconds: marker.retryAfterSeconds ?? DEFAULT_MAINTENANCE_RETRY_AFTER_SECONDS };
}
