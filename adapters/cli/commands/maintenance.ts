import { isValidMaintenanceSecret, maintenanceMarker } from '../../../domain/http/maintenance/maintenance.js';
import type { Clock } from '../../../ports/clock.js';
import type { MaintenanceSwitch } from '../../../ports/maintenance-switch.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';

export interface MaintenanceDeps {
  maintenance(): Promise<{ switch: MaintenanceSwitch; clock: Clock; appUrl: string }>;
}

export function maintenanceCommands(deps: MaintenanceDeps): CliCommand[] {
  return [
    {
      name: 'down',
      description: 'Put the app in maintenance mode: every process answers 503 until `up`',
      options: [
        { flags: '--secret <secret>', description: 'Visiting /<secret> lets that browser in', type: 'string' },
        { flags: '--retry <seconds>', description: 'The Retry-After sent with the 503 (default: 60)', type: 'integer' },
      ],
      async run({ options }, io) {
        const secret = options['secret'] as string | undefined;
        if (secret !== undefined && !isValidMaintenanceSecret(secret)) {
          throw new UsageError('--secret must be 1 to 200 of A-Z a-z 0-9 . _ ~ - (it becomes a path: /<secret>)');
        }
        const retry = options['retry'] as number | undefined;
        const { switch: maintenance, clock, appUrl } = await deps.maintenance();
        await maintenance.down(maintenanceMarker({ secret, retryAfterSeconds: retry, since: clock.now() }));
        io.out('The app is down for maintenance. `fwx up` brings it back.');
        if (secret !== undefined) io.out(`Browsers that visit ${appUrl}/${secret} get in.`);
      },
    },
    {
      name: 'up',
      description: 'Bring the app out of maintenance mode',
      async run(_input, io) {
        const { switch: maintenance } = await deps.maintenance();
        io.out((await maintenance.up()) ? 'The app is up.' : 'The app was not down.');
      },
    },
  ];
}
