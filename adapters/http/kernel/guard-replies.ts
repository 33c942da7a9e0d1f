import type { GuardRefusal } from '../../../domain/http/guards.js';
import { HttpAbort } from './http-error.js';
import { GUARD_MESSAGES } from './refusal-messages.js';
import { HxHeader, Redirect, combine, json, status } from './replies.js';
import type { Reply } from './replies.js';
import type { KernelContext } from './context.js';

/**
 * The answer to a refused guard. A remembered page is the request target exactly as sent (path
 * and query); `Redirect.intended` checks it is a path of this site before going there.
 */
export function guardReply(ctx: KernelContext, outcome: GuardRefusal): Reply {
  switch (outcome.kind) {
    case 'redirect':
      if (outcome.remember) ctx.session.setIntendedUrl(ctx.request.target);
      return Redirect.to(outcome.to);
    case 'hx-redirect':
      // htmx reads HX-Redirect from any answer and loads the page itself; a 3xx would be
      // followed inside the XMLHttpRequest and swapped into the fragment's place.
      return combine(status(204), HxHeader.redirect(outcome.to));
    case 'refuse':
      if (outcome.json) return json({ message: GUARD_MESSAGES[outcome.reason] }, outcome.status);
      throw new HttpAbort(outcome.status, GUARD_MESSAGES[outcome.reason]);
  }
}
