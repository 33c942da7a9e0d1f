import Hapi from '@hapi/hapi';
import type { Logger } from '../../../ports/logger.js';
import { registerBuiltInRoutes } from './built-in-routes.js';

export interface HttpServerOptions {
  host: string;
  port: number;
  logger: Logger;
}

export interface RunningHttpServer {
  /** The address it listens on, e.g. `http://127.0.0.1:3000`. */
  readonly uri: string;
  readonly port: number;
  /** Stops taking connections and waits (up to `timeoutMs`) for requests in flight. */
  stop(timeoutMs?: number): Promise<void>;
}

export async function startHttpServer(options: HttpServerOptions): Promise<RunningHttpServer> {
  const server = Hapi.server({
    host: options.host,
    port: options.port,
    // The framework names its own routes; hapi's default of answering 404 JSON stays until
    // the error pages land.
    router: { stripTrailingSlash: false },
    routes: { response: { emptyStatusCode: 204 } },
  });
  registerBuiltInRoutes(server);
  server.events.on('response', (request) => {
    const status = 'statusCode' in request.response ? request.response.statusCode : 500;
    options.logger.debug('request', { method: request.method.toUpperCase(), path: request.path, status });
  });
  await server.start();
  const port = server.info.port;
  return {
    uri: server.info.uri,
    port: typeof port === 'number' ? port : Number(port),
    stop: (timeoutMs = 10_000) => server.stop({ timeout: timeoutMs }),
  };
}
