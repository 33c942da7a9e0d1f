import type { Server } from '@hapi/hapi';

/**
 * Routes the framework answers before sessions and maintenance mode. `/health` answers for
 * any Host header and keeps answering during maintenance, so load balancers and orchestrators
 * can tell a live process from a dead one. It does not touch the database: a database outage
 * should not make an orchestrator restart healthy processes in a loop.
 */
export function registerBuiltInRoutes(server: Server): void {
  server.route({
    method: 'GET',
    path: '/health',
    options: { auth: false },
    handler: (_request, h) => h.response({ status: 'ok' }).header('cache-control', 'no-store'),
  });
}
