import { GuardedWebhookTransport } from '../adapters/outbound-http/guarded-webhook-transport.js';
import type { EndpointSecrets, OutgoingWebhooks } from '../application/webhooks/webhooks.js';
import { Webhooks } from '../application/webhooks/webhooks.js';
import { derivedEndpointSecret } from '../domain/webhooks/signature.js';
import type { Container } from 'inversify';
import type { Config } from './config.js';
import { provide } from './container.js';
import type { ScheduleEntry } from './schedule.js';
import { TOKENS } from './tokens.js';

export interface OutgoingWebhooksOptions {
  /** The `whsec_…` secret of an endpoint (from the app's own table); default: derived from APP_KEY and the URL. */
  secret?: EndpointSecrets;
}

/** The framework's task that sends due deliveries, in every scheduler process (claims keep each delivery to one). */
export const DELIVER_WEBHOOKS_TASK: Omit<ScheduleEntry, 'run'> = {
  name: 'webhooks:deliver',
  expression: '* * * * * *',
  options: { onOneServer: false, withoutOverlapping: { expiresAfterMinutes: 5 } },
};

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
    [TOKENS.webhookDeliveries, TOKENS.clock, TOKENS.random, TOKENS.logger],
    (deliveries, clock, random, logger) => new Webhooks(deliveries, transport, secrets, clock, random, logger.child({ webhooks: true })),
  );
}

function disabledWebhooks(): OutgoingWebhooks {
  const off = () => Promise.reject(new Error('Outgoing webhooks are off: call app.outgoingWebhooks() when building the app (it also schedules their delivery)'));
  return { send: off, secretFor: off, deliverDue: off };
}
