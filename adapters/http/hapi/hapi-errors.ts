import type { Boom } from '@hapi/boom';
import type { Request, ResponseObject, ResponseToolkit } from '@hapi/hapi';
import type { Kernel } from '../kernel/kernel.js';

/**
 * Errors hapi makes itself, before a handler runs (a body that is not what its Content-Type
 * says, an unsupported media type, a body over the limit), get the same pages and JSON as the
 * app's own errors (`kernel.errorPage`). Run before the security headers (front-exts.ts), so
 * their headers land on the page. Null: the request's state is missing (no page to make).
 */
export async function hapiErrorPage(request: Request, h: ResponseToolkit, response: Boom, kernel: Kernel): Promise<ResponseObject | null> {
  const state = request.app.fw;
  if (state === undefined) return null;
  const status = response.output.statusCode;
  const page = await kernel.errorPage(
    { method: request.method.toUpperCase(), path: request.path, query: request.query as Record<string, string | string[]>, headers: request.headers, state },
    // hapi's 4xx messages describe the request ('Invalid request payload JSON format'), never the server.
    { status, detail: status < 500 ? String(response.output.payload.message ?? '') : '', error: status >= 500 ? response : undefined },
  );
  const answer = h.response(page.body).code(page.status).type(page.contentType);
  for (const [name, value] of Object.entries({ ...page.headers, ...pick(response.output.headers, ['allow', 'retry-after']) })) {
    answer.header(name, value);
  }
  return answer;
}

function pick(headers: Record<string, string | string[] | number | undefined>, names: string[]): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of names) {
    const value = headers[name];
    if (value !== undefined) kept[name] = String(value);
  }
  return kept;
}
