import type { Container } from 'inversify';
import { activityCommand } from '../adapters/cli/commands/activity.js';
import type { CliCommand } from '../adapters/cli/command.js';
import { RecordActivity } from '../application/audit/record-activity.js';
import { bindAudit } from './bindings/audit.js';
import type { Module, ModuleHost } from './module.js';
import type { AppServices } from './services.js';
import { TOKENS } from './tokens.js';

/**
 * The activity log as a module: `app.module(Audit.create())`. A listener writes a row of
 * `activity_log` (user, action, `data` JSON, client IP, request id, time) for Auth's
 * registrations, logins, logouts and password resets and for OAuth's links, unlinks and
 * provider logins (`oauth.linked`, `oauth.unlinked`, `oauth.login`, the provider in `data`).
 */
export class Audit implements Module {
  readonly name = 'audit';

  private constructor() {}

  static create(): Audit {
    return new Audit();
  }

  register(host: ModuleHost): void {
    for (const type of RecordActivity.EVENTS) host.listen(type, (event, services, origin) => services.get(TOKENS.recordActivity).record(event, origin));
  }

  /** `fwx activity`: the log, newest first, of everyone or of one user. */
  commands(services: () => Promise<AppServices>): CliCommand[] {
    return [
      activityCommand(async () => {
        const app = await services();
        return { findUserByEmail: app.get(TOKENS.findUserByEmail), activityLog: app.get(TOKENS.activityLog) };
      }),
    ];
  }

  bind(container: Container): void {
    bindAudit({ container });
  }
}
