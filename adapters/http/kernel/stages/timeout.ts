import type { Stage } from '../pipeline.js';
import { FrameworkError } from '../../../../domain/shared/errors.js';

export class RequestTimedOut extends FrameworkError {
  constructor(milliseconds: number) {
    super('http.timed-out', `The request ran longer than REQUEST_TIMEOUT (${milliseconds} ms)`);
  }
}

/**
 * The innermost framework stage: a handler (or app layer) that runs past REQUEST_TIMEOUT gets
 * the visitor a 500 page instead of a hanging connection. JavaScript cannot stop the handler;
 * its late result is dropped.
 */
export function timeoutStage(milliseconds: number): Stage {
  return async (_ctx, next) => {
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => reject(new RequestTimedOut(milliseconds)), milliseconds);
    });
    try {
      return await Promise.race([next(), expired]);
    } finally {
      clearTimeout(timer);
    }
  };
}
