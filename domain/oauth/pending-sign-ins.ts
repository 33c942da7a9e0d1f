import { sameSecret } from '../security/constant-time.js';
import { MAX_PENDING_SIGN_INS } from './limits.js';
import { isRandomToken } from './pkce.js';
import { isExpired, pendingSignInToJson, readPendingSignIn } from './pending-sign-in.js';
import type { PendingSignIn, PendingSignInJson } from './pending-sign-in.js';

/**
 * The pending sign-ins of one session, stored as a list under one key: a sign-in started in a
 * second tab is added beside the first instead of replacing it. The list is bounded; the
 * oldest entry goes first. Every function takes what the session holds as `unknown` and gives
 * back the list to store; an empty list means the key can be removed.
 */
export const PENDING_SIGN_INS_KEY = '_oauth_pending';

/** The live entries in the order they were added (oldest first); damaged and expired ones are left out. */
export function readPendingSignIns(stored: unknown, now: Date): PendingSignIn[] {
  return readAll(stored, now).filter((p) => !isExpired(p, now));
}

/**
 * Adds a new sign-in. Expired and damaged entries go first; if the list is still full, the
 * oldest are dropped (their callbacks will be refused as unknown, and the visitor starts again).
 */
export function addPendingSignIn(stored: unknown, pending: PendingSignIn, now: Date): PendingSignInJson[] {
  const kept = readPendingSignIns(stored, now);
  return [...kept, pending].slice(-MAX_PENDING_SIGN_INS).map(pendingSignInToJson);
}

export type StateRefusal =
  /** The callback carried no `state`, or one this app never makes (wrong shape, repeated). */
  | 'missing-state'
  /** No pending sign-in of this session has it: another browser, already used, or evicted. */
  | 'unknown-state'
  /** Started ten minutes ago or more. */
  | 'expired'
  /** Started for another provider than the callback's. */
  | 'other-provider';

export type StateCheck = { readonly kind: 'accepted'; readonly pending: PendingSignIn } | { readonly kind: 'refused'; readonly reason: StateRefusal };

export interface TakenSignIn {
  readonly check: StateCheck;
  /** What the session keeps: the entry the callback named is gone whatever the outcome, and expired ones too. */
  readonly remaining: PendingSignInJson[];
}

/**
 * The callback's check of `state` (the spec's 'Value of state' table): accepted only when this
 * session holds it, for this provider, started less than ten minutes ago. The entry it names
 * is removed by this first callback, right or wrong, so a state is never tried twice.
 *
 * The returned value is compared with every entry in constant time, and all entries are
 * compared (no early exit), so timing tells an attacker neither how much of a guess was right
 * nor which entry matched. A state that names no entry removes nothing: an attacker's link
 * cannot cancel the visitor's sign-in in another tab.
 */
export function takePendingSignIn(stored: unknown, callback: { provider: string; state: unknown }, now: Date): TakenSignIn {
  const all = readAll(stored, now);
  const live = (list: readonly PendingSignIn[]): PendingSignInJson[] => list.filter((p) => !isExpired(p, now)).map(pendingSignInToJson);
  const given = callback.state;
  // The shape of a state is public, so checking it first leaks nothing.
  if (!isRandomToken(given)) {
    return { check: { kind: 'refused', reason: 'missing-state' }, remaining: live(all) };
  }
  const matches = all.map((p) => sameSecret(p.state, given));
  const found = all.find((_p, index) => matches[index] === true);
  const remaining = live(all.filter((_p, index) => matches[index] !== true));
  if (found === undefined) return { check: { kind: 'refused', reason: 'unknown-state' }, remaining };
  if (found.provider !== callback.provider) return { check: { kind: 'refused', reason: 'other-provider' }, remaining };
  if (isExpired(found, now)) return { check: { kind: 'refused', reason: 'expired' }, remaining };
  return { check: { kind: 'accepted', pending: found }, remaining };
}

/** Every well-formed entry, expired ones included (a callback naming one is told it expired). */
function readAll(stored: unknown, now: Date): PendingSignIn[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown) => {
    const p = readPendingSignIn(entry, now);
    return p === null ? [] : [p];
  });
}
