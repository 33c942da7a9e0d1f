import { createHash } from 'node:crypto';
import { newPendingSignIn } from '../../../../domain/oauth/pending-sign-in.js';
import type { PendingSignIn } from '../../../../domain/oauth/pending-sign-in.js';
import type { SignInPurpose } from '../../../../domain/oauth/sign-in-purpose.js';

/** Shared fixtures for the tests of the `state` value: a fixed time and deterministic "random" bytes. */
export const T0 = new Date('2026-03-01T12:00:00Z');

export const guestRemember: SignInPurpose = { intent: 'login', userId: null, remember: true };

/** 32 bytes that differ for each seed (stand-ins for a RandomSource). */
export function bytes(seed: number): Uint8Array {
  return new Uint8Array(createHash('sha256').update(`seed:${seed}`).digest());
}

export function minutesAfter(start: Date, minutes: number): Date {
  return new Date(start.getTime() + minutes * 60_000);
}

export function start(over: { provider?: string; seed?: number; openId?: boolean; purpose?: SignInPurpose; now?: Date } = {}): PendingSignIn {
  const seed = over.seed ?? 1;
  return newPendingSignIn({
    provider: over.provider ?? 'provider_a',
    purpose: over.purpose ?? guestRemember,
    random: { state: bytes(seed), verifier: bytes(seed + 1000), nonce: over.openId === false ? null : bytes(seed + 2000) },
    now: over.now ?? T0,
  });
}
