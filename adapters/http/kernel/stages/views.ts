import { RecordNotFound } from '../../../../domain/data/record-not-found.js';
import { sameSiteTarget } from '../../../../domain/http/same-site.js';
import type { ViewRenderer } from '../../../../ports/view-renderer.js';
import { HttpAbort } from '../http-error.js';
import { Combined, HxHeader, Redirect, StatusReply, Toast, View } from '../replies.js';
import { toastTrigger } from '../toast-trigger.js';
import type { Extra, OobPiece, Reply } from '../replies.js';
import { escapeHtml } from '../error-responder.js';
import type { ErrorAnswer, ErrorResponder } from '../error-responder.js';
import type { KernelContext } from '../context.js';
import { StopWithReply, headerText } from '../context.js';
import type { Stage } from '../pipeline.js';
import { RawReply, ResolvedRedirect } from '../resolved-replies.js';
import { TOASTS_KEY } from '../view-globals.js';
import type { ViewGlobals } from '../view-globals.js';
import { renderAnsweringAbilities } from '../template-abilities.js';

export interface ViewsStageOptions {
  renderer: ViewRenderer;
  errors: ErrorResponder;
  globals: (ctx: KernelContext) => Promise<ViewGlobals>;
  /** Origins a redirect built from input may go to: APP_URL's, and the request's own. */
  appOrigin: string;
  /** `back()` without a Referer: the page of the form that was posted, if the app has one (form-page.ts). */
  formPage?: (request: { method: string; host: string; path: string }) => string | null;
}

/** What a thrown error means for the visitor. Only `abort` messages are shown as they are. */
export function answerFor(error: unknown): ErrorAnswer {
  if (error instanceof HttpAbort) return { status: error.status, detail: error.message, headers: error.headers, error };
  // findOrFail / firstOrFail: the spec's 404 for a missing row.
  if (error instanceof RecordNotFound) return { status: 404, detail: '', error };
  return { status: 500, detail: '', error };
}

/**
 * Stage 5, 'views': turns what the inner stages and the handler return into finished answers
 * while the session is still open. Views are rendered with the globals, redirects get their
 * final address, toasts wait in the session for the page that shows them, and any error
 * becomes its page (or JSON), so app layers' answers get error pages too.
 */
export function viewsStage(options: ViewsStageOptions): Stage {
  const resolve = async (ctx: KernelContext, reply: Reply): Promise<Reply> => {
    if (reply instanceof Combined) {
      const kept: Extra[] = [];
      const toasts: Toast[] = [];
      for (const extra of reply.extras) (extra instanceof Toast ? toasts : kept).push(extra);
      const leaves = reply.primary instanceof Redirect || kept.some((extra) => extra instanceof HxHeader && LEAVING.has(extra.name));
      if (toasts.length > 0 && ctx.hx.request && !leaves) return new Combined(await resolve(ctx, reply.primary), toastTrigger(kept, toasts));
      if (toasts.length > 0) queueToasts(ctx, toasts, leaves);
      return new Combined(await resolve(ctx, reply.primary), kept);
    }
    if (reply instanceof View) {
      // A fragment has no toasts() slot: toasts waiting for a page wait one request more.
      if (reply.block !== null && ctx.session.flashed().includes(TOASTS_KEY)) ctx.session.keep([TOASTS_KEY]);
      const globals = await options.globals(ctx);
      // can() in templates is answered between renders (template-abilities.ts). Each render
      // gets new variables, which the renderer may keep rather than copy (`fresh`).
      const render = (view: View): Promise<string> =>
        renderAnsweringAbilities(options.renderer, view.template, () => globals(view.data), view.block === null ? FULL_PAGE : { block: view.block, fresh: true });
      let html = await render(reply);
      // Out-of-band pieces only for a partial update: a full page has them in place.
      if (ctx.hx.request) for (const piece of reply.pieces) html += oobPiece(piece, await render(piece.view));
      return new RawReply(reply.status, 'text/html; charset=utf-8', html);
    }
    if (reply instanceof Redirect) {
      const location = redirectLocation(ctx, reply, options);
      // A form sent from one of the kit's sheets (fw.js says so): the browser loads the
      // redirect's page itself, so its toasts show there (an XHR following a 303 would take them).
      if (ctx.hx.request && !ctx.hx.boosted && headerText(ctx.headers[SHEET_HEADER]) !== undefined) return new Combined(new StatusReply(204), [HxHeader.redirect(location)]);
      return new ResolvedRedirect(location, reply.status);
    }
    return reply;
  };

  const errorPage = async (ctx: KernelContext, answer: ErrorAnswer): Promise<RawReply> => {
    // The globals need the session and may fail themselves: error pages get them when they can.
    let globals: ViewGlobals = () => ({});
    try {
      globals = await options.globals(ctx);
    } catch {
      // The page renders without them.
    }
    const page = await options.errors.respond(
      {
        api: ctx.isApiClient,
        method: ctx.method,
        path: ctx.path,
        requestId: ctx.requestId,
        log: ctx.log,
        globals: () => globals(),
      },
      answer,
    );
    return new RawReply(page.status, page.contentType, page.body, page.headers);
  };

  return async (ctx, next) => {
    // The two ways to stop a request: `abort(status)` (an `HttpAbort`) becomes its error page
    // here; a `StopWithReply` (a failed form's way back) is sent as its reply.
    let reply: Reply;
    try {
      reply = await next();
    } catch (error) {
      if (!(error instanceof StopWithReply)) return errorPage(ctx, answerFor(error));
      reply = error.reply;
    }
    try {
      return await resolve(ctx, reply);
    } catch (error) {
      return errorPage(ctx, answerFor(error));
    }
  };
}

/** A whole page's render options: its variables are made for it alone. */
const FULL_PAGE = { fresh: true } as const;

/** Sent by fw.js with the requests of a form inside a sheet (`<dialog data-fw-sheet>`). */
export const SHEET_HEADER = 'x-fw-sheet';

/** Extras after which the browser loads another page: toasts wait in the session for it. */
const LEAVING = new Set(['HX-Refresh', 'HX-Redirect', 'HX-Location']);

/** A piece htmx swaps out of band: the wrapper's content goes into the target(s). */
function oobPiece(piece: OobPiece, html: string): string {
  return `<div hx-swap-oob="${escapeHtml(`${piece.swap}:${piece.target}`)}">${html}</div>`;
}

function queueToasts(ctx: KernelContext, toasts: Toast[], nextPage: boolean): void {
  const session = ctx.session;
  const waiting = session.get(TOASTS_KEY);
  const list = [...(Array.isArray(waiting) ? (waiting as unknown[]) : []), ...toasts.map((toast) => ({ level: toast.level, message: toast.message }))];
  if (nextPage) session.flash(TOASTS_KEY, list);
  else session.flashNow(TOASTS_KEY, list);
}

function redirectLocation(ctx: KernelContext, redirect: Redirect, options: ViewsStageOptions): string {
  const { appOrigin } = options;
  const target = redirect.target;
  switch (target.kind) {
    case 'path':
      return target.path;
    case 'route':
      return ctx.urls.route(target.name, target.args, target.query);
    case 'intended': {
      const intended = sameSiteTarget(ctx.session.pullIntendedUrl(), [appOrigin]);
      return intended ?? target.fallback;
    }
    case 'back': {
      const host = headerText(ctx.headers['host']);
      const own = host === undefined ? [] : [`http://${host}`, `https://${host}`];
      return sameSiteTarget(headerText(ctx.headers['referer']), [appOrigin, ...own]) ?? options.formPage?.(ctx.request) ?? '/';
    }
  }
}
