/** What one delivery attempt came to, as the transport saw it. */
export type AttemptResult =
  | { kind: 'response'; status: number }
  /** No answer: refused connection, reset, DNS failure, timeout. */
  | { kind: 'network-error'; message: string }
  /** The target is not allowed (a private address, a bad URL): trying again changes nothing. */
  | { kind: 'refused'; message: string };

export type AttemptDecision = { kind: 'delivered' } | { kind: 'retry'; delayMs: number } | { kind: 'failed'; reason: string };

export interface RetryPolicy {
  /** Attempts in all, the first included. */
  maxAttempts: number;
  /** The wait before the second attempt; each later one waits `factor` times longer… */
  baseDelayMs: number;
  factor: number;
  /** …up to this. */
  maxDelayMs: number;
}

/** 8 attempts over about 3 hours: 10 s, 30 s, 1.5 min, 4.5 min, 13.5 min, 40 min, 2 h (±20 %). */
export const DEFAULT_RETRY_POLICY: RetryPolicy = { maxAttempts: 8, baseDelayMs: 10_000, factor: 3, maxDelayMs: 6 * 3600_000 };

/**
 * Whether a status is worth another attempt: 5xx (the receiver is having trouble), 408
 * (Request Timeout) and 429 (Too Many Requests). Other 4xx say the request itself is refused,
 * and 3xx is not followed (a redirect could point anywhere, the guard's checks included).
 */
export function retryableStatus(status: number): boolean {
  return status >= 500 || status === 408 || status === 429;
}

/**
 * What to do after attempt number `attempt` (1 for the first): delivered on 2xx; another
 * attempt after an exponential delay with ±20 % jitter (`random` in [0, 1), so receivers that
 * failed together are not hit together again) on network errors and retryable statuses, until
 * `maxAttempts`; failed otherwise.
 */
export function decideAfterAttempt(result: AttemptResult, attempt: number, policy: RetryPolicy, random: number): AttemptDecision {
  if (result.kind === 'response' && result.status >= 200 && result.status < 300) return { kind: 'delivered' };
  if (result.kind === 'refused') return { kind: 'failed', reason: result.message };
  const why = result.kind === 'response' ? `HTTP ${result.status}` : result.message;
  if (result.kind === 'response' && !retryableStatus(result.status)) return { kind: 'failed', reason: why };
  if (attempt >= policy.maxAttempts) return { kind: 'failed', reason: `${why} (after ${attempt} attempts)` };
  const plain = Math.min(policy.maxDelayMs, policy.baseDelayMs * policy.factor ** (attempt - 1));
  return { kind: 'retry', delayMs: Math.round(plain * (0.8 + 0.4 * random)) };
}
