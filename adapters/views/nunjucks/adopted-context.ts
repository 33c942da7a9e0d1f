/**
 * nunjucks' render context (`Context.init`) starts every render by copying the object given to
 * `render` key by key (`lib.extend`), so that a template's top-level `{% set %}` cannot write
 * into the caller's object. The renderer already hands nunjucks a fresh object of its own per
 * render (nunjucks-view-renderer.ts), so that copy protected nothing: it was 3.8 % of the CPU
 * time of a small page (GET /login of the peers bench, docs/performance.md), most of it for the
 * ~45 globals every view receives, and its garbage.
 *
 * `renderAdopting(variables, render)` lets the one Context that nunjucks creates for that
 * render, while `render` runs, use `variables` as its own instead of a copy. Only that object is
 * adopted (by identity) and only once: every other Context (an `{% include %}`'s, an import
 * `with context`, another render) copies as nunjucks does, so an included template's top-level
 * `{% set %}` still stays out of the page's variables. Nunjucks creates the root Context
 * synchronously inside `Environment.render` (the loader is synchronous); if it ever did not,
 * nothing is adopted and nunjucks copies as before.
 */
import nunjucks from 'nunjucks';
import { FrameworkError } from '../../../domain/shared/errors.js';

interface ContextLike {
  ctx: Record<string, unknown>;
}
type ContextInit = (this: ContextLike, ctx: Record<string, unknown>, blocks: unknown, env: unknown) => void;
interface ContextPrototype {
  init: ContextInit & { fwAdopting?: true };
}

/** The object the next Context may take as its own; cleared as soon as it is taken or the render returns. */
let adoptable: Record<string, unknown> | null = null;
const NO_VARIABLES: Record<string, unknown> = Object.freeze({});

/** nunjucks does not export its Context class: its prototype is read off the context a template is rendered with. */
function contextPrototype(): ContextPrototype {
  let prototype: ContextPrototype | null = null;
  const probe = new nunjucks.Template(
    {
      type: 'code',
      obj: {
        root: (_env: unknown, context: object, _frame: unknown, _runtime: unknown, cb: (error: unknown, output: string) => void) => {
          prototype = Object.getPrototypeOf(context) as ContextPrototype;
          cb(null, '');
        },
      },
    } as never,
    new nunjucks.Environment([]),
  );
  probe.render({});
  if (prototype === null) throw new FrameworkError('view.unexpected-compiler-output', 'nunjucks rendered without a context; check the nunjucks version');
  return prototype;
}

export function adoptRenderVariables(): void {
  const prototype = contextPrototype();
  const original = prototype.init;
  if (original.fwAdopting === true) return;
  const init: ContextInit & { fwAdopting?: true } = function (this: ContextLike, ctx, blocks, env) {
    if (adoptable === null || ctx !== adoptable) {
      original.call(this, ctx, blocks, env);
      return;
    }
    adoptable = null;
    // nunjucks' own init for everything else (environment, blocks, exports), over no variables.
    original.call(this, NO_VARIABLES, blocks, env);
    this.ctx = ctx;
  };
  init.fwAdopting = true;
  prototype.init = init;
}

/**
 * Runs `render` (which calls nunjucks' `Environment.render` with `variables`) letting the render's
 * Context keep `variables` instead of copying it. `variables` must be an object nobody else
 * reads or writes while the render runs or after it: the template's `{% set %}` land in it.
 */
export function renderAdopting<T>(variables: Record<string, unknown>, render: () => T): T {
  adoptable = variables;
  try {
    return render();
  } finally {
    adoptable = null;
  }
}
