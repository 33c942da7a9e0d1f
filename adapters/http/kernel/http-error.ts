import { FrameworkError, MisuseError } from '../../../domain/shared/errors.js';

/**
 * A handler stops with a status and a message a visitor may read (`abort(404, 'No such
 * product')`). The message is shown as it is, so it must not carry internal details.
 */
export class HttpAbort extends FrameworkError {
  readonly status: number;
  readonly headers: Record<string, string>;

  constructor(status: number, message: string, headers: Record<string, string> = {}) {
    // A 4xx is an answer, not a fault: nobody reads its stack, and capturing one was the
    // largest single cost of a 404 (docs/performance.md). A 5xx keeps it for the log.
    const limit = Error.stackTraceLimit;
    if (status < 500) Error.stackTraceLimit = 0;
    try {
      super('http.abort', message);
    } finally {
      Error.stackTraceLimit = limit;
    }
    this.status = status;
    this.headers = headers;
    if (!Number.isInteger(status) || status < 400 || status > 599) throw new MisuseError('http.bad-abort-status', `abort needs a 4xx or 5xx status, got ${status}`);
  }
}

export function abort(status: number, message = ''): never {
  throw new HttpAbort(status, message);
}

export function abortIf(condition: boolean, status: number, message = ''): void {
  if (condition) abort(status, message);
}

export function abortUnless(condition: boolean, status: number, message = ''): void {
  if (!condition) abort(status, message);
}

/** The standard reason phrase of a status, for pages and JSON answers. */
export function reasonPhrase(status: number): string {
  return REASONS[status] ?? (status >= 500 ? 'Server Error' : 'Error');
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  401: 'Unauthorized',
  403: 'Forbidden',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  413: 'Payload Too Large',
  414: 'URI Too Long',
  415: 'Unsupported Media Type',
  419: 'Page Expired',
  422: 'Unprocessable Content',
  429: 'Too Many Requests',
  431: 'Request Header Fields Too Large',
  500: 'Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
};
