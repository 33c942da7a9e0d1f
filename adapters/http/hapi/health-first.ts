import type { IncomingMessage, Server as NodeServer } from 'node:http';
import { HEALTH_ANSWER, frontHeaders, logAccess, startRequest } from '../kernel/front.js';
import type { FrontOptions } from '../kernel/front.js';
import { listenInFront } from './in-front-of-hapi.js';

const HEALTH_BODY = JSON.stringify(HEALTH_ANSWER);
const HEALTH_LENGTH = String(Buffer.byteLength(HEALTH_BODY));

/**
 * `GET /health` answered on the node listener, before hapi's request lifecycle: load balancers
 * probe it many times a second, and hapi's lifecycle (request object, router, five extension
 * points, the response's marshalling) was most of its cost (docs/performance.md). The answer is
 * the one hapi's `/health` route gives, with stage 1 and 3 as on every other request: the
 * security headers with a fresh nonce, the request id, the access-log line.
 *
 * Only the plain probe takes this way: a query, an absolute-form target or a body goes through
 * hapi as before (its route, the body limits), so nothing else changes for them.
 */
export function answerHealthFirst(listener: NodeServer, options: FrontOptions): void {
  // When someone else listens too, hapi's /health route answers, with the same answer.
  listenInFront(listener, (request, response, hapi) => {
    if (!isPlainHealthProbe(request)) {
      hapi(request, response);
      return;
    }
    const state = startRequest(options, request.socket.remoteAddress, request.headers);
    const headers = frontHeaders(state, options.https, 200);
    headers['cache-control'] = 'no-store';
    headers['content-type'] = 'application/json; charset=utf-8';
    headers['content-length'] = HEALTH_LENGTH;
    response.writeHead(200, headers);
    response.end(request.method === 'HEAD' ? undefined : HEALTH_BODY);
    logAccess(state, request.method ?? 'GET', '/health', 200);
  });
}

function isPlainHealthProbe(request: IncomingMessage): boolean {
  return (
    request.url === '/health' &&
    (request.method === 'GET' || request.method === 'HEAD') &&
    request.headers['content-length'] === undefined &&
    request.headers['transfer-encoding'] === undefined
  );
}
