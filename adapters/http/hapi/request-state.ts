import type { Request } from '@hapi/hapi';
import type { RequestState } from '../kernel/request.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

declare module '@hapi/hapi' {
  interface RequestApplicationState {
    fw?: RequestState;
  }
}

/** The state the first stages set; every later stage can rely on it. */
export function stateOf(request: Request): RequestState {
  const state = request.app.fw;
  if (state === undefined) throw new FrameworkError('http.pipeline-skipped', 'The fw pipeline did not run its first stages for this request');
  return state;
}
