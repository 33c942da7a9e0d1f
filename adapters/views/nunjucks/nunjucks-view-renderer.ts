/**
 * The `ViewRenderer` on nunjucks: Jinja-like templates looked up in the app's views, then in
 * the framework's built-in templates; autoescaping on; each template compiled once and cached.
 *
 * With `debug` on, printing an undefined value (`{{ user.nmae }}`) fails the render with a
 * `view.undefined-value` error naming the expression, template and line, while tests such as
 * `{% if missing %}` stay fine (template-runtime.ts). `flash.<anything>` may always be printed
 * (forgiving-flash.ts). `options.block` renders one block only (fragment.ts).
 */
import nunjucks from 'nunjucks';
import type { Environment, ILoader } from 'nunjucks';
import { ViewError } from '../../../ports/view-renderer.js';
import type { RenderOptions, ViewRenderer } from '../../../ports/view-renderer.js';
import { adoptRenderVariables, renderAdopting } from './adopted-context.js';
import { CACHE_LIBRARIES, cacheLibraryImports } from './cached-imports.js';
import { forgivingFlash } from './forgiving-flash.js';
import { speedUpEscape } from './fast-escape.js';
import { speedUpFrameSet } from './fast-frame-set.js';
import { FRAGMENT_KEY, fragmentRequest } from './fragment.js';
import { PageStacks } from './page-stacks.js';
import { registerFilters } from './register-filters.js';
import { registerUiFields } from './register-ui-fields.js';
import { SearchPathLoader } from './search-path-loader.js';
import { compileTemplate } from './template-compiler.js';
import { toViewError } from './view-error-mapping.js';

export interface NunjucksViewRendererOptions {
  /** Folders searched in order: the app's `resources/views` first, then the framework's `templates/`. */
  searchPaths: readonly string[];
  /** APP_DEBUG: printing an undefined value is an error. */
  debug: boolean;
  /** Re-read and recompile templates on every render (while developing); off keeps them cached. */
  watch?: boolean | undefined;
  /** Values and functions every template sees (`csrf_field`, `asset`, …). */
  globals?: Readonly<Record<string, unknown>> | undefined;
  /** The app's `App.templates(env => …)` hook: add filters, globals or tests. Runs last. */
  configure?: ((env: Environment) => void) | undefined;
}

speedUpFrameSet();
speedUpEscape();
cacheLibraryImports();
adoptRenderVariables();

export class NunjucksViewRenderer implements ViewRenderer {
  /** The nunjucks environment, for the composition root's own additions. */
  readonly env: Environment;
  private readonly loader: SearchPathLoader;

  constructor(options: NunjucksViewRendererOptions) {
    const debug = options.debug;
    this.loader = new SearchPathLoader(
      options.searchPaths,
      (source, name) => compileTemplate(source, name, this.env, debug),
      options.watch ?? false,
    );
    // The loader hands over compiled code where @types/nunjucks only knows source strings.
    this.env = new nunjucks.Environment(this.loader as unknown as ILoader, {
      autoescape: true,
      // Keeps nunjucks from replacing errors by copies without their line numbers.
      dev: true,
      // Undefined checks are compiled in per template instead (see template-compiler.ts).
      throwOnUndefined: false,
    });
    // Templates are compiled once unless watched: a library's imports may then run once too.
    (this.env as Environment & { [CACHE_LIBRARIES]?: boolean })[CACHE_LIBRARIES] = options.watch !== true;
    registerFilters(this.env);
    registerUiFields(this.env);
    for (const [name, value] of Object.entries(options.globals ?? {})) this.env.addGlobal(name, value);
    options.configure?.(this.env);
  }

  safe(html: string): unknown {
    return new nunjucks.runtime.SafeString(html);
  }

  has(template: string): boolean {
    return this.loader.find(template) !== undefined;
  }

  render(template: string, context: Record<string, unknown>, options: RenderOptions = {}): Promise<string> {
    if (!this.has(template)) {
      return Promise.reject(new ViewError('view.not-found', `Template '${template}' not found`, { template }));
    }
    // stack()/push()/prepend()/once() live for one render; stacks are filled in once it is done.
    const stacks = new PageStacks();
    // The render's variables: the caller's object when it was made for this render (`fresh`,
    // the views stage's pages), else one copy of it, so a template's `{% set %}` never lands in
    // an object the caller reads again. nunjucks' Context keeps them as they are rather than
    // copying them once more (adopted-context.ts).
    const variables: Record<string, unknown> = options.fresh === true ? context : copyOf(context);
    stacks.install(variables);
    variables['flash'] = forgivingFlash(context['flash']);
    if (options.block !== undefined) variables[FRAGMENT_KEY] = fragmentRequest(options.block);
    return new Promise((resolve, reject) => {
      try {
        renderAdopting(variables, () =>
          this.env.render(template, variables, (error, output) => {
            if (error) reject(toViewError(error, template));
            else resolve(stacks.fill(output ?? ''));
          }),
        );
      } catch (error) {
        // A syntax error in the requested template surfaces while loading, before any callback.
        reject(toViewError(error, template));
      }
    });
  }
}

/**
 * The caller's own string keys, as nunjucks' Context copied them. Not a spread: V8 gives each
 * spread copy a layout of its own, so adding the renderer's names to it cost ~2 µs each and
 * every lookup of a name by the template missed V8's caches (4× slower than in a plain copy,
 * micro-benchmark in docs/performance.md). A `__proto__` key stays a plain value.
 */
function copyOf(context: Record<string, unknown>): Record<string, unknown> {
  const copy: Record<string, unknown> = {};
  for (const key of Object.keys(context)) {
    if (key === '__proto__') Object.defineProperty(copy, key, { value: context[key], writable: true, enumerable: true, configurable: true });
    else copy[key] = context[key];
  }
  return copy;
}
