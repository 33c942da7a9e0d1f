import { MisuseError } from '../shared/errors.js';
/**
 * A login waiting for its second step. The password (or the provider) said who it is, but the
 * visitor is not logged in yet: the session holds this value instead of a user, and the
 * challenge page completes or abandons it.
 */
export interface PendingLogin {
  readonly userId: number;
  /**
   * The user's session epoch when the first step passed. Raising it (a password reset, 'log
   * out other devices') ends every session of the user, and so this half-made one too.
   */
  readonly epoch: number;
  /** Whether 'remember me' was asked for; it applies once the login completes. */
  readonly remember: boolean;
  /** The provider of a social login, or null after a password. */
  readonly provider: string | null;
  readonly startedAt: Date;
}

/** The session key the value is stored under. */
export const PENDING_LOGIN_KEY = '_pending_login';

/** Ten minutes to fetch the phone and type a code; after that the login starts again. */
export const PENDING_LOGIN_TTL_MINUTES = 10;

/**
 * How far in the future a start may lie: servers behind one load balancer disagree on the time
 * by a little. Beyond that the value was not made by this app.
 */
const CLOCK_SKEW_MS = 60_000;

const PROVIDER = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/u;

/** The value as stored in the session: plain JSON, the time as epoch milliseconds. */
export interface PendingLoginJson {
  readonly userId: number;
  readonly epoch: number;
  readonly remember: boolean;
  readonly provider: string | null;
  readonly startedAt: number;
}

export function pendingLogin(input: { userId: number; epoch: number; remember: boolean; provider: string | null; now: Date }): PendingLogin {
  const value = { userId: input.userId, epoch: input.epoch, remember: input.remember, provider: input.provider, startedAt: input.now };
  if (!isWellFormed({ ...value, startedAt: input.now.getTime() })) throw new MisuseError('auth.bad-pending-login', 'pendingLogin needs a user id, an epoch, a boolean and a provider name or null');
  return Object.freeze(value);
}

export function pendingLoginToJson(login: PendingLogin): PendingLoginJson {
  return { userId: login.userId, epoch: login.epoch, remember: login.remember, provider: login.provider, startedAt: login.startedAt.getTime() };
}

export type PendingLoginCheck =
  | { readonly kind: 'pending'; readonly login: PendingLogin }
  /** Nothing is waiting (the key is absent). */
  | { readonly kind: 'none' }
  /** Waited too long: the login starts again. */
  | { readonly kind: 'expired' }
  /** Not a value this app writes: treated like none by callers, told apart for logs and tests. */
  | { readonly kind: 'invalid' };

/**
 * Reads what the session holds under `PENDING_LOGIN_KEY`. The value comes from outside the
 * process (a cookie or a row), so every field is checked and damage is a value, never an
 * exception. Alive for ten minutes from its start, the last millisecond excluded.
 */
export function readPendingLogin(value: unknown, now: Date): PendingLoginCheck {
  if (value === undefined || value === null) return { kind: 'none' };
  if (!isWellFormed(value)) return { kind: 'invalid' };
  const age = now.getTime() - value.startedAt;
  if (age < -CLOCK_SKEW_MS) return { kind: 'invalid' };
  if (age >= PENDING_LOGIN_TTL_MINUTES * 60_000) return { kind: 'expired' };
  return {
    kind: 'pending',
    login: Object.freeze({ userId: value.userId, epoch: value.epoch, remember: value.remember, provider: value.provider, startedAt: new Date(value.startedAt) }),
  };
}

function isWellFormed(value: unknown): value is PendingLoginJson {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const keys = Object.keys(v);
  return (
    keys.length === 5 &&
    Number.isSafeInteger(v['userId']) &&
    (v['userId'] as number) >= 1 &&
    Number.isSafeInteger(v['epoch']) &&
    (v['epoch'] as number) >= 0 &&
    typeof v['remember'] === 'boolean' &&
    (v['provider'] === null || (typeof v['provider'] === 'string' && PROVIDER.test(v['provider']))) &&
    Number.isSafeInteger(v['startedAt']) &&
    (v['startedAt'] as number) >= 0
  );
}
