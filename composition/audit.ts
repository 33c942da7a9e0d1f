import type { Container } from 'inversify';
import { RecordActivity } from '../application/audit/record-activity.js';
import { provide } from './container.js';
import type { Module, ModuleHost } from './module.js';
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
    for (const type of RecordActivity.EVENTS) host.listen(type, (event, services) => services.get(TOKENS.recordActivity).record(event));
  }

  bind(container: Container): void {
    provide(container, TOKENS.recordActivity, [TOKENS.activityLog, TOKENS.requestOrigin, TOKENS.clock], (log, origin, clock) => new RecordActivity(log, origin, clock));
  }
}
