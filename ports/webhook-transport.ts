import type { AttemptResult } from '../domain/webhooks/retry.js';

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/** What came back, the response's first bytes included (for `webhook:failed`). */
export type TransportResult = AttemptResult & { responseBody?: string };

/**
 * Sends one webhook: a POST that follows no redirect, gives up after a timeout, reads at most
 * a capped number of response bytes, and refuses targets on the app's own networks (the
 * resolved address is checked, and it is the one connected to).
 */
export interface WebhookTransport {
  post(request: WebhookPost): Promise<TransportResult>;
}
