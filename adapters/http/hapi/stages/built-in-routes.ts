import type { Request, ResponseObject, ResponseToolkit, Server } from '@hapi/hapi';
// Brings `h.file()` (the @hapi/inert plugin) into hapi's types.
import type {} from '@hapi/inert';
import { HEALTH_ANSWER } from '../../kernel/front.js';
import { rangeFits } from '../../kernel/public-files.js';
import type { PublicFile, PublicFiles } from '../../kernel/public-files.js';

export interface BuiltInRouteOptions {
  publicFiles: PublicFiles;
  robotsTxt: string;
}

/**
 * Stage 4: routes the framework answers before sessions and maintenance mode, for any Host.
 * `/health` keeps answering during maintenance and does not touch the database: a database
 * outage should not make an orchestrator restart healthy processes in a loop. `/robots.txt`
 * and `/favicon.ico` come from `public/` when the app has them.
 */
export function builtInRoutes(server: Server, options: BuiltInRouteOptions): void {
  const plain = { state: { parse: false, failAction: 'ignore' as const } };
  server.route({
    method: 'GET',
    path: '/health',
    options: plain,
    handler: (_request, h) => h.response(HEALTH_ANSWER).header('cache-control', 'no-store'),
  });
  /** A built-in answer that the app's own file in `public/` replaces. */
  const publicOr = (path: string, fallback: (h: ResponseToolkit) => ResponseObject) =>
    server.route({
      method: 'GET',
      path,
      options: plain,
      handler: (request, h) => {
        const file = options.publicFiles.lookup(request.path);
        return file !== null ? sendFile(request, h, file) : fallback(h);
      },
    });
  publicOr('/robots.txt', (h) => h.response(options.robotsTxt).type('text/plain; charset=utf-8').header('cache-control', 'public, max-age=3600'));
  // No icon: an empty answer browsers may cache, instead of a 404 page on every visit.
  publicOr('/favicon.ico', (h) => h.response().code(204).header('cache-control', 'public, max-age=86400'));
}

function sendFile(request: Request, h: ResponseToolkit, file: PublicFile): ResponseObject {
  // A Range past the end would get hapi's own 416, without the security headers (see rangeFits).
  const range = request.headers['range'];
  if (!rangeFits(typeof range === 'string' ? range : undefined, file.size)) delete request.headers['range'];
  return h.file(file.absolutePath, { confine: false });
}
