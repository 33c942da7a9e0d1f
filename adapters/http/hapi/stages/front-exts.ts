import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import type { TrustedHosts } from '../../../../domain/http/trusted-hosts.js';
import type { FrontOptions } from '../../kernel/front.js';
import type { Kernel } from '../../kernel/kernel.js';
import { hapiErrorPage } from '../hapi-errors.js';
import { formTooLargeAnswer, refuseLargeBody } from './body-limit.js';
import { addSecurityHeaders, startFront } from './security-headers.js';
import { refuseUntrustedHost } from './trusted-hosts.js';

export interface FrontExtsOptions {
  front: FrontOptions;
  trustedHosts: TrustedHosts;
  uploadMaxBytes: number;
  kernel: Kernel;
}

/**
 * The stages before routing and on every response, as one hapi extension each way: hapi runs
 * every extension through its toolkit with an await (a toolkit object, a promise and, with
 * AsyncLocalStorage on, promise hooks each), which for five small extensions cost more than
 * their work. The order is spec 001's: on the way in the request id and nonce (stage 1),
 * trusted hosts, the body limit (stage 3); on the way out a form cut off at the limit gets its
 * sentence, an error hapi made gets the app's error page, then every response gets the
 * security headers.
 */
export function frontExts(server: Server, options: FrontExtsOptions): void {
  const { front, trustedHosts, uploadMaxBytes, kernel } = options;
  server.ext('onRequest', (request, h) => {
    startFront(request, front);
    return refuseUntrustedHost(request, trustedHosts) ?? refuseLargeBody(request, h, uploadMaxBytes) ?? h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    if (!('isBoom' in response) || !response.isBoom) {
      addSecurityHeaders(request, response, front);
      return h.continue;
    }
    return errorAnswer(request, h, response).then((answer) => {
      addSecurityHeaders(request, answer ?? response, front);
      return answer ?? h.continue;
    });
  });

  const errorAnswer = async (request: Request, h: ResponseToolkit, response: Boom): Promise<ResponseObject | null> =>
    formTooLargeAnswer(request, h, response, uploadMaxBytes) ?? (await hapiErrorPage(request, h, response, kernel));
}
