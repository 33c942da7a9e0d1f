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
  // One promise settled by whichever comes first (the answer or the timer), rather than an
  // async function around Promise.race and a second promise: this stage runs on every request.
  return (_ctx, next) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new RequestTimedOut(milliseconds)), milliseconds);
      const settle = <T>(then: (value: T) => void) => (value: T) => {
        clearTimeout(timer);
        then(value);
      };
      try {
        next().then(settle(resolve), settle(reject));
      } catch (error) {
        // A layer that throws before it returns a promise rejects too (as an async function would).
        settle(reject)(error);
      }
    });
}
