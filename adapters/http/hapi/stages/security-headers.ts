import type { Server } from '@hapi/hapi';
import { clientIp } from '../../../../domain/security/client-ip.js';
import type { TrustedProxies } from '../../../../domain/security/client-ip.js';
import { securityHeaders } from '../../../../domain/security/security-headers.js';
import type { Logger } from '../../../../ports/logger.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import { headerText } from '../../kernel/context.js';

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
    // RFC 9110 §14.2: a Range that cannot be parsed is ignored. hapi answers it with a 416 it
    // makes after onPreResponse, so the answer would go out without the headers below.
    const range = request.headers['range'];
    if (range !== undefined && (typeof range !== 'string' || !parsableRange(range))) delete request.headers['range'];
    request.app.fw = {
      nonce: Buffer.from(options.random.bytes(16)).toString('base64'),
      clientIp: clientIp({
        remoteAddress: request.info.remoteAddress,
        xForwardedFor: headerText(request.headers['x-forwarded-for']),
        forwarded: headerText(request.headers['forwarded']),
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
      // Only files are sent in parts (and their Range is checked against their size when they
      // are looked up). hapi would answer a Range past the end of a page, `/health` or
      // `/robots.txt` with a 416 it makes after this hook, without these headers; two renders
      // of a page (each with its own nonce) do not fit together byte for byte anyway.
      if ((response.variety as string) !== 'file') delete request.headers['range'];
      // A 304 answers a cached page whose nonce is long gone: it must not carry a policy.
      for (const [name, value] of Object.entries(headers)) {
        if (!(name === 'content-security-policy' && response.statusCode === 304)) response.header(name, value);
      }
    }
    return h.continue;
  });
}

const BYTE_RANGE_SET = /^bytes=\s*(?:\d+-\d*|-\d+)(?:\s*,\s*(?:\d+-\d*|-\d+))*$/iu;

/** `bytes=0-99`, `bytes=-500`, `bytes=10-,20-30`: a byte-range set whose ranges do not run backwards. */
function parsableRange(value: string): boolean {
  if (!BYTE_RANGE_SET.test(value)) return false;
  return value
    .slice('bytes='.length)
    .split(',')
    .every((spec) => {
      const [first = '', last = ''] = spec.trim().split('-');
      return first === '' || last === '' || Number(first) <= Number(last);
    });
}
