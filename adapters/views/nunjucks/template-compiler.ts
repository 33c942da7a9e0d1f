/**
 * Compiles a template's source the way nunjucks' own `Template` does (preprocess, parse,
 * transform, generate code, evaluate it once), with three differences that the loader hands
 * to nunjucks as a ready `{ type: 'code' }` template:
 *
 * 1. `strict` decides per environment whether `{{ … }}` output checks for undefined values
 *    (nunjucks' `throwOnUndefined`, but only at compile time: the environment's own flag also
 *    makes `groupby` and `sort` strict, which the spec does not ask for).
 * 2. The compiled functions run with this template's own runtime (template-runtime.ts), passed
 *    in by closure. Nunjucks passes the runtime as a parameter from caller to callee, so a block
 *    would otherwise run with the runtime of whichever layout calls it.
 * 3. The root function also answers fragment requests (fragment.ts), using a second, reduced
 *    compilation of the top-level statements.
 * 4. `{% import %}` and `{% from … import %}` see the importing page's variables unless the
 *    template says `without context`. Jinja's default is the reverse, but the UI kit's fields
 *    and an app's components read `old()`, `error()`, `t()`, `auth` and `csrf_field()` by
 *    themselves (spec 002), and those are per-request values, not environment globals.
 * 5. A library (a file that only defines macros and constants, library-template.ts) is marked,
 *    and its macros take their context from the page that calls them, so its imports can be
 *    run once and kept (cached-imports.ts).
 * 6. Macros hold their keyword parameters and `{% set %}`s in JavaScript locals instead of
 *    nunjucks' run-time frames where that prints the same (macro-locals-compiler.ts).
 */
import type { Environment } from 'nunjucks';
import { BIND_MACRO_CONTEXT, LIBRARY, fwBind } from './cached-imports.js';
import { fragmentAware } from './fragment.js';
import { isLibrary } from './library-template.js';
import { MacroLocalsCompiler } from './macro-locals-compiler.js';
import type { AstNode, AstRoot, RenderFunction, Runtime } from './nunjucks-internals.js';
import { ImportNodes, environmentInternals, nodeTypes, parser, transform } from './nunjucks-internals.js';
import { tagError, templateRuntime } from './template-runtime.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

/** What nunjucks expects of a precompiled template: `root` plus `b_<name>` per block. */
export type CompiledTemplate = Record<string, RenderFunction> & { root: RenderFunction; [LIBRARY]?: true };

/** Top-level statements a block may depend on; everything that prints is left out. */
const PREAMBLE_NODES = new Set(['Extends', 'Import', 'FromImport', 'Set', 'Macro']);

/** The header the 3.2.4 code generator writes for the root and each block function. */
const FUNCTION_HEADER = /^function (root|b_[\w$]+)\(env, context, frame, runtime, cb\) \{$/gm;

export function compileTemplate(source: string, name: string, env: Environment, strict: boolean): CompiledTemplate {
  try {
    const runtime = templateRuntime(name, source);
    const ast = parse(source, name, env);
    const macros = isLibrary(ast) ? ast.findAll(nodeTypes['Macro'] as never).filter((node: AstNode) => node.typename === 'Macro').length : null;
    const full = instantiate(generate(ast, name, strict), runtime, macros);
    const top = parse(source, name, env, (reduced) => {
      reduced.children = reduced.children.filter((node) => PREAMBLE_NODES.has(node.typename));
    });
    const preamble = instantiate(generate(top, name, strict), runtime, macros);
    const compiled: CompiledTemplate = { ...full, root: fragmentAware(full.root, preamble.root) };
    // A library whose every macro was rebound (else nunjucks' way: run per import).
    if (full[LIBRARY] === true && preamble[LIBRARY] === true) compiled[LIBRARY] = true;
    return compiled;
  } catch (error) {
    throw tagError(error, name);
  }
}

function parse(source: string, name: string, env: Environment, reduce?: (ast: AstRoot) => void): AstRoot {
  const { asyncFilters, extensionsList, opts } = environmentInternals(env);
  const processed = extensionsList.reduce((text, extension) => extension.preprocess?.(text) ?? text, source);
  const ast = parser.parse(processed, extensionsList, opts);
  for (const type of ImportNodes) for (const node of ast.findAll(type)) node.withContext ??= true;
  reduce?.(ast);
  return transform(ast, asyncFilters, name);
}

function generate(ast: AstRoot, name: string, strict: boolean): string {
  const compiler = new MacroLocalsCompiler(name, strict);
  compiler.compile(ast);
  return compiler.getCode();
}

/**
 * Evaluates generated code with `runtime` bound by closure: the functions' own `runtime`
 * parameter is renamed away so their bodies see the closure's. The count check turns a change
 * in nunjucks' code generator into a clear error instead of a silently wrong runtime.
 *
 * For a library (`macros`: how many macros it defines), each macro's first line binds its
 * `context` through `fwBind` (cached-imports.ts); the result is marked a library only if every
 * macro was found.
 */
function instantiate(code: string, runtime: Runtime, macros: number | null): CompiledTemplate {
  let rewritten = 0;
  let bound = code.replace(FUNCTION_HEADER, (_header, fn: string) => {
    rewritten += 1;
    return `function ${fn}(env, context, frame, _runtime, cb) {${fn === 'root' && macros !== null ? '\nvar fwOwn = context;' : ''}`;
  });
  let rebound = 0;
  if (macros !== null) {
    bound = bound.replace(MACRO_HEADER, (header: string) => {
      rebound += 1;
      return header.replace(MACRO_FRAME, `${BIND_MACRO_CONTEXT}\n$&`);
    });
  }
  // Evaluating generated code is how nunjucks itself turns a template into functions.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const factory = new Function('runtime', 'fwBind', bound) as (runtime: Runtime, bind: typeof fwBind) => CompiledTemplate;
  const compiled = factory(runtime, fwBind);
  if (rewritten !== Object.keys(compiled).length) {
    throw new FrameworkError('view.unexpected-compiler-output', `unexpected code from the nunjucks compiler (${rewritten} functions rebound); check the nunjucks version`);
  }
  if (macros !== null && rebound === macros) compiled[LIBRARY] = true;
  return compiled;
}

/** The start of a macro's function as nunjucks 3.2.4 writes it (a `{% call %}` body pushes the frame instead). */
const MACRO_HEADER = /^function \([\w$, ]*\) \{\nvar callerFrame = frame;\nframe = new runtime\.Frame\(\);$/gm;
const MACRO_FRAME = /^var callerFrame = frame;$/m;
