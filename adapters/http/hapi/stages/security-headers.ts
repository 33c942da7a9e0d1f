import type { Server } from '@hapi/hapi';
import { clientIp } from '../../../../domain/security/client-ip.js';
import type { TrustedProxies } from '../../../../domain/security/client-ip.js';
import { securityHeaders } from '../../../../domain/security/security-headers.js';
import type { Logger } from '../../../../ports/logger.js';
import type { RandomSource } from '../../../../ports/random-source.js';

export interface SecurityStageOptions {
  https: boolean;
  trustedProxies: TrustedProxies;
  random: RandomSource;
  logger: Logger;
}

/**
 * Stage 1: a fresh CSP nonce and the client's address for every request, and the security
 * headers on every response (pages, errors, files and `/health` alike).
 */
export function securityHeadersStage(server: Server, options: SecurityStageOptions): void {
  server.ext('onRequest', (request, h) => {
    request.app.fw = {
      nonce: Buffer.from(options.random.bytes(16)).toString('base64'),
      clientIp: clientIp({
        remoteAddress: request.info.remoteAddress,
        xForwardedFor: header(request.headers['x-forwarded-for']),
        forwarded: header(request.headers['forwarded']),
        trustedProxies: options.trustedProxies,
      }),
      requestId: '',
      log: options.logger,
      startedAt: performance.now(),
      formBytes: 0,
    };
    return h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    const nonce = request.app.fw?.nonce;
    if (nonce === undefined) return h.continue;
    const headers = securityHeaders({ https: options.https, nonce });
    const response = request.response;
    if ('isBoom' in response && response.isBoom) {
      Object.assign(response.output.headers, headers);
    } else if ('header' in response) {
      // A 304 answers a cached page whose nonce is long gone: it must not carry a policy.
      for (const [name, value] of Object.entries(headers)) {
        if (!(name === 'content-security-policy' && response.statusCode === 304)) response.header(name, value);
      }
    }
    return h.continue;
  });
}

function header(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value.join(', ') : value;
}
