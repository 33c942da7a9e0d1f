import { GuardedWebhookTransport } from '../adapters/outbound-http/guarded-webhook-transport.js';
import { object, string } from 'superstruct';
import type { EndpointSecrets, OutgoingWebhooks, WebhookQueue } from '../application/webhooks/webhooks.js';
import { Webhooks } from '../application/webhooks/webhooks.js';
import { Backoffs } from '../domain/queue/backoff.js';
import { derivedEndpointSecret } from '../domain/webhooks/signature.js';
import type { Container } from 'inversify';
import type { Config } from './config.js';
import { provide } from './container.js';
import { defineJob } from './jobs.js';
import { TOKENS } from './tokens.js';
import { FrameworkError } from '../domain/shared/errors.js';

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
    await services.get(TOKENS.webhooks).deliverQueued(id);
  },
});

/** Binds `TOKENS.webhooks`: working when the app called `outgoingWebhooks()`, refusing with the reason otherwise. */
export function bindWebhooks(container: Container, config: Config, enabled: OutgoingWebhooksOptions | null): void {
  if (enabled === null) {
    provide(container, TOKENS.webhooks, [], () => disabledWebhooks());
    return;
  }
  const secrets: EndpointSecrets = enabled.secret ?? ((url) => derivedEndpointSecret(config.app.key.reveal(), url));
  const transport = new GuardedWebhookTransport({ allowLoopback: config.app.env === 'local' });
  provide(
    container,
    TOKENS.webhooks,
    [TOKENS.webhookDeliveries, TOKENS.jobs, TOKENS.clock, TOKENS.random, TOKENS.logger],
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
