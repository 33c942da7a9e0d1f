import { RecordNotFound } from '../../../../domain/data/record-not-found.js';
import { sameSiteTarget } from '../../../../domain/security/same-site.js';
import type { ViewRenderer } from '../../../../ports/view-renderer.js';
import { HttpAbort } from '../http-error.js';
import { Combined, Redirect, Toast, View } from '../replies.js';
import type { Extra, Reply } from '../replies.js';
import type { ErrorAnswer, ErrorResponder } from '../error-responder.js';
import type { KernelContext } from '../context.js';
import { StopWithReply, headerText } from '../context.js';
import type { Stage } from '../pipeline.js';
import { RawReply, ResolvedRedirect } from '../resolved-replies.js';
import { TOASTS_KEY } from '../view-globals.js';

export interface ViewsStageOptions {
  renderer: ViewRenderer;
  errors: ErrorResponder;
  globals: (ctx: KernelContext) => Promise<Record<string, unknown>>;
  /** Origins a redirect built from input may go to: APP_URL's, and the request's own. */
  appOrigin: string;
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
      if (toasts.length > 0) queueToasts(ctx, toasts, reply.primary instanceof Redirect);
      return new Combined(await resolve(ctx, reply.primary), kept);
    }
    if (reply instanceof View) {
      // A fragment has no toasts() slot: toasts waiting for a page wait one request more.
      if (reply.block !== null && ctx.session.flashed().includes(TOASTS_KEY)) ctx.session.keep([TOASTS_KEY]);
      const html = await options.renderer.render(reply.template, { ...(await options.globals(ctx)), ...reply.data }, reply.block === null ? {} : { block: reply.block });
      return new RawReply(reply.status, 'text/html; charset=utf-8', html);
    }
    if (reply instanceof Redirect) return new ResolvedRedirect(redirectLocation(ctx, reply, options.appOrigin), reply.status);
    return reply;
  };

  const errorPage = async (ctx: KernelContext, answer: ErrorAnswer): Promise<RawReply> => {
    // The globals need the session and may fail themselves: error pages get them when they can.
    let globals: Record<string, unknown> = {};
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
        globals: () => globals,
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

function queueToasts(ctx: KernelContext, toasts: Toast[], nextPage: boolean): void {
  const session = ctx.session;
  const waiting = session.get(TOASTS_KEY);
  const list = [...(Array.isArray(waiting) ? (waiting as unknown[]) : []), ...toasts.map((toast) => ({ level: toast.level, message: toast.message }))];
  if (nextPage) session.flash(TOASTS_KEY, list);
  else session.flashNow(TOASTS_KEY, list);
}

function redirectLocation(ctx: KernelContext, redirect: Redirect, appOrigin: string): string {
  const target = redirect.target;
  switch (target.kind) {
    case 'path':
      return target.path;
    case 'route':
      return ctx.url(target.name, target.args, target.query);
    case 'intended': {
      const intended = sameSiteTarget(ctx.session.pullIntendedUrl(), [appOrigin]);
      return intended ?? target.fallback;
    }
    case 'back': {
      const host = headerText(ctx.headers['host']);
      const own = host === undefined ? [] : [`http://${host}`, `https://${host}`];
      return sameSiteTarget(headerText(ctx.headers['referer']), [appOrigin, ...own]) ?? '/';
    }
  }
}
