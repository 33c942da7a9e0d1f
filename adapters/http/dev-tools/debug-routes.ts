import { Routes } from '../../../domain/http/routing/routes.js';
import { abort } from '../kernel/http-error.js';
import { View } from '../kernel/replies.js';
import type { Handler } from '../kernel/request-context.js';
import type { InspectedRequest, RequestInspector } from './request-inspector.js';

/** The request inspector's page: `/_fw/debug` lists the requests, `/_fw/debug/{id}` shows one. */
export const DEBUG_PATH = '/_fw/debug';

/**
 * The inspector's routes, added to the app's table only while debugging locally (otherwise
 * these addresses are no route at all: a 404 like any other). They run through the whole
 * pipeline like the app's own pages, so an app layer that asks for a login asks here too.
 */
export function debugRoutes(inspector: RequestInspector, appUrl: string): Routes<Handler> {
  const appHost = hostOf(appUrl);
  return new Routes<Handler>()
    .get(DEBUG_PATH, (ctx) => {
      refuseForeignHost(ctx.headers['host'], appHost);
      return View.make('fw/dev/debug.html', { requests: inspector.list().map(summary), capacity: inspector.capacity });
    })
    .name('fw.debug')
    .get(`${DEBUG_PATH}/{id}`, (ctx) => {
      refuseForeignHost(ctx.headers['host'], appHost);
      const request = inspector.find(ctx.params.string('id'));
      if (request === null) abort(404, 'This request is no longer kept: the inspector keeps the last requests only.');
      return View.make('fw/dev/debug-request.html', { request: { ...summary(request), session: request.session, logs: request.logs, queries: request.queries, mails: request.mails, events: request.events } });
    })
    .name('fw.debug.show');
}

/**
 * The inspector has no login (it is a local tool), so it answers only for a loopback name or
 * APP_URL's own host. With TRUSTED_HOSTS empty any Host is accepted, and a page the developer
 * visits could rebind its own name to 127.0.0.1 (DNS rebinding) and read recorded requests.
 */
function refuseForeignHost(requestHost: string | string[] | undefined, appHost: string): void {
  const host = typeof requestHost === 'string' ? hostOf(`http://${requestHost}`) : '';
  if (host === appHost || LOOPBACK.test(host)) return;
  abort(403, 'The request inspector answers on localhost or the host of APP_URL only.');
}

const LOOPBACK = /^(localhost|[a-z0-9-]+\.localhost|127(\.\d{1,3}){3}|\[::1\])$/u;

function hostOf(url: string): string {
  try {
    return new URL(url).hostname.toLowerCase();
  } catch {
    return '';
  }
}

/** A row of the list: what is counted rather than shown. */
function summary(request: InspectedRequest) {
  return {
    id: request.id,
    at: request.at.toISOString(),
    time: request.at.toISOString().slice(11, 23),
    method: request.method,
    path: request.path,
    status: request.status,
    ms: request.ms,
    route: request.route,
    userId: request.userId,
    counts: {
      session: request.session.length,
      logs: request.logs.length,
      queries: request.queries.length,
      queryMs: Math.round(request.queries.reduce((total, query) => total + query.ms, 0) * 100) / 100,
      mails: request.mails.length,
      events: request.events.length,
    },
  };
}
