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
    return Promise.resolve(
      layer(ctx, () => {
        if (called) throw new FrameworkError('http.next-twice', 'next() was called twice by one middleware');
        called = true;
        return step(index + 1);
      }),
    );
  };
  return step(0);
}
