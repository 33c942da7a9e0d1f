import type { OutgoingWebhooks } from '../../../application/webhooks/webhooks.js';
import type { Clock } from '../../../ports/clock.js';
import type { WebhookDeliveries, WebhookDelivery } from '../../../ports/webhook-deliveries.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { formatTable } from '../table.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface WebhookCommandServices {
  deliveries: WebhookDeliveries;
  webhooks: OutgoingWebhooks;
  clock: Clock;
}

const MAX_LIMIT = 1000;

function describe(delivery: WebhookDelivery) {
  return {
    id: delivery.id,
    url: delivery.url,
    event: delivery.event,
    attempts: delivery.attempts,
    lastStatus: delivery.lastStatus,
    lastError: delivery.lastError,
    createdAt: delivery.createdAt.toISOString(),
    failedAt: delivery.finishedAt?.toISOString() ?? null,
  };
}

/** `webhook:failed [--limit n] [--json]` and `webhook:retry <id>`. */
export function webhookCommands(services: () => Promise<WebhookCommandServices>): CliCommand[] {
  return [
    {
      name: 'webhook:failed',
      description: 'List failed outgoing webhook deliveries, newest first',
      options: [
        { flags: '--limit <n>', description: `How many (at most ${MAX_LIMIT})`, type: 'integer', default: 50 },
        { flags: '--json', description: 'Print JSON instead of text', type: 'boolean' },
      ],
      async run({ options }, io) {
        const limit = options['limit'];
        if (typeof limit !== 'number' || limit < 1 || limit > MAX_LIMIT) throw new UsageError(`--limit must be a whole number from 1 to ${MAX_LIMIT}`);
        const { deliveries } = await services();
        const failed = (await deliveries.failed(limit)).map(describe);
        if (options['json'] === true) {
          io.out(JSON.stringify(failed, null, 2));
          return;
        }
        if (failed.length === 0) {
          io.out('No failed webhook deliveries.');
          return;
        }
        io.out(
          formatTable(
            ['Id', 'Event', 'URL', 'Attempts', 'Failed at', 'Error'],
            failed.map((d) => [d.id, d.event, d.url, String(d.attempts), d.failedAt ?? '-', d.lastError ?? '-']),
          ),
        );
      },
    },
    {
      name: 'webhook:retry',
      args: '<id>',
      description: 'Send a failed webhook delivery again now (its attempts start over)',
      async run({ args }, io) {
        const id = args[0] ?? '';
        const { deliveries, webhooks, clock } = await services();
        if (!(await deliveries.retry(id, clock.now()))) {
          const found = await deliveries.find(id);
          throw new FrameworkError('cli.no-such-delivery', found === null ? `No webhook delivery has the id "${id}"` : `The delivery "${id}" is ${found.status}, not failed`);
        }
        const [after] = await webhooks.deliverDue(1, id);
        if (after === undefined) {
          io.out(`${id} is queued again; a scheduler process sends it.`);
          return 0;
        }
        if (after.status === 'delivered') io.out(`${id} delivered (HTTP ${after.lastStatus ?? '?'}).`);
        else if (after.status === 'pending') io.out(`${id} failed again (${after.lastError ?? 'no answer'}); it will be retried.`);
        else io.err(`${id} failed again: ${after.lastError ?? 'no answer'}`);
        return after.status === 'failed' ? 1 : 0;
      },
    },
  ];
}
