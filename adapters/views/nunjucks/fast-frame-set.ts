/**
 * nunjucks' `Frame.set` splits every variable name on '.' (for its own `loop.index`) before it
 * stores it. Every macro parameter, `{% set %}` and loop variable goes through it: profiling
 * bench/ui-kit.bench.ts (a form of 40 UI kit fields) put 30% of a page's render time in that
 * one function, as each field's macro sets its dozen keyword parameters. A name without a dot
 * now takes a direct path; the behaviour is nunjucks' own (a `{% set %}` assigns to the frame
 * that already holds the name, unless a frame isolates writes), dotted names go the old way.
 * Applied once, to the Frame class every nunjucks environment of the process shares.
 */
import nunjucks from 'nunjucks';

interface FrameLike {
  variables: Record<string, unknown>;
  resolve(name: string, forWrite: boolean): FrameLike | undefined;
}
type FrameSet = (this: FrameLike, name: string, value: unknown, resolveUp?: boolean) => void;
interface FramePrototype {
  set: FrameSet & { fwFast?: true };
}

const prototype = (nunjucks.runtime as unknown as { Frame: { prototype: FramePrototype } }).Frame.prototype;

const SPLIT = new Map<string, readonly string[]>();
/** At most this many names are kept (a template could build names at run time; none of fw's do). */
const SPLIT_LIMIT = 256;

function dottedParts(name: string): readonly string[] | undefined {
  const known = SPLIT.get(name);
  if (known !== undefined || SPLIT.size >= SPLIT_LIMIT) return known;
  const parts = name.split('.');
  SPLIT.set(name, parts);
  return parts;
}

export function speedUpFrameSet(): void {
  const original = prototype.set;
  if (original.fwFast === true) return;
  const fast: FrameSet & { fwFast?: true } = function (this: FrameLike, name, value, resolveUp) {
    if (name.includes('.')) {
      // `loop.index` and its six siblings, set on every turn of every `{% for %}`: nunjucks
      // split them anew each time (10 % of the UI kit bench). The names come from compiled
      // code, a handful per process: their parts are kept.
      const parts = resolveUp === true ? undefined : dottedParts(name);
      if (parts === undefined) {
        original.call(this, name, value, resolveUp);
        return;
      }
      let holder = this.variables;
      for (let i = 0; i < parts.length - 1; i++) {
        const part = parts[i] as string;
        holder = (holder[part] ||= {}) as Record<string, unknown>;
      }
      holder[parts[parts.length - 1] as string] = value;
      return;
    }
    const owner = resolveUp === true ? this.resolve(name, true) : undefined;
    (owner ?? this).variables[name] = value;
  };
  fast.fwFast = true;
  prototype.set = fast;
}
