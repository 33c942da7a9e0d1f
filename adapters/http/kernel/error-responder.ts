import type { ViewRenderer } from '../../../ports/view-renderer.js';
import type { Logger } from '../../../ports/logger.js';
import { reasonPhrase } from './http-error.js';

export interface ErrorAnswer {
  status: number;
  /** Shown to the visitor: a sentence that reveals nothing internal. Empty means the reason phrase. */
  detail: string;
  headers?: Record<string, string>;
  /** The error behind a 5xx, for the log and, when debugging locally, the debug page. */
  error?: unknown;
}

export interface ErrorPage {
  status: number;
  contentType: string;
  body: string;
  headers: Record<string, string>;
}

export interface ErrorRequest {
  api: boolean;
  method: string;
  path: string;
  requestId: string;
  log: Logger;
  /** The view globals an error page gets (app name, request, nonce…). */
  globals: () => Record<string, unknown>;
}

/**
 * Every error answer is made here: JSON `{ "message" }` for API clients; otherwise the app's
 * `errors/<status>.html`, else its `errors/default.html`, else the built-in page. Never a stack
 * trace to a visitor; with APP_DEBUG on and APP_ENV=local a 5xx shows the debug page. If even
 * the built-in template fails, a plain page written here.
 */
export class ErrorResponder {
  constructor(
    private readonly renderer: ViewRenderer,
    private readonly debugPages: boolean,
  ) {}

  async respond(request: ErrorRequest, answer: ErrorAnswer): Promise<ErrorPage> {
    const reason = reasonPhrase(answer.status);
    if (answer.status >= 500) request.log.error('request failed', { status: answer.status, error: describe(answer.error) });
    const headers = { 'cache-control': 'no-store', ...answer.headers };
    if (request.api) {
      return { status: answer.status, contentType: 'application/json; charset=utf-8', body: JSON.stringify({ message: answer.detail || reason }), headers };
    }
    return { status: answer.status, contentType: 'text/html; charset=utf-8', body: await this.page(request, answer, reason), headers };
  }

  private async page(request: ErrorRequest, answer: ErrorAnswer, reason: string): Promise<string> {
    let globals: Record<string, unknown> = {};
    try {
      globals = request.globals();
    } catch {
      // An error page must render even when what failed was the globals themselves.
    }
    const context = { ...globals, status: answer.status, reason, detail: answer.detail, request_id: request.requestId };
    try {
      if (this.debugPages && answer.status >= 500 && answer.error !== undefined) {
        return await this.renderer.render('fw/debug-error.html', { ...context, ...debugDetails(request, answer.error) });
      }
      const template = [`errors/${answer.status}.html`, 'errors/default.html', 'fw/error.html'].find((name) => this.renderer.has(name));
      if (template !== undefined) return await this.renderer.render(template, context);
    } catch (error) {
      request.log.error('error page failed to render', { error: describe(error) });
    }
    return plainErrorPage(answer.status, reason, answer.detail, request.requestId);
  }
}

function debugDetails(request: ErrorRequest, error: unknown): Record<string, unknown> {
  const details = error instanceof Error ? error : new Error(typeof error === 'string' ? error : 'a value that is not an Error was thrown');
  const view = details as Error & { template?: unknown; line?: unknown };
  return {
    method: request.method,
    path: request.path,
    error_name: details.name,
    message: details.message,
    trace: details.stack ?? '',
    template: typeof view.template === 'string' ? view.template : null,
    line: typeof view.line === 'number' ? view.line : null,
  };
}

export function describe(error: unknown): Record<string, unknown> | undefined {
  if (error === undefined) return undefined;
  if (!(error instanceof Error)) return { message: typeof error === 'string' ? error : 'a value that is not an Error was thrown' };
  const code = (error as { code?: unknown }).code;
  // fw's errors carry a stable code (docs/errors.md): the log can be searched by it.
  return typeof code === 'string' ? { name: error.name, code, message: error.message, stack: error.stack } : { name: error.name, message: error.message, stack: error.stack };
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(text: string): string {
  // Most text escaped on a page (tokens, nonces, asset URLs) has nothing to escape: one test
  // instead of a replace that calls back for nothing.
  return HTML_SPECIAL.test(text) ? text.replace(/[&<>"']/gu, (c) => ESCAPES[c] ?? c) : text;
}

const HTML_SPECIAL = /[&<>"']/u;

/** The last resort, when no template can be rendered: plain, escaped, and still useful. */
export function plainErrorPage(status: number, reason: string, detail: string, requestId: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${status} ${escapeHtml(reason)}</title></head><body><h1>${status} ${escapeHtml(reason)}</h1>${detail === '' ? '' : `<p>${escapeHtml(detail)}</p>`}<p><small>Request ${escapeHtml(requestId)}</small></p></body></html>`;
}
