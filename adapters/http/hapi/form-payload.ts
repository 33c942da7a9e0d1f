import { badRequest } from '@hapi/boom';
import type { Boom } from '@hapi/boom';
import { bodyDepthWithin } from '../../../domain/http/body-depth.js';
import type { Logger } from '../../../ports/logger.js';
import { formNamesRefusal, nestFormNames } from '../kernel/form-names.js';
import { BODY_TOO_DEEP } from '../kernel/refusal-messages.js';

/** A parsed body as the kernel may read it, or the 400 it is refused with. */
export type CheckedPayload = { ok: true; payload: unknown } | { ok: false; refusal: Boom };

/**
 * A body hapi (or the form short path, page-first.ts) has parsed, made ready for the kernel,
 * before anything reads it (the method override, old input, validation, handlers): a form's
 * bracketed names become groups and lists (`items[0][name]`), and nothing nests deeper than
 * BODY_MAX_DEPTH, so whatever walks the body afterwards can rely on it being shallow. `form`:
 * a form or an upload whose fields hapi parsed (not a raw-body route).
 */
export function checkedPayload(payload: unknown, form: boolean, bodyMaxDepth: number, log: Logger): CheckedPayload {
  let checked = payload;
  if (form && typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload)) {
    const nested = nestFormNames(payload as Record<string, unknown>, bodyMaxDepth);
    if (!nested.ok) {
      log.warn('a form with bracketed names past BODY_MAX_DEPTH or the list limit was refused', { reason: nested.reason, maxDepth: bodyMaxDepth });
      return { ok: false, refusal: badRequest(formNamesRefusal(nested.reason)) };
    }
    checked = nested.fields;
  }
  if (!bodyDepthWithin(checked, bodyMaxDepth)) {
    log.warn('a request body nested deeper than BODY_MAX_DEPTH was refused', { maxDepth: bodyMaxDepth });
    return { ok: false, refusal: badRequest(BODY_TOO_DEEP) };
  }
  return { ok: true, payload: checked };
}
