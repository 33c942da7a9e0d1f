import type { Request } from '@hapi/hapi';
import type { Logger } from '../../../ports/logger.js';

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
}

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    fw?: RequestState;
  }
}

/** The state the first stages set; every later stage can rely on it. */
export function stateOf(request: Request): RequestState {
  const state = request.app.fw;
  if (state === undefined) throw new Error('The fw pipeline did not run its first stages for this request');
  return state;
}
