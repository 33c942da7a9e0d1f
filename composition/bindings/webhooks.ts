import { GuardedWebhookTransport } from '../../adapters/outbound-http/guarded-webhook-transport.js';
import { object, string } from 'superstruct';
import type { EndpointSecrets, OutgoingWebhooks, WebhookQueue } from '../../application/webhooks/webhooks.js';
import { Webhooks } from '../../application/webhooks/webhooks.js';
import { Backoffs } from '../../domain/queue/backoff.js';
import { derivedEndpointSecret } from '../../domain/webhooks/signature.js';
import { FrameworkError } from '../../domain/shared/errors.js';
import { SqlWebhookDeliveries } from '../../adapters/persistence/mikro-orm/sql-webhook-deliveries.js';
import type { WebhookDeliveries } from '../../ports/webhook-deliveries.js';
import { defineJob } from '../jobs.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { QUEUE_TOKENS } from './queue.js';

/** Outgoing webhooks and their `webhook_deliveries` table. */
export const WEBHOOK_TOKENS = {
  webhookDeliveries: token<WebhookDeliveries>('WebhookDeliveries'),
  /** `webhooks.send(url, event, payload)`; working once the app called `outgoingWebhooks()`. */
  webhooks: token<OutgoingWebhooks>('Webhooks'),
} as const;

export interface OutgoingWebhooksOptions {
  /** The `whsec_…` secret of an endpoint (from the app's own table); default: derived from APP_KEY and the URL. */
  secret?: EndpointSecrets;
}

/**
 * One attempt of one delivery, as a job on the app's queue (queue `webhooks`). Its own tries
 * and backoff only cover a worker that found the delivery held by another (`DeliveryBusy`) or
 * died mid-attempt; the webhook's retries are new jobs, delayed by the webhook's backoff.
 */
export const DeliverWebhook = defineJob({
  name: 'fw.webhooks.deliver',
  payload: object({ id: string() }),
  queue: 'webhooks',
  tries: 5,
  backoff: Backoffs.exponential(30_000),
  timeoutMs: 30_000,
  async handle({ id }, { services }) {
    await services.get(WEBHOOK_TOKENS.webhooks).deliverQueued(id);
  },
});

/**
 * Binds `TOKENS.webhooks`: working when the app called `outgoingWebhooks()`, refusing with the
 * reason otherwise. The deliveries' table is the framework's, so its store is always bound.
 */
export function webhooksArea(enabled: OutgoingWebhooksOptions | null) {
  return ({ container, config }: Binding): void => {
    provide(container, WEBHOOK_TOKENS.webhookDeliveries, [C.database], (db) => new SqlWebhookDeliveries(db.raw));
    if (enabled === null) provide(container, WEBHOOK_TOKENS.webhooks, [], () => disabledWebhooks());
    else bindOutgoing({ container, config }, enabled);
  };
}

function bindOutgoing({ container, config }: Pick<Binding, 'container' | 'config'>, enabled: OutgoingWebhooksOptions): void {
  const secrets: EndpointSecrets = enabled.secret ?? ((url) => derivedEndpointSecret(config.app.key.reveal(), url));
  const transport = new GuardedWebhookTransport({ allowLoopback: config.app.env === 'local' });
  provide(
    container,
    WEBHOOK_TOKENS.webhooks,
    [WEBHOOK_TOKENS.webhookDeliveries, QUEUE_TOKENS.jobs, C.clock, C.random, C.logger],
    (deliveries, jobs, clock, random, logger) => {
      const queue: WebhookQueue = {
        first: (delivery) =>
          jobs.transaction(async (tx) => {
            await deliveries.add(delivery, tx);
            await tx.dispatch(DeliverWebhook.with({ id: delivery.id }));
          }),
        async retry(id, delayMs) {
          await jobs.dispatch(DeliverWebhook.with({ id })).delay(delayMs);
        },
      };
      return new Webhooks(deliveries, transport, queue, secrets, clock, random, logger.child({ webhooks: true }));
    },
  );
}

function disabledWebhooks(): OutgoingWebhooks {
  const off = () => Promise.reject(new FrameworkError('webhooks.outgoing-off', 'Outgoing webhooks are off: call app.outgoingWebhooks() when building the app (it also registers their delivery job)'));
  return { send: off, secretFor: off, deliverDue: off, deliverQueued: off };
}
