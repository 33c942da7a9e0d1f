import type { Reply } from './replies.js';
import type { Middleware } from './request-context.js';
import type { KernelContext } from './context.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** A framework stage: like a middleware, with the kernel's own view of the context. */
export type Stage = (ctx: KernelContext, next: () => Promise<Reply>) => Promise<Reply>;

/**
 * Runs `layers` around `handler`, the first layer outermost: code before `next()` runs on the
 * way in, code after it on the way out.
 */
export function runOnion(ctx: KernelContext, layers: readonly (Stage | Middleware)[], handler: () => Promise<Reply>): Promise<Reply> {
  const step = (index: number): Promise<Reply> => {
    const layer = layers[index];
    if (layer === undefined) return handler();
    let called = false;
    try {
      return Promise.resolve(
        layer(ctx, () => {
          if (called) throw new FrameworkError('http.next-twice', 'next() was called twice by one middleware');
          called = true;
          return step(index + 1);
        }),
      );
    } catch (error) {
      // A layer that is not an async function (the framework's own stages skip the wrapper to
      // save promises) may throw: the layer outside it sees a rejection, as from any other.
      // eslint-disable-next-line @typescript-eslint/prefer-promise-reject-errors -- passed on as thrown, as an async function would
      return Promise.reject(error);
    }
  };
  return step(0);
}
