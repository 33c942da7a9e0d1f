import { etagEligible, etagFor, ifNoneMatchMatches } from '../../../../domain/http/etag.js';
import { Combined, JsonReply, TextReply } from '../replies.js';
import type { Reply } from '../replies.js';
import type { KernelContext } from '../context.js';
import { headerText } from '../context.js';
import { RawReply } from '../resolved-replies.js';

/** A finished reply as bytes, when it is one whose body the framework knows. */
function asRaw(reply: Reply): RawReply | null {
  if (reply instanceof RawReply) return reply;
  if (reply instanceof TextReply) return new RawReply(reply.status, reply.contentType, reply.text);
  if (reply instanceof JsonReply) return new RawReply(reply.status, 'application/json; charset=utf-8', JSON.stringify(reply.data ?? null));
  if (typeof reply === 'string') return new RawReply(200, 'text/html; charset=utf-8', reply);
  return null;
}

/**
 * `.etag()`: a GET or HEAD answered 200 with a body of at most 2 MB gets an `ETag` hashed over
 * the body as sent, without this request's CSP nonce and with the session's token in place of
 * the masked one the page printed (so one page has one tag across requests);
 * a matching `If-None-Match` gets 304 with no body (and, by the security-header stage, no CSP).
 * Applied to the finished reply, after the views stage rendered it.
 */
export function withEtag(ctx: KernelContext, reply: Reply): Reply {
  const primary = reply instanceof Combined ? reply.primary : reply;
  const raw = asRaw(primary);
  if (raw === null || !etagEligible({ method: ctx.request.method, status: raw.status, bodyBytes: Buffer.byteLength(raw.body) })) return reply;
  const { nonce, printedCsrfToken } = ctx.request.state;
  const etag = etagFor(raw.body, nonce, printedCsrfToken === null ? null : { printed: printedCsrfToken, session: ctx.session.token() });
  const answer = ifNoneMatchMatches(headerText(ctx.headers['if-none-match']), etag)
    ? new RawReply(304, raw.contentType, '', { etag })
    : new RawReply(raw.status, raw.contentType, raw.body, { ...raw.headers, etag });
  return reply instanceof Combined ? new Combined(answer, reply.extras) : answer;
}
