/**
 * Imports of library templates (library-template.ts) run once per process instead of once per
 * render. nunjucks runs an imported file's top level on every `{% from … import %}` with context:
 * for the UI kit (fw/ui.html and its five area files, ~80 macros) that was about half of the
 * render time of a page of 40 fields, whatever the page printed.
 *
 * The catch is what the macros see. nunjucks' macros read names through the `context` of the
 * run that defined them, a copy of the importing page's variables. A cached run has no page; so
 * a library's compiled macros begin with `var context = fwBind(this, fwOwn)` (template-compiler.ts),
 * and `fwBind` answers, for a cached library, a context that looks names up in the library's own
 * top level first and then in the variables of the page that calls the macro: nunjucks calls
 * every function with the calling template's context as `this` (`runtime.callWrap`), a macro
 * calling another passes its own bound context on, and `{% import … as ui %}` gets a view of the
 * exports that carries the importing page's variables (`ui.input()` is called with it as `this`).
 * For a library run per render (not cached), `fwBind` answers the run's own context, as before.
 *
 * Kept only when it is safe: the environment caches templates (not while watching files), has no
 * async filters, and every file the library imports is a library too (else its exports would
 * depend on the page). Constant lists and dicts of a cached library are frozen: a macro cannot
 * change what the next request sees.
 *
 * One difference from nunjucks: a cached library's macros read the calling page's variables
 * even when a page imports a file that re-exports them `without context` (the kit's own files
 * import each other with context, so their macros are bound per caller). Templates are the
 * app's own code; nothing a visitor sends decides which variables a macro reads.
 */
import nunjucks from 'nunjucks';
import type { Environment } from 'nunjucks';

/** The mark on a compiled template (its props, as template-compiler.ts returns them) that it is a library. */
export const LIBRARY = Symbol.for('fw.nunjucks.library');
/** The line template-compiler.ts puts first in a library's macros: their context, per calling page. */
export const BIND_MACRO_CONTEXT = 'var context = fwBind(this, fwOwn);';
/** Set on an environment whose libraries may be cached (templates are not re-read while it runs). */
export const CACHE_LIBRARIES = Symbol.for('fw.nunjucks.cacheLibraries');
/** On the export views of `{% import … as name %}`: the importing page's variables. */
const PAGE_VARIABLES = Symbol('fw.nunjucks.pageVariables');

type Variables = Record<string, unknown>;
type Exports = Record<string | symbol, unknown>;
type Callback = (error: unknown, exported?: Exports | null) => void;

interface TemplateLike {
  env: Environment & { asyncFilters?: string[]; [CACHE_LIBRARIES]?: boolean };
  tmplProps?: Record<string | symbol, unknown>;
  blocks: unknown;
  rootRenderFunc: (env: Environment, context: unknown, frame: unknown, runtime: unknown, cb: (error: unknown) => void) => void;
  compile(): void;
  getExported(ctx?: unknown, parentFrame?: unknown, cb?: unknown): void;
}

interface NunjucksClasses {
  Template: { prototype: TemplateLike & { getExported: GetExported & { fwCached?: true } } };
  runtime: { Frame: new () => { topLevel: boolean } };
}
type GetExported = (this: TemplateLike, ctx?: unknown, parentFrame?: unknown, cb?: unknown) => void;

const classes = nunjucks as unknown as NunjucksClasses;

/**
 * The context a library's top level runs with for the cache: the part of nunjucks' render
 * context that top level uses (names set, exported and looked up), holding the library's own
 * names. Its macros bind through it per calling page.
 */
class LibraryContext {
  readonly ctx: Variables = {};
  private readonly exported: string[] = [];
  private readonly bound = new WeakMap<object, BoundContext>();
  constructor(readonly env: Environment & { globals?: Variables }) {}

  lookup(name: string): unknown {
    return name in this.ctx ? this.ctx[name] : this.env.globals?.[name];
  }

  setVariable(name: string, value: unknown): void {
    this.ctx[name] = value;
  }

  getVariables(): Variables {
    return this.ctx;
  }

  addExport(name: string): void {
    this.exported.push(name);
  }

  getExported(): Exports {
    return Object.fromEntries(this.exported.map((name) => [name, this.ctx[name]]));
  }

  unbound(): BoundContext {
    return new BoundContext(this.ctx, EMPTY, this.env);
  }

  bind(page: Variables): BoundContext {
    let bound = this.bound.get(page);
    if (bound === undefined) {
      bound = new BoundContext(this.ctx, page, this.env);
      this.bound.set(page, bound);
    }
    return bound;
  }
}

/** What a cached library's macro sees while one page calls it: its file's names, then the page's. */
class BoundContext {
  private written: Variables | null = null;
  constructor(
    private readonly own: Variables,
    readonly page: Variables,
    readonly env: Environment & { globals?: Variables },
  ) {}

  lookup(name: string): unknown {
    if (this.written !== null && name in this.written) return this.written[name];
    if (name in this.own) return this.own[name];
    if (name in this.page) return this.page[name];
    return this.env.globals?.[name];
  }

  /** As nunjucks' context: the variables a nested import or include inside a macro gets. */
  getVariables(): Variables {
    return { ...this.page, ...this.own, ...this.written };
  }

  get ctx(): Variables {
    return this.getVariables();
  }

  setVariable(name: string, value: unknown): void {
    (this.written ??= {})[name] = value;
  }

  /**
   * nunjucks compiles a macro defined inside a macro's body as a top-level one (its frame has no
   * parent): it exports the name, then sets it. The library's exports were fixed when it was
   * imported, so the name only becomes a variable of this call's context (setVariable).
   */
  addExport(_name: string): void {}
}

/** The context a library's macro runs with, from the `this` nunjucks called it with. */
export function fwBind(caller: unknown, own: unknown): unknown {
  if (!(own instanceof LibraryContext)) return own;
  const page = pageVariables(caller);
  // Called from outside a template (no page): a context of its own, shared with no other call.
  return page === null ? own.unbound() : own.bind(page);
}

const EMPTY: Variables = Object.freeze({});

function pageVariables(caller: unknown): Variables | null {
  if (caller instanceof BoundContext) return caller.page;
  if (typeof caller !== 'object' || caller === null) return null;
  const view = (caller as Exports)[PAGE_VARIABLES];
  if (view !== undefined) return view as Variables;
  const ctx = (caller as { ctx?: unknown }).ctx;
  return typeof ctx === 'object' && ctx !== null ? (ctx as Variables) : null;
}

/** Each cached library's exports; `null` once it proved not cacheable. */
const cache = new WeakMap<TemplateLike, Exports | null>();
/** While a library's top level runs for the cache: whether it imported a file that is not a library. */
let runningLibraries = 0;
let importedNonLibrary = false;

export function cacheLibraryImports(): void {
  const prototype = classes.Template.prototype;
  // Called below with the template as `this`, as nunjucks calls it.
  // eslint-disable-next-line @typescript-eslint/unbound-method
  const original = prototype.getExported;
  if (original.fwCached === true) return;
  const cached: GetExported & { fwCached?: true } = function (this: TemplateLike, ctx, parentFrame, cb) {
    // getExported(cb) and getExported(ctx, cb): nunjucks' own shapes; only imports with context
    // pass the page's variables.
    const callback = (typeof ctx === 'function' ? ctx : typeof parentFrame === 'function' ? parentFrame : cb) as Callback;
    const withContext = typeof ctx === 'object' && ctx !== null;
    const library = this.tmplProps?.[LIBRARY] === true;
    const usable = library && withContext && this.env[CACHE_LIBRARIES] === true && (this.env.asyncFilters ?? []).length === 0;
    const exported = usable ? libraryExports(this) : null;
    if (exported === null) {
      // A library cached now must not keep what this import gives (it depends on the page).
      if (runningLibraries > 0) importedNonLibrary = true;
      original.call(this, ctx, parentFrame, cb);
      return;
    }
    // A view per import: own properties (`from … import` checks them), and the page's variables
    // for `ui.input()`, which nunjucks calls with the view as `this`.
    callback(null, { ...exported, [PAGE_VARIABLES]: ctx });
  };
  cached.fwCached = true;
  prototype.getExported = cached;
}

function libraryExports(template: TemplateLike): Exports | null {
  const known = cache.get(template);
  if (known !== undefined) return known;
  const exported = runOnce(template);
  cache.set(template, exported);
  return exported;
}

function runOnce(template: TemplateLike): Exports | null {
  const context = new LibraryContext(template.env);
  const frame = new classes.runtime.Frame();
  frame.topLevel = true;
  let result: Exports | null = null;
  let failed = false;
  const outer = importedNonLibrary;
  importedNonLibrary = false;
  runningLibraries += 1;
  try {
    template.compile();
    template.rootRenderFunc(template.env, context, frame, nunjucks.runtime, (error) => {
      if (error) failed = true;
      else result = context.getExported();
    });
  } catch {
    failed = true;
  } finally {
    runningLibraries -= 1;
  }
  const impure = importedNonLibrary;
  importedNonLibrary = outer || impure;
  // Not finished synchronously, failed, or depending on a page: nunjucks' way, every render
  // (which also reports a failure as nunjucks does).
  if (failed || impure || result === null) return null;
  for (const value of Object.values(context.ctx)) deepFreeze(value);
  return Object.freeze(result);
}

function deepFreeze(value: unknown): void {
  if (typeof value !== 'object' || value === null || Object.isFrozen(value)) return;
  const prototype: unknown = Object.getPrototypeOf(value);
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return;
  Object.freeze(value);
  for (const item of Object.values(value)) deepFreeze(item);
}
