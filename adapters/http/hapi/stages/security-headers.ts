import type { Server } from '@hapi/hapi';
import { frontHeaders, startRequest } from '../../kernel/front.js';
import type { FrontOptions } from '../../kernel/front.js';

/**
 * Stage 1: a fresh CSP nonce, the client's address and the request id for every request
 * (`startRequest`), and the security headers on every response (pages, errors, files and
 * `/health` alike).
 */
export function securityHeadersStage(server: Server, options: FrontOptions): void {
  server.ext('onRequest', (request, h) => {
    // RFC 9110 §14.2: a Range that cannot be parsed is ignored. hapi answers it with a 416 it
    // makes after onPreResponse, so the answer would go out without the headers below.
    const range = request.headers['range'];
    if (range !== undefined && (typeof range !== 'string' || !parsableRange(range))) delete request.headers['range'];
    request.app.fw = startRequest(options, request.info.remoteAddress, request.headers);
    return h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    const state = request.app.fw;
    if (state === undefined) return h.continue;
    const response = request.response;
    if ('isBoom' in response && response.isBoom) {
      Object.assign(response.output.headers, frontHeaders(state, options.https, response.output.statusCode));
    } else if ('header' in response) {
      // Only files are sent in parts (and their Range is checked against their size when they
      // are looked up). hapi would answer a Range past the end of a page, `/health` or
      // `/robots.txt` with a 416 it makes after this hook, without these headers; two renders
      // of a page (each with its own nonce) do not fit together byte for byte anyway.
      if ((response.variety as string) !== 'file') delete request.headers['range'];
      for (const [name, value] of Object.entries(frontHeaders(state, options.https, response.statusCode))) response.header(name, value);
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
