import { badRequest } from '@hapi/boom';
import type { Lifecycle, Request } from '@hapi/hapi';
import { canonicalHost } from '../../../domain/http/trusted-hosts.js';
import { RequestBody } from '../kernel/body.js';
import { headerText } from '../kernel/context.js';
import type { Dispatch } from '../kernel/dispatch.js';
import { checkedPayload } from './form-payload.js';
import { FORM_TOO_LARGE, bodyKind, publicFileCache } from '../kernel/front.js';
import { rangeFits } from '../kernel/public-files.js';
import type { PublicFiles } from '../kernel/public-files.js';
import type { KernelRequest } from '../kernel/request.js';
import { stateOf } from './request-state.js';
import { handedOver } from './page-first.js';
import { sendReply, sendWire } from './send-reply.js';
import type { SendOptions } from './send-reply.js';
import { formTooLarge } from './stages/body-limit.js';

export interface HapiDispatchOptions {
  /** The kernel: the app's routes, its stages and layers. */
  dispatch: Dispatch;
  publicFiles: PublicFiles;
  send: SendOptions;
  /** BODY_MAX_DEPTH: arrays and objects nested deeper in a body are refused with a 400. */
  bodyMaxDepth: number;
}

/**
 * The handler of hapi's one catch-all route: public files first (before sessions), then the
 * request handed to the kernel as a `KernelRequest`, and the kernel's reply written as hapi's
 * response.
 */
export function hapiDispatcher(options: HapiDispatchOptions): Lifecycle.Method {
  return async (request: Request, h) => {
    // A page the kernel answered before hapi's lifecycle (page-first.ts), for hapi to write.
    const handed = handedOver(request.raw.req);
    if (handed !== undefined) {
      if (handed.outcome.kind === 'error') throw handed.outcome.error;
      return sendWire(h, handed.outcome.wire);
    }
    if (formTooLarge(request)) return h.response(FORM_TOO_LARGE).code(400).type('text/plain; charset=utf-8');
    // Bracketed form names become groups and lists (`items[0][name]`), and nothing nests past
    // BODY_MAX_DEPTH, before anything reads the body (form-payload.ts).
    const checked = checkedPayload(request.payload, bodyKind(request.headers) !== 'other' && request.route.settings.app?.fwRawBody !== true, options.bodyMaxDepth, stateOf(request).log);
    if (!checked.ok) throw checked.refusal;
    // hapi's types mark `payload` read-only; the kernel reads it from here on.
    (request as { payload: unknown }).payload = checked.payload;
    // The path of the request target as sent (hapi's `request.path`), never `request.url`,
    // which hapi builds from the Host header: a Host like `a/admin?` would move the path.
    const path = request.path;
    // RFC 9112 §3.2: a Host that is no host (`a b`, `[`, `a/admin?`) is the client's mistake.
    if (request.info.host !== '' && canonicalHost(request.info.host) === null) throw badRequest('The Host header is not a valid host');
    const method = request.method.toUpperCase();

    if (method === 'GET' || method === 'HEAD') {
      const file = options.publicFiles.lookup(path);
      if (file !== null) {
        if (!rangeFits(headerText(request.headers['range']), file.size)) delete request.headers['range'];
        const versioned = typeof request.query['v'] === 'string';
        return h.file(file.absolutePath, { confine: false }).header('cache-control', publicFileCache(versioned));
      }
    }
    const reply = await options.dispatch(kernelRequest(request, method, options.bodyMaxDepth), () => new Promise((resolve) => request.raw.res.once('close', () => resolve())));
    return sendReply(h, reply, options.send);
  };
}

/** hapi's request as the kernel reads it. */
function kernelRequest(request: Request, method: string, bodyMaxDepth: number): KernelRequest {
  const rawRoute = request.route.settings.app?.fwRawBody === true;
  const payload = request.payload;
  const contentType = headerText(request.headers['content-type']);
  return {
    method,
    path: request.path,
    target: request.raw.req.url ?? request.path,
    host: request.info.host,
    query: request.query as Record<string, string | string[]>,
    headers: request.headers,
    body: rawRoute ? RequestBody.raw(Buffer.isBuffer(payload) ? payload : Buffer.alloc(0), contentType, bodyMaxDepth) : RequestBody.parsed(payload),
    state: stateOf(request),
  };
}
