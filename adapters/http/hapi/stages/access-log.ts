import type { Server } from '@hapi/hapi';
import { logAccess } from '../../kernel/front.js';

/**
 * Stage 3's access log: one line per request once its response is sent. (The id itself is
 * made with the request's state in stage 1, `startRequest`, and sent with the security headers.)
 */
export function accessLogStage(server: Server): void {
  server.events.on('response', (request) => {
    const state = request.app.fw;
    if (state === undefined) return;
    const response = request.response;
    const status = 'isBoom' in response && response.isBoom ? response.output.statusCode : 'statusCode' in response ? response.statusCode : 0;
    logAccess(state, request.method.toUpperCase(), request.path, status);
  });
}
