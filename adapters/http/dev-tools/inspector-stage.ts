import type { Stage } from '../kernel/pipeline.js';
import type { Reply } from '../kernel/replies.js';
import { Combined, Download, JsonReply, StatusReply, TextReply } from '../kernel/replies.js';
import { RawReply, ResolvedRedirect } from '../kernel/resolved-replies.js';
import type { RequestInspector, SessionView } from './request-inspector.js';
import { redactedPath, secretParameterValues } from './redact.js';

/** The framework's own addresses (`/_fw/live`, `/_fw/debug`, `/_fw/ui`…): the inspector skips them. */
export const FRAMEWORK_PREFIX = '/_fw/';

/**
 * The request inspector's stage, just inside the session stage: it sees the session as it
 * came in and as the handler left it (before it is stored), the signed-in user, and the
 * answer once the views stage has made every error a page. The time is counted from the
 * request's arrival at the transport.
 */
export function inspectorStage(inspector: RequestInspector): Stage {
  return async (ctx, next) => {
    if (ctx.path.startsWith(FRAMEWORK_PREFIX) || ctx.path === '/_fw') return next();
    const request = inspector.begin({ id: ctx.requestId, method: ctx.method, path: redactedPath(ctx.path, ctx.params.all), route: ctx.route.name, at: new Date(), hidden: secretParameterValues(ctx.params.all) });
    const before: SessionView | null = ctx.hasSession() ? ctx.session.inspect() : null;
    let status = 500;
    try {
      const reply = await next();
      status = replyStatus(reply);
      return reply;
    } finally {
      const after = ctx.hasSession() ? ctx.session.inspect() : null;
      inspector.finish(request, { status, ms: performance.now() - ctx.request.state.startedAt, userId: ctx.user?.id ?? null, before, after });
    }
  };
}

/** The status a resolved reply goes out with (what `kernel/wire.ts` will write). */
export function replyStatus(reply: Reply): number {
  if (reply instanceof Combined) return replyStatus(reply.primary);
  if (reply instanceof RawReply || reply instanceof ResolvedRedirect || reply instanceof JsonReply || reply instanceof TextReply || reply instanceof StatusReply) return reply.status;
  if (reply instanceof Download) return 200;
  if (reply === null) return 204;
  return 200;
}
