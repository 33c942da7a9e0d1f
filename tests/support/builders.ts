import { createHash } from 'node:crypto';
import type { CreateUserInput } from '../../application/users/create-user.js';
import { newPendingSignIn } from '../../domain/oauth/pending-sign-in.js';
import type { PendingSignIn } from '../../domain/oauth/pending-sign-in.js';
import type { SignInPurpose } from '../../domain/oauth/sign-in-purpose.js';
import { PASSWORD } from './flows.js';

/**
 * Small builders: a valid value with the usual defaults, and only what a test is about written
 * in the test (`aUser({ email: 'bob@example.com' })`).
 */

/** A fixed time for values built without one. */
export const T0 = new Date('2026-03-01T12:00:00Z');

/** A verified user with `PASSWORD`, as `TestApp.createUser` takes it. */
export function aUser(over: Partial<CreateUserInput> = {}): CreateUserInput {
  return { name: 'Ada Lovelace', email: 'ada@example.com', password: PASSWORD, verified: true, ...over };
}

/** 32 bytes that differ for each seed (stand-ins for a RandomSource). */
export function seededBytes(seed: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`seed:${seed}`).digest());
}

/** A guest's login with 'remember me', the purpose of most sign-ins a test starts. */
export const guestRemember: SignInPurpose = { intent: 'login', userId: null, remember: true };

/**
 * A social sign-in between `oauth.redirect` and the callback: deterministic state, verifier and
 * nonce for a seed (`openId: false` for a plain OAuth 2.0 provider, which has no nonce).
 */
export function aPendingSignIn(over: { provider?: string; seed?: number; openId?: boolean; purpose?: SignInPurpose; now?: Date } = {}): PendingSignIn {
  const seed = over.seed ?? 1;
  return newPendingSignIn({
    provider: over.provider ?? 'provider_a',
    purpose: over.purpose ?? guestRemember,
    random: { state: seededBytes(seed), verifier: seededBytes(seed + 1000), nonce: over.openId === false ? null : seededBytes(seed + 2000) },
    now: over.now ?? T0,
  });
}

/** `minutes` after `start` (the ten-minute lives of pending sign-ins). */
export function minutesAfter(start: Date, minutes: number): Date {
  return new Date(start.getTime() + minutes * 60_000);
}
