/**
 * A running job is leased to its worker until its timeout plus a grace period has passed. A
 * worker that dies keeps no job: once the lease expires another worker may claim it again (so
 * a job runs at least once, and more than once only after a crash or an overrun).
 */
export const LEASE_GRACE_MS = 5_000;

/** When the lease of a job claimed at `now` ends. */
export function leaseUntil(now: Date, timeoutMs: number, graceMs = LEASE_GRACE_MS): Date {
  return new Date(now.getTime() + timeoutMs + graceMs);
}

/** A lease that ended at or before `now` lets another worker take the job. */
export function leaseExpired(until: Date, now: Date): boolean {
  return until.getTime() <= now.getTime();
}
