import type { HttpClient, HttpRequestInit } from '../../ports/http-client.js';
import { MisuseError } from '../../domain/shared/errors.js';

export interface FetchHttpClientOptions {
  /** Whole request, body included. A provider that hangs must not hold a visitor's request open. */
  readonly timeoutMs?: number;
  /** Sent when the caller set none; GitHub's API refuses requests without one. */
  readonly userAgent?: string;
}

export const DEFAULT_TIMEOUT_MS = 10_000;

/**
 * The app's outbound HTTP: the platform's `fetch` with a timeout. Redirects are not followed
 * unless asked (`redirect: 'follow'`): a token or profile endpoint that redirects is broken or
 * hijacked, and following would resend the request (and its bearer token) to another place.
 */
export class FetchHttpClient implements HttpClient {
  private readonly timeoutMs: number;
  private readonly userAgent: string;

  constructor(options: FetchHttpClientOptions = {}) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    if (!Number.isInteger(timeoutMs) || timeoutMs <= 0) throw new MisuseError('outbound-http.bad-timeout', `timeoutMs must be a positive integer, got ${timeoutMs}`);
    this.timeoutMs = timeoutMs;
    this.userAgent = options.userAgent ?? 'fw';
  }

  fetch(url: string, init: HttpRequestInit = {}): Promise<Response> {
    const headers = new Headers(init.headers);
    if (!headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    // A caller's signal (openid-client sends its own) still applies; whichever fires first aborts.
    const timeout = AbortSignal.timeout(this.timeoutMs);
    const signal = init.signal ? AbortSignal.any([init.signal, timeout]) : timeout;
    return globalThis.fetch(url, {
      method: init.method ?? 'GET',
      headers,
      body: init.body ?? null,
      redirect: init.redirect ?? 'manual',
      signal,
    });
  }
}
