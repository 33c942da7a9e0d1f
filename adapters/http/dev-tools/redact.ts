/**
 * What the local request inspector may keep of a value: secrets replaced, long text cut, deep
 * structures flattened. The inspector is a developer's page, but a screen share or a pasted
 * screenshot is enough to leak a password, a session token or APP_KEY, so none is ever kept.
 */

export const REDACTED = '[redacted]';

/**
 * Names whose values are secrets, matched anywhere in a key, any case: `password`,
 * `password_confirmation`, `current_password`, `passwordHash`, `_token`, `remember_token`,
 * `client_secret`, `APP_KEY`, `cookie`, `authorization`, `code_verifier`, the two-factor
 * `recovery` codes, and a pending OAuth sign-in's `state`, PKCE `verifier` and `nonce`…
 */
const SECRET_NAME = /pass|token|secret|cookie|authori[sz]ation|api[-_]?key|app[-_]?key|^key$|signature|hash|otp|^code$|code[-_]?verifier|verifier|recovery|^codes$|^state$|nonce|credential|private/iu;

const MAX_TEXT = 300;
const MAX_DEPTH = 4;
const MAX_ITEMS = 30;

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name);
}

/** A copy of `value` fit for the inspector: plain JSON, secrets by key replaced, bounded in size. */
export function redact(value: unknown, depth = 0): unknown {
  if (value === null || value === undefined) return value ?? null;
  if (typeof value === 'string') return value.length > MAX_TEXT ? `${value.slice(0, MAX_TEXT)}…` : value;
  if (typeof value === 'number' || typeof value === 'boolean') return value;
  if (typeof value === 'bigint') return value.toString();
  if (value instanceof Date) return value.toISOString();
  if (value instanceof Error) return { error: value.name, message: redact(value.message, depth + 1) };
  if (Buffer.isBuffer(value) || value instanceof Uint8Array) return `[${value.byteLength} bytes]`;
  if (typeof value === 'function' || typeof value === 'symbol') return `[${typeof value}]`;
  if (depth >= MAX_DEPTH) return '[…]';
  if (Array.isArray(value)) {
    const items = value.slice(0, MAX_ITEMS).map((item) => redact(item, depth + 1));
    return value.length > MAX_ITEMS ? [...items, `… ${value.length - MAX_ITEMS} more`] : items;
  }
  // `Secret` values (and anything else with its own JSON form) print what they choose to.
  const json = (value as { toJSON?: () => unknown }).toJSON;
  if (typeof json === 'function') return redact(json.call(value), depth + 1);
  const copy: Record<string, unknown> = {};
  let count = 0;
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    if (++count > MAX_ITEMS) {
      copy['…'] = 'more keys';
      break;
    }
    copy[key] = isSecretName(key) ? REDACTED : redact(item, depth + 1);
  }
  return copy;
}

/** `redact` as one line of JSON, for a table cell. */
export function redactedText(value: unknown): string {
  const text = JSON.stringify(redact(value));
  return text === undefined ? '' : text;
}

/**
 * The path as the inspector shows it: a segment that is the value of a route parameter with a
 * secret name (`/reset-password/{token}`) is replaced, so the page never shows a usable link.
 */
export function redactedPath(path: string, params: Readonly<Record<string, string>>): string {
  const secrets = new Set(secretParameterValues(params));
  if (secrets.size === 0) return path;
  return path
    .split('/')
    .map((segment) => (secrets.has(segment) || secrets.has(safeDecode(segment)) ? REDACTED : segment))
    .join('/');
}

function safeDecode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The values of route parameters whose names are secret, to scrub from what a request records. */
export function secretParameterValues(params: Readonly<Record<string, string>>): string[] {
  return Object.entries(params)
    .filter(([name, value]) => isSecretName(name) && value !== '')
    .map(([, value]) => value);
}
