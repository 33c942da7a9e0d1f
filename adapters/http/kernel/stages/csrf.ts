import { csrfCheck } from '../../../../domain/http/csrf.js';
import { SetCookie } from '../cookies.js';
import { HttpAbort } from '../http-error.js';
import { withExtras } from '../replies.js';
import { headerText } from '../context.js';
import type { Stage } from '../pipeline.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const PAGE_EXPIRED = 'The page expired. Go back, reload it and try again.';

/**
 * Every POST, PUT, PATCH and DELETE carries the session's token (the `_token` field, the
 * `X-CSRF-Token` header, or with `App.xsrfCookie()` the `XSRF-TOKEN` cookie echoed in
 * `X-XSRF-TOKEN`), else 419. Runs inside the views stage, so the 419 is a page (or JSON for
 * API clients) like every other error. Routes under `.withoutCsrf()` and Bearer requests skip
 * it (a cross-site form cannot set an Authorization header).
 */
export function csrfStage(options: { xsrfCookie: boolean }): Stage {
  return async (ctx, next) => {
    // An exempt route's body is not read here: a webhook's is parsed only if its handler asks.
    const body = ctx.traits.csrfExempt ? undefined : ctx.body();
    const field = typeof body === 'object' && body !== null && !Buffer.isBuffer(body) ? (body as Record<string, unknown>)['_token'] : undefined;
    const verdict = csrfCheck({
      method: ctx.method,
      sessionToken: ctx.session.token(),
      fieldToken: typeof field === 'string' ? field : undefined,
      headerToken: headerText(ctx.headers['x-csrf-token']),
      xsrfHeaderToken: headerText(ctx.headers['x-xsrf-token']),
      xsrfCookieEnabled: options.xsrfCookie,
      bearer: /^bearer\s/iu.test(headerText(ctx.headers['authorization']) ?? ''),
      exempt: ctx.traits.csrfExempt,
    });
    if (verdict.kind === 'refused') throw new HttpAbort(419, PAGE_EXPIRED);
    const reply = await next();
    // Read after the handler: a login or logout in it gave the session a new token.
    return options.xsrfCookie ? withExtras(reply, SetCookie.make(XSRF_COOKIE, ctx.session.token()).readableByScripts()) : reply;
  };
}
