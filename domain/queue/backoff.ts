import { MisuseError } from '../shared/errors.js';
/**
 * How long a failed job waits before its next attempt. `fixed` waits the same each time;
 * `exponential` doubles from `baseMs` up to `maxMs`, then spreads the wait by `jitter` (a
 * fraction of it drawn at random) so that jobs failing together do not retry together.
 */
export type Backoff =
  | { readonly kind: 'fixed'; readonly delayMs: number }
  | { readonly kind: 'exponential'; readonly baseMs: number; readonly maxMs: number; readonly jitter: number };

/** The framework's default: 1 s, 2 s, 4 s… up to an hour, each shortened by up to a fifth at random. */
export const DEFAULT_BACKOFF: Backoff = { kind: 'exponential', baseMs: 1000, maxMs: 3_600_000, jitter: 0.2 };

export const Backoffs = {
  fixed(delayMs: number): Backoff {
    wholeMs('delayMs', delayMs);
    return { kind: 'fixed', delayMs };
  },
  exponential(baseMs: number, options: { maxMs?: number; jitter?: number } = {}): Backoff {
    const maxMs = options.maxMs ?? Math.max(3_600_000, baseMs);
    const jitter = options.jitter ?? 0.2;
    wholeMs('baseMs', baseMs);
    wholeMs('maxMs', maxMs);
    if (maxMs < baseMs) throw new MisuseError('queue.bad-backoff', `maxMs (${maxMs}) must not be below baseMs (${baseMs})`);
    if (!(jitter >= 0 && jitter <= 1)) throw new MisuseError('queue.bad-backoff', `jitter must be between 0 and 1, got ${jitter}`);
    return { kind: 'exponential', baseMs, maxMs, jitter };
  },
};

/**
 * The wait before attempt `failedAttempts + 1`, in whole milliseconds. `random` is a number in
 * [0, 1) the caller draws (the domain takes no randomness of its own); the result lies in
 * [cap × (1 − jitter), cap], where cap is the doubled delay bounded by `maxMs`.
 */
export function backoffDelay(backoff: Backoff, failedAttempts: number, random: number): number {
  if (!Number.isSafeInteger(failedAttempts) || failedAttempts < 1) throw new MisuseError('queue.bad-attempts', `failedAttempts must be a whole number ≥ 1, got ${failedAttempts}`);
  if (!(random >= 0 && random < 1)) throw new MisuseError('queue.bad-random', `random must be in [0, 1), got ${random}`);
  if (backoff.kind === 'fixed') return backoff.delayMs;
  // 2^(n−1) overflows to Infinity for large n; min() then keeps the cap.
  const cap = Math.min(backoff.maxMs, backoff.baseMs * 2 ** (failedAttempts - 1));
  return Math.round(cap * (1 - backoff.jitter * random));
}

function wholeMs(name: string, value: number): void {
  if (!Number.isSafeInteger(value) || value < 0) throw new MisuseError('queue.bad-backoff', `${name} must be a whole number of milliseconds ≥ 0, got ${value}`);
}

/** A number in [0, 1) from four random bytes (what `backoffDelay` takes as `random`). */
export function fractionOf(bytes: Uint8Array): number {
  if (bytes.length < 4) throw new MisuseError('queue.random-bytes', 'fractionOf needs four random bytes');
  return new DataView(bytes.buffer, bytes.byteOffset, 4).getUint32(0) / 2 ** 32;
}
