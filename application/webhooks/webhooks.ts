import { decideAfterAttempt, DEFAULT_RETRY_POLICY } from '../../domain/webhooks/retry.js';
import type { RetryPolicy } from '../../domain/webhooks/retry.js';
import { secretKey, webhookHeaders } from '../../domain/webhooks/signature.js';
import { checkWebhookUrl } from '../../domain/webhooks/target-guard.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { NewDelivery, WebhookDeliveries, WebhookDelivery } from '../../ports/webhook-deliveries.js';
import type { WebhookTransport } from '../../ports/webhook-transport.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';
import { base64url } from '../../domain/shared/bytes.js';

/** The `whsec_…` secret of an endpoint: the app's own lookup, or one derived from APP_KEY. */
export type EndpointSecrets = (url: URL) => string | Promise<string>;

export interface WebhooksOptions {
  policy?: RetryPolicy;
  /** A claimed delivery can be attempted by another worker after this (default: 1 min; an attempt times out after 10 s). */
  leaseMs?: number;
}

/** What `send` answers: the delivery's id (`webhook:failed` and `webhook:retry <id>` show and take it). */
export interface SentWebhook {
  id: string;
}

/** What the app and the commands use (`services.get(TOKENS.webhooks)`). */
export interface OutgoingWebhooks {
  send(url: string, event: string, payload: unknown): Promise<SentWebhook>;
  secretFor(url: string): Promise<string>;
  deliverDue(limit?: number, id?: string): Promise<WebhookDelivery[]>;
  deliverQueued(id: string): Promise<void>;
}

/**
 * Attempts of deliveries on the job queue (the framework's job `fw.webhooks.deliver`); with
 * QUEUE_CONNECTION=sync an attempt runs before the call returns.
 */
export interface WebhookQueue {
  /** Writes the delivery and queues its first attempt in one database transaction: both or neither. */
  first(delivery: NewDelivery): Promise<void>;
  /** Queues another attempt, to run after `delayMs`. */
  retry(deliveryId: string, delayMs: number): Promise<void>;
}

/** A queued attempt found its delivery being attempted by another worker: the queue tries again later. */
export class DeliveryBusy extends FrameworkError {
  constructor(id: string) {
    super('webhooks.delivery-busy', `The webhook delivery ${id} is being attempted by another worker`);
  }
}

/**
 * Outgoing webhooks: `send` records a delivery (so nothing is lost if the process stops) and
 * queues its first attempt; each attempt (a job on the app's queue) is signed as Standard Webhooks says with the
 * endpoint's secret, retried with exponential backoff on network errors, 5xx, 408 and 429,
 * failed at once on other answers and refused targets.
 */
export class Webhooks implements OutgoingWebhooks {
  private readonly policy: RetryPolicy;
  private readonly leaseMs: number;

  constructor(
    private readonly deliveries: WebhookDeliveries,
    private readonly transport: WebhookTransport,
    private readonly queue: WebhookQueue,
    private readonly secrets: EndpointSecrets,
    private readonly clock: Clock,
    private readonly random: RandomSource,
    private readonly logger: Logger,
    options: WebhooksOptions = {},
  ) {
    this.policy = options.policy ?? DEFAULT_RETRY_POLICY;
    this.leaseMs = options.leaseMs ?? 60_000;
  }

  /**
   * Records a delivery of `payload` (JSON) to `url` as event `event`, due now. The body is
   * `{"type": event, "timestamp": ISO time, "data": payload}` (the Standard Webhooks shape).
   * Throws a TypeError for a URL that is not http(s) or an event name that is empty.
   */
  async send(url: string, event: string, payload: unknown): Promise<SentWebhook> {
    const checked = checkWebhookUrl(url);
    if (!checked.allowed) throw new MisuseError('webhooks.url-refused', `Webhook URL refused: ${checked.reason}`);
    if (event.trim() === '') throw new MisuseError('webhooks.no-event', 'A webhook needs an event name');
    const now = this.clock.now();
    const data: unknown = payload === undefined ? null : payload;
    const body = JSON.stringify({ type: event, timestamp: now.toISOString(), data });
    const id = `msg_${base64url(this.random.bytes(16))}`;
    // The row and its job commit together: no delivery without a job to send it, and no job
    // for a delivery that was rolled back.
    await this.queue.first({ id, url: checked.url.href, event, body, createdAt: now });
    return { id };
  }

  /** The secret a receiver needs to verify what `url` is sent. */
  async secretFor(url: string): Promise<string> {
    const checked = checkWebhookUrl(url);
    if (!checked.allowed) throw new MisuseError('webhooks.url-refused', `Webhook URL refused: ${checked.reason}`);
    return this.secrets(checked.url);
  }

  /** Attempts up to `limit` due deliveries (or only the one named by `id`), concurrently; answers them as they are afterwards. */
  async deliverDue(limit = 20, id?: string): Promise<WebhookDelivery[]> {
    const now = this.clock.now();
    const claimed = await this.deliveries.claimDue(now, new Date(now.getTime() + this.leaseMs), limit, id);
    await Promise.all(claimed.map((delivery) => this.attempt(delivery)));
    return Promise.all(claimed.map(async (delivery) => (await this.deliveries.find(delivery.id)) ?? delivery));
  }

  /**
   * The queued job's work: one attempt of the delivery if it is due. Nothing when it is
   * delivered, failed, or due later (a later job is queued for it); `DeliveryBusy` when
   * another worker holds it, so the queue retries the job after that worker's lease.
   */
  async deliverQueued(id: string): Promise<void> {
    const [attempted] = await this.deliverDue(1, id);
    if (attempted !== undefined) return;
    const found = await this.deliveries.find(id);
    if (found?.status === 'pending' && (found.nextAttemptAt?.getTime() ?? 0) <= this.clock.now().getTime()) throw new DeliveryBusy(id);
  }

  private async attempt(delivery: WebhookDelivery): Promise<void> {
    const key = secretKey(await this.secrets(new URL(delivery.url)));
    if (key === null) {
      await this.deliveries.record(delivery.id, failed(this.clock.now(), 'the endpoint secret is not a whsec_ secret of 24 to 64 bytes', null, null));
      return;
    }
    const timestamp = Math.floor(this.clock.now().getTime() / 1000);
    const headers = webhookHeaders({ id: delivery.id, timestamp, body: delivery.body }, key);
    const result = await this.transport.post({ url: delivery.url, headers, body: delivery.body });
    const random = (this.random.bytes(1)[0] ?? 0) / 256;
    const decision = decideAfterAttempt(result, delivery.attempts, this.policy, random);
    const now = this.clock.now();
    const lastStatus = result.kind === 'response' ? result.status : null;
    const lastResponse = result.responseBody ?? null;
    const fields = { delivery: delivery.id, url: delivery.url, event: delivery.event, attempt: delivery.attempts };
    if (decision.kind === 'delivered') {
      await this.deliveries.record(delivery.id, { status: 'delivered', nextAttemptAt: null, lastStatus, lastError: null, lastResponse, finishedAt: now });
    } else if (decision.kind === 'retry') {
      const error = result.kind === 'response' ? `HTTP ${result.status}` : result.message;
      this.logger.info('webhook attempt failed; will retry', { ...fields, error, retryInMs: decision.delayMs });
      await this.deliveries.record(delivery.id, {
        status: 'pending',
        nextAttemptAt: new Date(now.getTime() + decision.delayMs),
        lastStatus,
        lastError: error,
        lastResponse,
        finishedAt: null,
      });
      try {
        await this.queue.retry(delivery.id, decision.delayMs);
      } catch (queueError) {
        this.logger.error('webhook retry could not be queued; the delivery stays pending', { ...fields, error: queueError });
      }
    } else {
      this.logger.warn('webhook delivery failed', { ...fields, error: decision.reason });
      await this.deliveries.record(delivery.id, failed(now, decision.reason, lastStatus, lastResponse));
    }
  }
}

function failed(now: Date, error: string, lastStatus: number | null, lastResponse: string | null) {
  return { status: 'failed' as const, nextAttemptAt: null, lastStatus, lastError: error, lastResponse, finishedAt: now };
}
