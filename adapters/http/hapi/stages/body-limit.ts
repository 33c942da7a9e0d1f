import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Boom } from '@hapi/boom';
import { FORM_LIMIT_BYTES, FORM_TOO_LARGE, bodyKind, bodyLimit, tooLarge } from '../../kernel/front.js';
import { stateOf } from '../request-state.js';

/**
 * Stage 3, after the request id: the body limit. UPLOAD_MAX_SIZE caps every body (hapi stops
 * reading past it); a plain form stops at 2 MB. Forms and uploads that are too large get 400
 * with a sentence a person understands; other bodies get 413. Null: the request goes on.
 */
export function refuseLargeBody(request: Request, h: ResponseToolkit, uploadMaxBytes: number): ResponseObject | null {
  const kind = bodyKind(request.headers);
  const length = request.headers['content-length'];
  if (kind === 'other' && length === undefined) return null;
  const declared = Number(length ?? NaN);
  if (Number.isFinite(declared) && declared > bodyLimit(kind, uploadMaxBytes)) {
    const refusal = tooLarge(kind);
    return h.response(refusal.text).code(refusal.status).type('text/plain').takeover();
  }
  if (kind !== 'other' && !Number.isFinite(declared)) {
    // A chunked form or upload has no length up front: count what arrives.
    const state = stateOf(request);
    request.events.on('peek', (chunk) => {
      state.formBytes += chunk.length;
    });
  }
  return null;
}

/**
 * Forms and uploads cut off by hapi at the limit get the sentence too (hapi answers 413, or for
 * a chunked multipart body a 400 'Invalid multipart payload format'). Run before the error
 * pages, which would otherwise turn hapi's answer into a page first. Null: not such an answer.
 */
export function formTooLargeAnswer(request: Request, h: ResponseToolkit, response: Boom, uploadMaxBytes: number): ResponseObject | null {
  const kind = bodyKind(request.headers);
  const status = response.output.statusCode;
  // hapi's multipart parser reports a chunked upload cut off at the limit as a malformed
  // payload (400 'Invalid multipart payload format'); the bytes counted say what happened.
  const uploadCutOff = kind === 'upload' && status === 400 && (request.app.fw?.formBytes ?? 0) >= uploadMaxBytes;
  if ((status === 413 && kind !== 'other') || uploadCutOff) {
    return h.response(FORM_TOO_LARGE).code(400).type('text/plain');
  }
  return null;
}

/** For a chunked form, known only once hapi has read it: true when it passed the form limit. */
export function formTooLarge(request: Request): boolean {
  return bodyKind(request.headers) === 'form' && stateOf(request).formBytes > FORM_LIMIT_BYTES;
}
