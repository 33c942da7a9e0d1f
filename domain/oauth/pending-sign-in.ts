import { CLOCK_SKEW_MS, STATE_LIFETIME_MS } from './limits.js';
import { isRandomToken, isPkceVerifier, PKCE_METHOD, pkceChallenge, randomToken } from './pkce.js';
import { isProviderName } from './provider.js';
import { isSignInPurpose } from './sign-in-purpose.js';
import type { SignInIntent, SignInPurpose } from './sign-in-purpose.js';
import { MisuseError } from '../shared/errors.js';

/**
 * One sign-in between `oauth.redirect` and the callback, kept in the visitor's session and
 * bound to its provider: the `state` sent to the provider, the PKCE verifier (never sent), the
 * OpenID nonce, what the sign-in is for, and when it started (it lives ten minutes).
 */
export interface PendingSignIn extends SignInPurpose {
  readonly provider: string;
  readonly state: string;
  readonly verifier: string;
  /** Sent as `nonce` and expected back in the ID token; null for a plain OAuth 2.0 provider. */
  readonly nonce: string | null;
  readonly startedAt: Date;
}

/** As stored in the session: plain JSON, the time as epoch milliseconds. */
export interface PendingSignInJson {
  readonly provider: string;
  readonly state: string;
  readonly verifier: string;
  readonly nonce: string | null;
  readonly intent: SignInIntent;
  readonly userId: number | null;
  readonly remember: boolean;
  readonly startedAt: number;
}

/** Fresh random bytes for one sign-in, `RANDOM_BYTES` each; `nonce` only for an OpenID provider. */
export interface SignInRandom {
  readonly state: Uint8Array;
  readonly verifier: Uint8Array;
  readonly nonce: Uint8Array | null;
}

/** Starts a sign-in. Bad arguments are the caller's bug: a TypeError. */
export function newPendingSignIn(input: { provider: string; purpose: SignInPurpose; random: SignInRandom; now: Date }): PendingSignIn {
  if (!isProviderName(input.provider)) throw new MisuseError('oauth.bad-provider-name', `Not a provider name: ${JSON.stringify(input.provider)}`);
  if (!isSignInPurpose(input.purpose)) throw new MisuseError('oauth.bad-sign-in-purpose', 'A sign-in purpose is a guest login, or a link or confirmation by a user');
  const startedAt = input.now.getTime();
  if (!Number.isSafeInteger(startedAt) || startedAt < 0) throw new MisuseError('oauth.bad-time', 'newPendingSignIn needs a valid time');
  const { state, verifier, nonce } = input.random;
  return Object.freeze({
    provider: input.provider,
    state: randomToken(state),
    verifier: randomToken(verifier),
    nonce: nonce === null ? null : randomToken(nonce),
    intent: input.purpose.intent,
    userId: input.purpose.userId,
    remember: input.purpose.remember,
    startedAt: new Date(startedAt),
  });
}

export function pendingSignInToJson(p: PendingSignIn): PendingSignInJson {
  return {
    provider: p.provider,
    state: p.state,
    verifier: p.verifier,
    nonce: p.nonce,
    intent: p.intent,
    userId: p.userId,
    remember: p.remember,
    startedAt: p.startedAt.getTime(),
  };
}

/** What goes into the authorization URL besides the client's own parameters; never the verifier. */
export interface AuthorizationParameters {
  readonly state: string;
  readonly code_challenge: string;
  readonly code_challenge_method: typeof PKCE_METHOD;
  readonly nonce?: string;
}

export function authorizationParameters(p: PendingSignIn): AuthorizationParameters {
  const base = { state: p.state, code_challenge: pkceChallenge(p.verifier), code_challenge_method: PKCE_METHOD } as const;
  return p.nonce === null ? base : { ...base, nonce: p.nonce };
}

/** Alive from its start for ten minutes, the last millisecond excluded. */
export function isExpired(p: PendingSignIn, now: Date): boolean {
  return now.getTime() - p.startedAt.getTime() >= STATE_LIFETIME_MS;
}

const KEYS = ['provider', 'state', 'verifier', 'nonce', 'intent', 'userId', 'remember', 'startedAt'];

/**
 * Reads one stored entry. The session comes from outside the process (a cookie or a row), so
 * every field is checked and damage is null, never an exception. An entry that starts further
 * in the future than clock skew explains was not written by this app.
 */
export function readPendingSignIn(value: unknown, now: Date): PendingSignIn | null {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  if (Object.keys(v).length !== KEYS.length || !KEYS.every((key) => Object.hasOwn(v, key))) return null;
  const { provider, state, verifier, nonce, intent, userId, remember, startedAt } = v;
  if (!isProviderName(provider) || !isRandomToken(state) || !isPkceVerifier(verifier)) return null;
  if (nonce !== null && !isRandomToken(nonce)) return null;
  const checkedNonce: string | null = nonce;
  const purpose = { intent, userId, remember };
  if (!isSignInPurpose(purpose)) return null;
  if (!Number.isSafeInteger(startedAt) || (startedAt as number) < 0) return null;
  if ((startedAt as number) - now.getTime() > CLOCK_SKEW_MS) return null;
  return Object.freeze({ provider, state, verifier, nonce: checkedNonce, ...purpose, startedAt: new Date(startedAt as number) });
}
