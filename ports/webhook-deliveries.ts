import type { TransactionStatements } from './job-queue.js';

export type DeliveryStatus = 'pending' | 'delivered' | 'failed';

export interface NewDelivery {
  id: string;
  url: string;
  event: string;
  /** The body sent, as JSON text: the same bytes on every attempt, so the signature covers them. */
  body: string;
  createdAt: Date;
}

export interface WebhookDelivery extends NewDelivery {
  status: DeliveryStatus;
  attempts: number;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  /** The first bytes of the last response (capped). */
  lastResponse: string | null;
  finishedAt: Date | null;
}

export interface AttemptRecord {
  status: DeliveryStatus;
  nextAttemptAt: Date | null;
  lastStatus: number | null;
  lastError: string | null;
  lastResponse: string | null;
  finishedAt: Date | null;
}

/**
 * Outgoing webhook deliveries (table `webhook_deliveries`). A due delivery is claimed with a
 * lease: one process attempts it at a time, and one whose process died is attempted again
 * once the lease has run out.
 */
export interface WebhookDeliveries {
  /** Adds it pending and due now; `within` a transaction the caller opened, when given (the outbox). */
  add(delivery: NewDelivery, within?: TransactionStatements): Promise<void>;
  /**
   * Up to `limit` pending deliveries due by `now` and not leased, each with its attempt count
   * raised by one and leased until `leaseUntil`; or the one named by `id` if it is such.
   */
  claimDue(now: Date, leaseUntil: Date, limit: number, id?: string): Promise<WebhookDelivery[]>;
  /** Writes the outcome of an attempt and ends the lease. */
  record(id: string, outcome: AttemptRecord): Promise<void>;
  find(id: string): Promise<WebhookDelivery | null>;
  /** Failed deliveries, newest first. */
  failed(limit: number): Promise<WebhookDelivery[]>;
  /** A failed delivery back to pending, due at `now`, its attempts counted from zero again; false if there is no such failed delivery. */
  retry(id: string, now: Date): Promise<boolean>;
}
