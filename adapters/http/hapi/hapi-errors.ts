import type { Request, Server } from '@hapi/hapi';
import type { ErrorResponder } from '../kernel/error-responder.js';
import { apiClient } from '../kernel/context.js';

/**
 * Errors hapi makes itself, before a handler runs (a body that is not what its Content-Type
 * says, an unsupported media type, a body over the limit), get the same pages and JSON as the
 * app's own errors. Registered before the header stages so their headers land on the page.
 */
/**
 * (The session is not open for these: hapi refused the request before the framework's stages
 * ran, so such pages get the app and the request but no CSRF token or flash.)
 */
export function hapiErrorPages(server: Server, errors: ErrorResponder, globals: (request: Request) => Record<string, unknown>): void {
  server.ext('onPreResponse', async (request, h) => {
    const response = request.response;
    if (!('isBoom' in response) || !response.isBoom) return h.continue;
    const state = request.app.fw;
    if (state === undefined) return h.continue;
    const status = response.output.statusCode;
    const page = await errors.respond(
      {
        api: apiClient(request.headers),
        method: request.method.toUpperCase(),
        path: request.path,
        requestId: state.requestId,
        log: state.log,
        globals: () => ({ ...globals(request), csp_nonce: () => state.nonce }),
      },
      // hapi's 4xx messages describe the request ('Invalid request payload JSON format'), never the server.
      { status, detail: status < 500 ? String(response.output.payload.message ?? '') : '', error: status >= 500 ? response : undefined },
    );
    const answer = h.response(page.body).code(page.status).type(page.contentType);
    for (const [name, value] of Object.entries({ ...page.headers, ...pick(response.output.headers, ['allow', 'retry-after']) })) {
      answer.header(name, value);
    }
    return answer;
  });
}

function pick(headers: Record<string, string | string[] | number | undefined>, names: string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}
