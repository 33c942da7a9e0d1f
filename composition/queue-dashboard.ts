import { queueDashboardRoutes } from '../adapters/http/queue/dashboard-routes.js';
import type { Handler } from '../adapters/http/kernel/request-context.js';
import type { Routes } from '../domain/http/routing/routes.js';
import type { Module } from './module.js';
import { TOKENS } from './tokens.js';
import { MisuseError } from '../domain/shared/errors.js';

export interface QueueDashboardOptions {
  /** The gate (`app.gate(name, …)`) a user must pass to see the page and press its buttons. */
  gate: string;
  /** Where the page is; default `/queue`. */
  path?: string;
}

/**
 * The queue's page, `fw/queue/dashboard.html`:
 *
 *     app.gate('view-queue', (user) => user.email === 'ops@example.com')
 *        .module(QueueDashboard.create({ gate: 'view-queue' }));
 */
export class QueueDashboard implements Module {
  readonly name = 'queue-dashboard';
  readonly routes: Routes<Handler>;

  private constructor(options: QueueDashboardOptions) {
    const path = options.path ?? '/queue';
    if (!/^\/[A-Za-z0-9/_-]*$/u.test(path) || path.endsWith('/')) throw new MisuseError('app.bad-path', `The queue dashboard's path must look like /queue, got ${JSON.stringify(path)}`);
    this.routes = queueDashboardRoutes(path, options.gate, (ctx) => ({ queue: ctx.service(TOKENS.jobQueue), clock: ctx.service(TOKENS.clock) }));
  }

  static create(options: QueueDashboardOptions): QueueDashboard {
    return new QueueDashboard(options);
  }
}
