import { clientKey, parseIp } from '../client-ip/ip-address.js';
import { currentWindow } from './rate-limit-window.js';
import type { Instant } from './rate-limit-window.js';
import type { Limit } from './rate-limit.js';
import { MisuseError } from '../../shared/errors.js';

export interface ThrottleSubject {
  /** The logged-in user's id; null or absent for a guest. */
  readonly userId?: string | number | null | undefined;
  /** The client address as resolved from TRUSTED_PROXIES. */
  readonly ip?: string | null | undefined;
}

/**
 * Requests without a usable address share one counter. That is the cautious choice: a client
 * cannot escape its limit by making its address unreadable, and in practice every socket has
 * an address, so only a misconfigured proxy chain ends up here.
 */
export const UNKNOWN_CLIENT_KEY = 'ip:unknown';

/**
 * Who `.throttle` counts: `user:<id>` for a logged-in user (on any device or network), else
 * `ip:<client key>`. The client key is the canonical address for IPv4 and the /64 network
 * for IPv6, so every spelling of one address, and every address of one subscriber, is one
 * client.
 */
export function throttleKey({ userId, ip }: ThrottleSubject): string {
  if (userId !== null && userId !== undefined) {
    if (userId === '' || (typeof userId === 'number' && !Number.isFinite(userId))) {
      throw new MisuseError('rate-limit.bad-user-id', `a user id must be non-empty and finite, got ${JSON.stringify(userId)}`);
    }
    return `user:${userId}`;
  }
  const parsed = ip === null || ip === undefined ? null : parseIp(ip);
  return parsed === null ? UNKNOWN_CLIENT_KEY : `ip:${clientKey(parsed)}`;
}

/**
 * The key a limit counts under: its own `.by(key)` when given, else `throttleKey`. The
 * prefixes keep the two apart, so `.by('user:1')` cannot drain user 1's counter.
 */
export function counterSubject(limit: Limit, subject: ThrottleSubject): string {
  return limit.key === null ? throttleKey(subject) : `by:${limit.key}`;
}

// `|` separates the parts; escaping it (and `%`, the escape itself) keeps keys unambiguous
// whatever a limiter name or custom key holds, while IPv6 keys with `:` stay readable.
function escapePart(text: string): string {
  return text.replace(/[%|]/gu, (char) => (char === '%' ? '%25' : '%7C'));
}

/**
 * The counter's store key: `rate-limit|<limiter>|<span>s|<window number>|<subject>`. The
 * window number makes each window a new counter, so a store only has to expire keys at the
 * window's end (`currentWindow(...).resetsAt`) and never reset one. The span keeps two limits
 * of one limiter with different spans apart.
 */
export function windowKey(limiterName: string, subject: string, limit: Limit, now: Instant): string {
  if (limiterName === '') throw new MisuseError('rate-limit.bad-key', 'windowKey needs a limiter name');
  if (subject === '') throw new MisuseError('rate-limit.bad-key', 'windowKey needs a subject key');
  const window = currentWindow(limit, now);
  return `rate-limit|${escapePart(limiterName)}|${limit.perSeconds}s|${window.number}|${escapePart(subject)}`;
}
