import { ERRORS_KEY, OLD_INPUT_KEY, isErrorBags, isOldInput } from './form.js';
import { copyJson, isPlainRecord } from './json.js';
import type { JsonValue } from './json.js';
import { MINUTE_MS, checkDefaultLifetime, isStoredLifetime } from './lifetime.js';
import { isToken } from './token.js';

/**
 * A session as stored between requests, by the cookie driver (encrypted) or the database
 * driver (a row's payload). Plain JSON, so every driver can store it as text. Times are epoch
 * milliseconds. The user fields are all null for a guest and all set (but `passwordConfirmedAt`,
 * which a later confirmation may also fill) for a user.
 */
export type SessionSnapshot = {
  v: 1;
  token: string;
  /** Values stored with put, push and increment. */
  values: Record<string, JsonValue>;
  /** Values flashed for the next request: readable there, then dropped unless kept. */
  flash: Record<string, JsonValue>;
  /** Minutes of inactivity this session survives; null means the app's SESSION_LIFETIME. */
  lifetimeMinutes: number | null;
  userId: number | null;
  /** The user's session epoch at login: a session under a lower epoch than the user's is dead. */
  userEpoch: number | null;
  authenticatedAt: number | null;
  /** Names the login (see `Session.loginId`); null for a guest. */
  loginId: string | null;
  passwordConfirmedAt: number | null;
  intendedUrl: string | null;
  issuedAt: number;
  lastActivityAt: number;
};

const FIELDS = [
  'v',
  'token',
  'values',
  'flash',
  'lifetimeMinutes',
  'userId',
  'userEpoch',
  'authenticatedAt',
  'loginId',
  'passwordConfirmedAt',
  'intendedUrl',
  'issuedAt',
  'lastActivityAt',
] as const satisfies readonly (keyof SessionSnapshot)[];

/**
 * The moment the session ends if no request comes first (epoch ms): for the database driver's
 * `expires_at` and the cookie's Max-Age. Inactivity is measured from the last request.
 */
export function sessionExpiresAt(snapshot: SessionSnapshot, defaultLifetimeMinutes: number): number {
  const minutes = snapshot.lifetimeMinutes ?? checkDefaultLifetime(defaultLifetimeMinutes);
  return snapshot.lastActivityAt + minutes * MINUTE_MS;
}

/** The fields a compact snapshot leaves out when they hold these values (a guest's, mostly). */
const DEFAULTS = {
  values: {},
  flash: {},
  lifetimeMinutes: null,
  userId: null,
  userEpoch: null,
  authenticatedAt: null,
  loginId: null,
  passwordConfirmedAt: null,
  intendedUrl: null,
} as const;
type DefaultedField = keyof typeof DEFAULTS;
const DEFAULTED = Object.keys(DEFAULTS) as DefaultedField[];

/** Whether a field holds its compact default: null, or an empty record for values and flash. */
function isDefault(field: DefaultedField, value: unknown): boolean {
  return field === 'values' || field === 'flash' ? isPlainRecord(value) && Object.keys(value).length === 0 : value === null;
}

/**
 * The snapshot as the cookie driver stores it: format 2, the fields that hold their default
 * left out. A new guest session is `v`, `token` and the two times: its sealed cookie is ~300
 * bytes where the full form made ~530, sent by the browser on every request and opened
 * (HMAC, AES, JSON) by the server. `parseSnapshot` reads both formats.
 */
export function compactSnapshot(snapshot: SessionSnapshot): Record<string, unknown> {
  const stored: Record<string, unknown> = { v: 2, token: snapshot.token, issuedAt: snapshot.issuedAt, lastActivityAt: snapshot.lastActivityAt };
  for (const field of DEFAULTED) if (!isDefault(field, snapshot[field])) stored[field] = snapshot[field];
  return stored;
}

/**
 * Checks a snapshot read from outside (a cookie, a database row, any version of the code) field
 * by field, and returns a copy with frozen values, or null when anything is off. Unknown fields
 * count as damage: a format change comes with a new `v`. Format 1 holds every field; format 2
 * (`compactSnapshot`) leaves out those that hold their default, and writing one of them with its
 * default is damage too (one value, one spelling).
 */
export function parseSnapshot(input: unknown): SessionSnapshot | null {
  if (!isPlainRecord(input)) return null;
  return input['v'] === 2 ? parseCompact(input) : parseFull(input);
}

function parseCompact(input: Record<string, unknown>): SessionSnapshot | null {
  const full: Record<string, unknown> = { ...DEFAULTS, v: 1 };
  for (const key of Object.keys(input)) {
    if (key === 'v') continue;
    if (!(FIELDS as readonly string[]).includes(key)) return null;
    if (Object.hasOwn(DEFAULTS, key) && isDefault(key as DefaultedField, input[key])) return null;
    full[key] = input[key];
  }
  return parseFull(full);
}

function parseFull(input: Record<string, unknown>): SessionSnapshot | null {
  const keys = Object.keys(input);
  if (keys.length !== FIELDS.length || !FIELDS.every((field) => Object.hasOwn(input, field))) return null;
  const s = input as Record<(typeof FIELDS)[number], unknown>;

  if (s.v !== 1 || !isToken(s.token)) return null;
  const values = jsonRecord(s.values);
  const flash = jsonRecord(s.flash);
  if (values === null || flash === null) return null;
  if (Object.hasOwn(flash, OLD_INPUT_KEY) && !isOldInput(flash[OLD_INPUT_KEY])) return null;
  if (Object.hasOwn(flash, ERRORS_KEY) && !isErrorBags(flash[ERRORS_KEY])) return null;
  if (s.lifetimeMinutes !== null && !isStoredLifetime(s.lifetimeMinutes)) return null;
  if (!isTime(s.issuedAt) || !isTime(s.lastActivityAt)) return null;
  if (s.intendedUrl !== null && (typeof s.intendedUrl !== 'string' || s.intendedUrl === '')) return null;

  const { userId, userEpoch, authenticatedAt, loginId, passwordConfirmedAt } = s;
  if (passwordConfirmedAt !== null && !isTime(passwordConfirmedAt)) return null;
  let user: Pick<SessionSnapshot, 'userId' | 'userEpoch' | 'authenticatedAt' | 'loginId'>;
  if (userId === null) {
    // A guest has no epoch, login time or password confirmation: half a user is damage.
    if (userEpoch !== null || authenticatedAt !== null || loginId !== null || passwordConfirmedAt !== null) return null;
    user = { userId: null, userEpoch: null, authenticatedAt: null, loginId: null };
  } else {
    if (!isUserId(userId) || !isEpoch(userEpoch) || !isTime(authenticatedAt) || !isLoginId(loginId)) return null;
    user = { userId, userEpoch, authenticatedAt, loginId };
  }

  return {
    v: 1,
    token: s.token,
    values,
    flash,
    lifetimeMinutes: s.lifetimeMinutes,
    ...user,
    passwordConfirmedAt,
    intendedUrl: s.intendedUrl,
    issuedAt: s.issuedAt,
    lastActivityAt: s.lastActivityAt,
  };
}

/** Each entry is copied on its own, with the same depth budget `put` gives a value. */
function jsonRecord(value: unknown): Record<string, JsonValue> | null {
  if (!isPlainRecord(value)) return null;
  const entries: [string, JsonValue][] = [];
  for (const [key, item] of Object.entries(value)) {
    const copy = copyJson(item);
    if (!copy.ok) return null;
    entries.push([key, copy.value]);
  }
  return Object.fromEntries(entries);
}

function isLoginId(value: unknown): value is string {
  return typeof value === 'string' && /^[A-Za-z0-9_-]{22}$/u.test(value);
}

export function isUserId(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 1;
}

export function isEpoch(value: unknown): value is number {
  return Number.isSafeInteger(value) && (value as number) >= 0;
}

function isTime(value: unknown): value is number {
  return Number.isSafeInteger(value);
}
