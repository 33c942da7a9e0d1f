import { badRequest } from '@hapi/boom';
import { BODY_TOO_DEEP, bodyDepthWithin } from '../../../domain/security/body-depth.js';
import { stateOf } from './request-state.js';
import type { AfterResponseWork } from '../after-response.js';
import type { Lifecycle, Request, ResponseToolkit } from '@hapi/hapi';
import type { RouteTable } from '../../../domain/routing/route-table.js';
import { matchRoute } from '../../../domain/routing/match.js';
import { overriddenMethod } from '../../../domain/security/method-override.js';
import { canonicalHost } from '../../../domain/security/trusted-hosts.js';
import { Redirect, View } from '../replies.js';
import type { Reply } from '../replies.js';
import type { Handler, Middleware } from '../request-context.js';
import { KernelContext, headerText } from './kernel-context.js';
import type { ContextShared, MatchedRoute } from './kernel-context.js';
import { runOnion } from './pipeline.js';
import type { Stage } from './pipeline.js';
import { answerPreflight, routeCorsLayers } from './cors.js';
import { rangeFits } from './public-files.js';
import type { PublicFiles } from './public-files.js';
import { ErrorReply } from './resolved-replies.js';
import { sendReply } from './send-reply.js';
import type { SendOptions } from './send-reply.js';
import { FORM_TOO_LARGE, formTooLarge } from './stages/body-limit.js';
import { ASSET_CACHE } from './stages/built-in-routes.js';
import { withEtag } from './stages/etag.js';
import type { AsyncRequestOrigin } from '../async-request-origin.js';

export interface DispatchOptions {
  table: RouteTable<Handler>;
  shared: ContextShared;
  publicFiles: PublicFiles;
  /** Stage 5 in the spec's order: session, (locale, user, CSRF,) views, (maintenance,) timeout. */
  frameworkStages: readonly Stage[];
  /** `App.layer` middleware, first added outermost. */
  appLayers: readonly Middleware[];
  /** Each route's own layers as middleware, outermost first, built once at start. */
  routeLayers: ReadonlyMap<object, readonly Middleware[]>;
  send: SendOptions;
  /** Where listeners of the events a handler publishes read the client's address and the request id. */
  origin: AsyncRequestOrigin;
  /** Runs what handlers leave for after their answers (`ctx.afterResponse`). */
  afterResponse: AfterResponseWork;
}

function noRoute(path: string): MatchedRoute {
  return { name: null, pattern: path, params: {}, domainParams: {} };
}

function refusal(status: number, headers: Record<string, string> = {}): () => Promise<Reply> {
  return () => Promise.resolve(new ErrorReply({ status, detail: '', headers }) as unknown as Reply);
}

/**
 * The handler of hapi's one catch-all route: public files first (before sessions), then the
 * app's routes matched by the domain's router (host, method after override, path), then the
 * onion of framework stages, app layers, route layers and the handler.
 */
export function dispatcher(options: DispatchOptions): Lifecycle.Method {
  const { frameworkStages, appLayers } = options;
  return async (request: Request, h: ResponseToolkit) => {
    if (formTooLarge(request)) return h.response(FORM_TOO_LARGE).code(400).type('text/plain; charset=utf-8');
    // Before anything reads the body (the method override, old input, validation, handlers):
    // whatever walks it afterwards can rely on it being shallow.
    if (!bodyDepthWithin(request.payload, options.shared.bodyMaxDepth)) {
      stateOf(request).log.warn('a request body nested deeper than BODY_MAX_DEPTH was refused', { maxDepth: options.shared.bodyMaxDepth });
      throw badRequest(BODY_TOO_DEEP);
    }
    // The path of the request target as sent (hapi's `request.path`), never `request.url`,
    // which hapi builds from the Host header: a Host like `a/admin?` would move the path.
    const path = request.path;
    // RFC 9112 §3.2: a Host that is no host (`a b`, `[`, `a/admin?`) is the client's mistake.
    if (request.info.host !== '' && canonicalHost(request.info.host) === null) throw badRequest('The Host header is not a valid host');
    const requestMethod = request.method.toUpperCase();

    if (requestMethod === 'GET' || requestMethod === 'HEAD') {
      const file = options.publicFiles.lookup(path);
      if (file !== null) {
        if (!rangeFits(headerText(request.headers['range']), file.size)) delete request.headers['range'];
        const versioned = typeof request.query['v'] === 'string';
        return h.file(file.absolutePath, { confine: false }).header('cache-control', versioned ? ASSET_CACHE : 'public, max-age=0, must-revalidate');
      }
    }

    // Before the stages: a preflight opens no session, needs no CSRF token, counts for no throttle.
    const preflight = answerPreflight(options.table, { method: requestMethod, host: request.info.host, path, headers: request.headers });
    if (preflight !== null) return sendReply(h, preflight, options.send);

    const payload = request.payload as Record<string, unknown> | null | undefined;
    const method = overriddenMethod(requestMethod, {
      field: typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload) ? payload['_method'] : undefined,
      header: headerText(request.headers['x-http-method-override']),
    });
    const match = matchRoute(options.table, { method, host: request.info.host, path });

    let matched: MatchedRoute;
    let layers: readonly (Stage | Middleware)[] = frameworkStages;
    let handler: () => Promise<Reply>;
    let ctx: KernelContext;
    switch (match.kind) {
      case 'matched': {
        const { route } = match;
        matched = { name: route.name, pattern: route.pattern.source, params: match.params, domainParams: match.domainParams };
        ctx = new KernelContext(request, method, matched, options.shared);
        // A webhook is exempt from CSRF (it checks a signature instead) and its callers keep no cookies.
        const webhook = route.layers.some((layer) => layer.kind === 'webhook');
        ctx.csrfExempt = webhook || route.layers.some((layer) => layer.kind === 'csrf-off');
        if (webhook) ctx.persistNewSession = false;
        ctx.etag = route.layers.some((layer) => layer.kind === 'etag');
        // CORS outermost: the 419, 429, 403 and 503 of the stages and layers inside get its headers.
        layers = [...routeCorsLayers(route), ...frameworkStages, ...appLayers, ...(options.routeLayers.get(route) ?? [])];
        const target = route.target;
        const context = ctx;
        handler =
          target.kind === 'handler'
            ? async () => target.handler(context)
            : target.kind === 'view'
              ? () => Promise.resolve(View.make(target.template))
              : () => Promise.resolve(Redirect.to(target.to).withStatus(target.status));
        break;
      }
      case 'fallback': {
        matched = { ...noRoute(path), domainParams: match.domainParams };
        ctx = new KernelContext(request, method, matched, options.shared);
        layers = [...frameworkStages, ...appLayers];
        const fallback = match.fallback.handler;
        const context = ctx;
        handler = async () => fallback(context);
        break;
      }
      case 'method-not-allowed':
        ctx = new KernelContext(request, method, noRoute(path), options.shared);
        handler = refusal(405, { allow: match.allowed.join(', ') });
        break;
      case 'bad-path':
        ctx = new KernelContext(request, method, noRoute(path), options.shared);
        handler = refusal(400);
        break;
      case 'not-found':
        ctx = new KernelContext(request, method, noRoute(path), options.shared);
        handler = refusal(404);
        break;
    }
    if (match.kind === 'method-not-allowed' || match.kind === 'bad-path' || match.kind === 'not-found') ctx.persistNewSession = false;
    const context = ctx;
    const origin = { ipAddress: ctx.ip ?? '', requestId: ctx.requestId };
    const reply = await options.origin.run(origin, () => runOnion(context, layers, handler));
    options.afterResponse.schedule(context.afterResponseTasks, {
      answered: new Promise((resolve) => request.raw.res.once('close', () => resolve())),
      log: context.log,
      scope: (run) => options.origin.run(origin, run),
    });
    return sendReply(h, ctx.etag ? withEtag(ctx, reply) : reply, options.send);
  };
}
