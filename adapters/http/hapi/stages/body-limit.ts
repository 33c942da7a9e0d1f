import type { Request, Server } from '@hapi/hapi';
import { stateOf } from '../request-state.js';

/** A form without files never needs more: its text fields are what the 2 MB limit is for. */
export const FORM_LIMIT_BYTES = 2 * 1024 * 1024;
export const FORM_TOO_LARGE = 'The form is too large.';

type BodyKind = 'form' | 'upload' | 'other';

export function bodyKind(request: Request): BodyKind {
  const header: unknown = request.headers['content-type'];
  const type = typeof header === 'string' ? header.toLowerCase() : '';
  if (type.startsWith('application/x-www-form-urlencoded')) return 'form';
  if (type.startsWith('multipart/form-data')) return 'upload';
  return 'other';
}

/**
 * Stage 3, after the request id: the body limit. UPLOAD_MAX_SIZE caps every body (hapi stops
 * reading past it); a plain form stops at 2 MB. Forms and uploads that are too large get 400
 * with a sentence a person understands; other bodies get 413.
 */
export function bodyLimitStage(server: Server, uploadMaxBytes: number): void {
  server.ext('onRequest', (request, h) => {
    const kind = bodyKind(request);
    const declared = Number(request.headers['content-length'] ?? NaN);
    const limit = kind === 'form' ? FORM_LIMIT_BYTES : uploadMaxBytes;
    if (Number.isFinite(declared) && declared > limit) {
      return h.response(kind === 'other' ? 'Payload too large.' : FORM_TOO_LARGE).code(kind === 'other' ? 413 : 400).type('text/plain').takeover();
    }
    if (kind !== 'other' && !Number.isFinite(declared)) {
      // A chunked form or upload has no length up front: count what arrives.
      const state = stateOf(request);
      request.events.on('peek', (chunk) => {
        state.formBytes += chunk.length;
      });
    }
    return h.continue;
  });
}

/**
 * Forms and uploads cut off by hapi at the limit get the sentence too (hapi answers 413, or for
 * a chunked multipart body a 400 'Invalid multipart payload format'). Registered before the
 * error pages, which would otherwise turn hapi's answer into a page first.
 */
export function formTooLargeAnswers(server: Server, uploadMaxBytes: number): void {
  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    if (!('isBoom' in response) || !response.isBoom) return h.continue;
    const kind = bodyKind(request);
    const status = response.output.statusCode;
    // hapi's multipart parser reports a chunked upload cut off at the limit as a malformed
    // payload (400 'Invalid multipart payload format'); the bytes counted say what happened.
    const uploadCutOff = kind === 'upload' && status === 400 && (request.app.fw?.formBytes ?? 0) >= uploadMaxBytes;
    if ((status === 413 && kind !== 'other') || uploadCutOff) {
      return h.response(FORM_TOO_LARGE).code(400).type('text/plain');
    }
    return h.continue;
  });
}

/** For a chunked form, known only once hapi has read it: true when it passed the form limit. */
export function formTooLarge(request: Request): boolean {
  return bodyKind(request) === 'form' && stateOf(request).formBytes > FORM_LIMIT_BYTES;
}
