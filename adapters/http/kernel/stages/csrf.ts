import { csrfCheck, csrfRequired } from '../../../../domain/http/csrf.js';
import { SetCookie } from '../cookies.js';
import { HttpAbort } from '../http-error.js';
import { withExtras } from '../replies.js';
import { headerText } from '../context.js';
import type { Stage } from '../pipeline.js';
import type { KernelContext } from '../context.js';
import type { RandomSource } from '../../../../ports/random-source.js';
import { printedToken } from '../view-globals.js';

export const XSRF_COOKIE = 'XSRF-TOKEN';
export const PAGE_EXPIRED = 'The page expired. Go back, reload it and try again.';

/**
 * Every POST, PUT, PATCH and DELETE carries the session's token (the `_token` field, the
 * `X-CSRF-Token` header, or with `App.xsrfCookie()` the `XSRF-TOKEN` cookie echoed in
 * `X-XSRF-TOKEN`), else 419. Runs inside the views stage, so the 419 is a page (or JSON for
 * API clients) like every other error. Routes under `.withoutCsrf()` and Bearer requests skip
 * it (a cross-site form cannot set an Authorization header). The token sent back is normally
 * masked (`csrf-mask.ts`); `csrfCheck` unmasks it.
 */
export function csrfStage(options: { xsrfCookie: boolean; random: RandomSource }): Stage {
  // Not an async function: on the way out there is nothing to add unless the XSRF cookie is on,
  // and each async layer costs the request promises (and, on Node 20, promise hooks).
  return (ctx, next) => {
    if (csrfRequired(ctx.method)) refuseForgery(ctx, options);
    if (!options.xsrfCookie) return next();
    // Read after the handler: a login or logout in it gave the session a new token. Masked like
    // the pages' token: nothing the framework sends carries the raw token.
    return next().then((reply) => withExtras(reply, SetCookie.make(XSRF_COOKIE, printedToken(ctx.session.token(), options.random)).readableByScripts()));
  };
}

/** The 419 of a POST, PUT, PATCH or DELETE without the session's token (csrfCheck decides). */
function refuseForgery(ctx: KernelContext, options: { xsrfCookie: boolean }): void {
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
}
