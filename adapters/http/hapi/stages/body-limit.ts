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
    if (kind === 'form' && !Number.isFinite(declared)) {
      // A chunked form has no length up front: count what arrives.
      const state = stateOf(request);
      request.events.on('peek', (chunk) => {
        state.formBytes += chunk.length;
      });
    }
    return h.continue;
  });

  server.ext('onPreResponse', (request, h) => {
    const response = request.response;
    if ('isBoom' in response && response.isBoom && response.output.statusCode === 413 && bodyKind(request) !== 'other') {
      return h.response(FORM_TOO_LARGE).code(400).type('text/plain');
    }
    return h.continue;
  });
}

/** For a chunked form, known only once hapi has read it: true when it passed the form limit. */
export function formTooLarge(request: Request): boolean {
  return bodyKind(request) === 'form' && stateOf(request).formBytes > FORM_LIMIT_BYTES;
}
