import type { Server } from '@hapi/hapi';
import type { DevTools } from '../../dev-tools/dev-tools.js';
import { LIVE_HEADERS, LIVE_PATH } from '../../dev-tools/live-reload.js';

/**
 * Stage 4's live-reload stream (local debugging only), before sessions and maintenance mode:
 * each page's server-sent event stream. A stopping server ends the streams first, so `stop`
 * does not wait out its timeout for pages that never hang up.
 */
export function liveReloadRoute(server: Server, devTools: DevTools): void {
  server.route({
    method: 'GET',
    path: LIVE_PATH,
    options: { state: { parse: false, failAction: 'ignore' } },
    handler: (request, h) => {
      // Never compressed: a compressor holds the events back until its buffer fills.
      (request.info as { acceptEncoding: string }).acceptEncoding = 'identity';
      const stream = devTools.live().connect();
      // The page went away (closed, navigated, reloaded): forget its stream.
      request.raw.res.once('close', () => stream.destroy());
      const response = h.response(stream).code(200);
      for (const [name, value] of Object.entries(LIVE_HEADERS)) response.header(name, value);
      return response;
    },
  });
  server.ext('onPreStop', () => devTools.endStreams());
}
