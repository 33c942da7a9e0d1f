import type { Request, ResponseObject } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import { frontHeaders, startRequest } from '../../kernel/front.js';
import type { FrontOptions } from '../../kernel/front.js';
import { handedOver } from '../page-first.js';

/**
 * Stage 1, on the way in: a fresh CSP nonce, the client's address and the request id for
 * every request (`startRequest`). Run first by the one onRequest extension (front-exts.ts).
 */
export function startFront(request: Request, options: FrontOptions): void {
  // RFC 9110 §14.2: a Range that cannot be parsed is ignored. hapi answers it with a 416 it
  // makes after onPreResponse, so the answer would go out without the headers below.
  const range = request.headers['range'];
  if (range !== undefined && (typeof range !== 'string' || !parsableRange(range))) delete request.headers['range'];
  // A page the kernel already answered (page-first.ts) keeps the nonce and request id it was rendered with.
  request.app.fw = handedOver(request.raw.req)?.state ?? startRequest(options, request.info.remoteAddress, request.headers);
}

/**
 * Stage 1, on the way out: the security headers on every response (pages, errors, files and
 * `/health` alike). Run last by the one onPreResponse extension, on the response that goes out.
 */
export function addSecurityHeaders(request: Request, response: ResponseObject | Boom, options: FrontOptions): void {
  const state = request.app.fw;
  if (state === undefined) return;
  if ('isBoom' in response && response.isBoom) {
    Object.assign(response.output.headers, frontHeaders(state, options.https, response.output.statusCode));
  } else if ('header' in response) {
    // Only files are sent in parts (and their Range is checked against their size when they
    // are looked up). hapi would answer a Range past the end of a page, `/health` or
    // `/robots.txt` with a 416 it makes after this hook, without these headers; two renders
    // of a page (each with its own nonce) do not fit together byte for byte anyway.
    if ((response.variety as string) !== 'file') delete request.headers['range'];
    const headers = frontHeaders(state, options.https, response.statusCode);
    for (const name in headers) response.header(name, headers[name] as string);
  }
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
