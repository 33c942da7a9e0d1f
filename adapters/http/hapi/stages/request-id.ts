import type { Server } from '@hapi/hapi';
import { acceptRequestId, newRequestId } from '../../../../domain/security/request-id.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import { stateOf } from '../request-state.js';

/**
 * Stage 3: the request id (kept from `X-Request-Id` when acceptable, otherwise made), a log
 * span whose every line carries it, the id in the response, and one access-log line.
 */
export function requestIdStage(server: Server, random: RandomSource): void {
  server.ext('onRequest', (request, h) => {
    const state = stateOf(request);
    const incoming = request.headers['x-request-id'];
    state.requestId = acceptRequestId(typeof incoming === 'string' ? incoming : undefined) ?? newRequestId(random.bytes(16));
    state.log = state.log.child({ requestId: state.requestId });
    return h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    const state = request.app.fw;
    if (state === undefined) return h.continue;
    const response = request.response;
    if ('isBoom' in response && response.isBoom) response.output.headers['x-request-id'] = state.requestId;
    else if ('header' in response) response.header('x-request-id', state.requestId);
    return h.continue;
  });

  server.events.on('response', (request) => {
    const state = request.app.fw;
    if (state === undefined) return;
    const response = request.response;
    const status = 'isBoom' in response && response.isBoom ? response.output.statusCode : 'statusCode' in response ? response.statusCode : 0;
    state.log.info('request', {
      method: request.method.toUpperCase(),
      path: request.path,
      status,
      ms: Math.round((performance.now() - state.startedAt) * 10) / 10,
      ip: state.clientIp,
    });
  });
}
