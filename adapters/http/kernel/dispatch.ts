import type { Route, RouteTable } from '../../../domain/http/routing/route-table.js';
import { matchRoute } from '../../../domain/http/routing/match.js';
import { overriddenMethod } from '../../../domain/http/method-override.js';
import { Redirect, View } from './replies.js';
import type { Reply } from './replies.js';
import type { Handler, Middleware } from './request-context.js';
import { KernelContext, headerText } from './context.js';
import type { ContextShared, MatchedRoute, RouteTraits } from './context.js';

/** A fallback route answers a page like any route: a session it starts is kept. */
const FALLBACK: RouteTraits = Object.freeze({ csrfExempt: false, etag: false, keepsNewSession: true });
import { runOnion } from './pipeline.js';
import type { Stage } from './pipeline.js';
import { answerPreflight, routeCorsLayers } from './cors.js';
import { HttpAbort } from './http-error.js';
import { withEtag } from './stages/etag.js';
import { LIVE_VALIDATION_HEADER, answerLiveValidation } from './live-validation.js';
import type { RouteLayerPlan } from './route-layers.js';
import type { FormSchema } from '../validation/form-schema.js';
import type { AfterResponseWork } from '../after-response.js';
import type { KernelRequest } from './request.js';

/** Runs a request's work as that request (`DevTools.within`). */
export interface RequestScope {
  within<T>(requestId: string, work: () => T): T;
}

export interface DispatchOptions {
  table: RouteTable<Handler>;
  shared: ContextShared;
  /** Stage 5 in the spec's order: session, (locale, user, CSRF,) views, (maintenance,) timeout. */
  frameworkStages: readonly Stage[];
  /** `App.layer` middleware, first added outermost. */
  appLayers: readonly Middleware[];
  /** Each route's own layers compiled once at start: middleware outermost first, and what they mark. */
  routeLayers: ReadonlyMap<object, RouteLayerPlan>;
  /**
   * What must know the request while its work runs, through every await: the dev tools'
   * request inspector (local debugging only); null in production, where nothing is wrapped.
   */
  scope: RequestScope | null;
  /** Runs what handlers leave for after their answers (`ctx.afterResponse`). */
  afterResponse: AfterResponseWork;
}

/**
 * The kernel's answer to one request: a reply value the transport writes. `answered` resolves
 * once the transport has written the answer; it is asked for only when a handler left work
 * for after it (`ctx.afterResponse`).
 */
export type Dispatch = (request: KernelRequest, answered: () => Promise<void>) => Promise<Reply>;

function noRoute(path: string): MatchedRoute {
  return { name: null, pattern: path, params: {}, domainParams: {} };
}

/** No route answers: the request stops with the status, made a page by the views stage. */
function refusal(status: number, headers: Record<string, string> = {}): () => Promise<Reply> {
  return () => Promise.reject(new HttpAbort(status, '', headers));
}

/**
 * What a matched route needs on every request, worked out once at start: the whole onion in
 * order (CORS outermost, so the 419, 429, 403 and 503 of the stages and layers inside get its
 * headers), and what its layers say about CSRF, cookies and ETags.
 */
interface RoutePlan {
  layers: readonly (Stage | Middleware)[];
  traits: RouteTraits;
  /** The form `liveValidation(...)` names, answered in the handler's place for `X-Fw-Validate`. */
  liveForm: FormSchema<unknown> | null;
}

/** Each route's plan: made for every route of the table at start, kept by route. */
function routePlans(options: DispatchOptions): (route: Route<Handler>) => RoutePlan {
  const plans = new Map<Route<Handler>, RoutePlan>();
  const planOf = (route: Route<Handler>): RoutePlan => {
    let plan = plans.get(route);
    if (plan === undefined) {
      const own = options.routeLayers.get(route);
      plan = {
        layers: [...routeCorsLayers(route), ...options.frameworkStages, ...options.appLayers, ...(own?.middleware ?? [])],
        // Shared by every request of the route: frozen, so no middleware can change it for the next.
        traits: Object.freeze({ csrfExempt: own?.csrfExempt ?? false, etag: own?.etag ?? false, keepsNewSession: !(own?.webhook ?? false) }),
        liveForm: own?.liveForm ?? null,
      };
      plans.set(route, plan);
    }
    return plan;
  };
  for (const route of options.table.routes) planOf(route);
  return planOf;
}

/**
 * The app's routes for a request the transport has read (public files and the framework's own
 * routes are the transport's, before this): CORS preflights, then the route matched by the
 * domain's router (host, method after override, path), then the onion of framework stages,
 * app layers, route layers and the handler.
 */
export function dispatcher(options: DispatchOptions): Dispatch {
  const { frameworkStages, appLayers } = options;
  const planOf = routePlans(options);
  const fallbackLayers = [...frameworkStages, ...appLayers];
  return async (request, answered) => {
    const { path, method: requestMethod } = request;
    // Before the stages: a preflight opens no session, needs no CSRF token, counts for no throttle.
    const preflight = answerPreflight(options.table, { method: requestMethod, host: request.host, path, headers: request.headers });
    if (preflight !== null) return preflight;

    const payload = request.body.raw() === null ? request.body.value() : undefined;
    const method = overriddenMethod(requestMethod, {
      field: typeof payload === 'object' && payload !== null && !Buffer.isBuffer(payload) ? (payload as Record<string, unknown>)['_method'] : undefined,
      header: headerText(request.headers['x-http-method-override']),
    });
    const match = matchRoute(options.table, { method, host: request.host, path });

    let matched: MatchedRoute;
    let layers: readonly (Stage | Middleware)[] = frameworkStages;
    let handler: () => Promise<Reply>;
    let ctx: KernelContext;
    switch (match.kind) {
      case 'matched': {
        const { route } = match;
        matched = { name: route.name, pattern: route.pattern.source, params: match.params, domainParams: match.domainParams };
        const plan = planOf(route);
        ctx = new KernelContext(request, method, matched, options.shared, plan.traits);
        layers = plan.layers;
        const target = route.target;
        const context = ctx;
        const validating = headerText(request.headers[LIVE_VALIDATION_HEADER]);
        handler =
          validating !== undefined
            ? () => answerLiveValidation(context, plan.liveForm, validating)
            : target.kind === 'handler'
            ? async () => target.handler(context)
            : target.kind === 'view'
              ? () => Promise.resolve(View.make(target.template))
              : () => Promise.resolve(Redirect.to(target.to).withStatus(target.status));
        break;
      }
      case 'fallback': {
        matched = { ...noRoute(path), domainParams: match.domainParams };
        ctx = new KernelContext(request, method, matched, options.shared, FALLBACK);
        layers = fallbackLayers;
        const fallback = match.fallback.handler;
        const context = ctx;
        // A fallback validates no form: a live-validation request is refused, not handled.
        const validating = headerText(request.headers[LIVE_VALIDATION_HEADER]);
        handler = validating !== undefined ? () => answerLiveValidation(context, null, validating) : async () => fallback(context);
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
    const context = ctx;
    const { scope } = options;
    const reply = await (scope === null ? runOnion(context, layers, handler) : scope.within(context.requestId, () => runOnion(context, layers, handler)));
    if (context.afterResponseTasks.length > 0) {
      const id = context.requestId;
      options.afterResponse.schedule(context.afterResponseTasks, { answered: answered(), log: context.log, ...(scope === null ? {} : { scope: (run) => scope.within(id, run) }) });
    }
    return ctx.traits.etag ? withEtag(ctx, reply) : reply;
  };
}
