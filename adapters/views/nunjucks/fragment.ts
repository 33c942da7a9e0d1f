/**
 * Rendering one `{% block %}` of a template on its own (the spec's `View.fragment('block')`).
 *
 * Nunjucks has no API for it, and calling a compiled block function directly loses what the
 * block depends on: the macros imported and the variables set at the top level of the template
 * and of the layouts it extends. So every template is compiled twice (template-compiler.ts):
 * in full, and as a *preamble* holding only its top-level `{% extends %}`, `{% import %}`,
 * `{% from … import %}`, `{% set %}` and `{% macro %}`. When a fragment is asked for, each
 * template's root function runs its preamble instead of its body: the child's preamble imports
 * its macros and hands over to the layout's preamble (registering the layout's blocks, as a
 * normal render does), and when the last layout's preamble is done the requested block is
 * rendered with that context and returned. Nothing else of the page runs, so layout-level
 * calls with side effects (`toasts()` taking the flashed messages) are left for the full page.
 *
 * Limitation: a block nested in another block does not see variables `{% set %}` inside the
 * outer block, since the outer block does not run.
 */
import type { RenderContext, RenderFunction } from './nunjucks-internals.js';
import { failBlockNotFound } from './template-runtime.js';

/**
 * The render-context key carrying a fragment request into the compiled code. The colon makes
 * it impossible to name from a template; the first root function to see it takes it away.
 */
export const FRAGMENT_KEY = 'fw:fragment';

export interface FragmentRequest {
  readonly block: string;
  done: boolean;
}

/** Fragment requests by the render context they belong to (layouts share the child's context). */
const requests = new WeakMap<RenderContext, FragmentRequest>();

export function fragmentRequest(block: string): FragmentRequest {
  return { block, done: false };
}

/** The template's root function, answering a fragment request with its preamble and the block. */
export function fragmentAware(root: RenderFunction, preamble: RenderFunction): RenderFunction {
  return (env, context, frame, runtime, cb) => {
    const request = claim(context);
    if (request === undefined) {
      root(env, context, frame, runtime, cb);
      return;
    }
    preamble(env, context, frame, runtime, (error, output) => {
      // Preambles of child templates see the block's output pass by on its way out.
      if (error !== null && error !== undefined) return cb(error);
      if (request.done) return cb(null, output);
      request.done = true;
      let block: RenderFunction;
      try {
        block = context.getBlock(request.block);
      } catch {
        return failBlockNotFound(cb, request.block);
      }
      block(env, context, frame, runtime, cb);
    });
  };
}

/**
 * The request for this context, if any. Taking the key out of the variables keeps it from
 * reaching templates rendered with a copy of them (`{% include %}`, `import … with context`),
 * which run in full.
 */
function claim(context: RenderContext): FragmentRequest | undefined {
  const known = requests.get(context);
  if (known !== undefined) return known;
  const request = context.ctx[FRAGMENT_KEY];
  if (!isFragmentRequest(request)) return undefined;
  delete context.ctx[FRAGMENT_KEY];
  requests.set(context, request);
  return request;
}

function isFragmentRequest(value: unknown): value is FragmentRequest {
  return typeof value === 'object' && value !== null && typeof (value as FragmentRequest).block === 'string';
}
