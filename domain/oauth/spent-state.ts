import { createHash } from 'node:crypto';
import { CLOCK_SKEW_MS, STATE_LIFETIME_MS } from './limits.js';
import type { PendingSignIn } from './pending-sign-in.js';

/**
 * A `state` is used once (spec 000, Value of state). Removing it from the session is not enough
 * on its own: a copy of a cookie session still holds it, and two callbacks racing on one
 * session both read it before either writes. So the first callback that accepts a state also
 * spends it on the shared counters; a second one sees the count above one and is refused,
 * whichever server and whichever copy of the session it comes with. The key holds a hash, so
 * the counters never hold a state that could still be presented.
 */
export function spentStateKey(state: string): string {
  return `oauth-state:${createHash('sha256').update(state, 'utf8').digest('base64url')}`;
}

/** Kept until no copy of the state can be accepted any more: its ten minutes, plus clock skew. */
export function spentStateExpiry(pending: Pick<PendingSignIn, 'startedAt'>): Date {
  return new Date(pending.startedAt.getTime() + STATE_LIFETIME_MS + CLOCK_SKEW_MS);
}
