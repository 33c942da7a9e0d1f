import type { Logger } from '../../../ports/logger.js';
import type { RequestBody } from './body.js';

/**
 * The request as the kernel sees it: what a transport (hapi, a fetch handler) hands over once
 * it has read the request line, the headers and the body. Nothing in the kernel reads the
 * transport's own request object, so the same pipeline runs behind either.
 */
export interface KernelRequest {
  /** The method as sent, upper case (before `_method` overrides). */
  readonly method: string;
  /** The path of the request target as sent, percent-encoding kept; never built from the Host header. */
  readonly path: string;
  /** The request target exactly as sent (path and query): signed URLs and intended URLs read it. */
  readonly target: string;
  /** The host the request is for (an absolute-form target's authority, else the Host header); '' when none. */
  readonly host: string;
  readonly query: Readonly<Record<string, string | string[]>>;
  /** Header names in lower case. */
  readonly headers: Readonly<Record<string, string | string[] | undefined>>;
  readonly body: RequestBody;
  /** What the transport's first stages learned: nonce, client address, request id. */
  readonly state: RequestState;
}

/** What the pipeline learns about a request before the handler runs. */
export interface RequestState {
  /** This request's Content-Security-Policy nonce (`csp_nonce()` in templates). */
  nonce: string;
  /** The client's address through trusted proxies; null when the socket has none. */
  clientIp: string | null;
  requestId: string;
  /** A logger whose every line carries the request id. */
  log: Logger;
  startedAt: number;
  /** Bytes of a form body seen so far, for the 2 MB form limit of bodies without a length. */
  formBytes: number;
  /**
   * The masked CSRF token this response's views print (`printedToken`), set when a view is
   * rendered; the ETag leaves it out as it leaves out the nonce. Null until then.
   */
  printedCsrfToken: string | null;
}
