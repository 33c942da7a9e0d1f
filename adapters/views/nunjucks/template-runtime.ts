/**
 * The runtime one compiled template runs with: nunjucks' own, with two helpers replaced.
 *
 * - `ensureDefined` is what nunjucks calls around every `{{ … }}` output when a template is
 *   compiled with `throwOnUndefined`, and only there: `{% if missing %}`, `{% for %}` and filter
 *   arguments never reach it. Nunjucks' version also refuses `null`; ours refuses only
 *   `undefined`, because a nullable column printed as nothing is data, not a typo. The error
 *   names the expression (`{{ user.nmae }}`) so the debug page points at the mistake.
 * - `handleError` (called by every compiled `catch`) records which template an error arose in
 *   and makes its line 1-based; nunjucks alone reports the line of the inner template under
 *   the outer template's name when one extends or includes another.
 */
import type { RenderCallback, Runtime, TemplateError as TemplateErrorShape } from './nunjucks-internals.js';
import { TemplateError, baseRuntime } from './nunjucks-internals.js';
import { fastMakeMacro } from './fast-make-macro.js';

/** Extra fields this adapter puts on nunjucks errors; read back by view-error-mapping.ts. */
export interface TaggedError extends TemplateErrorShape {
  fwTemplate?: string;
  fwCode?: 'view.undefined-value' | 'view.block-not-found';
}

export function templateRuntime(name: string, source: string): Runtime {
  const runtime: Runtime = Object.create(baseRuntime) as Runtime;
  runtime.makeMacro = fastMakeMacro(baseRuntime.makeMacro);
  runtime.ensureDefined = (value, lineno, colno) => {
    if (value !== undefined) return value;
    const expression = expressionAt(source, lineno, colno) ?? 'an expression';
    const error: TaggedError = new TemplateError(`undefined value printed by ${expression}`, lineno + 1, colno + 1);
    error.fwTemplate = name;
    error.fwCode = 'view.undefined-value';
    throw error;
  };
  runtime.handleError = (error, lineno, colno) => {
    if (isTagged(error)) return error; // placed already, by the template it arose in
    // Compiled code passes 0-based positions here, unlike everywhere else in nunjucks.
    const tagged: TaggedError =
      error instanceof TemplateError ? error : new TemplateError(error, lineno + 1, colno + 1);
    tagged.lineno ??= lineno + 1;
    tagged.colno ??= colno + 1;
    tagged.fwTemplate = name;
    return tagged;
  };
  return runtime;
}

/** Marks an error thrown while loading or compiling `name` (a syntax error) as belonging to it. */
export function tagError(error: unknown, name: string): unknown {
  if (error instanceof Error && !isTagged(error)) (error as TaggedError).fwTemplate = name;
  return error;
}

/**
 * Calls `cb` with an error saying the template chain has no such block. It is left untagged:
 * the template to blame is the one the fragment was asked of, which the caller knows.
 */
export function failBlockNotFound(cb: RenderCallback, block: string): void {
  const error: TaggedError = new TemplateError(`no block named '${block}'`);
  error.fwCode = 'view.block-not-found';
  cb(error);
}

function isTagged(error: unknown): error is TaggedError {
  return error instanceof Error && typeof (error as TaggedError).fwTemplate === 'string';
}

/** The `{{ … }}` text starting at a 0-based position, when it is there and reasonably short. */
function expressionAt(source: string, line: number, column: number): string | undefined {
  let offset = 0;
  for (let current = 0; current < line; current += 1) {
    const next = source.indexOf('\n', offset);
    if (next === -1) return undefined;
    offset = next + 1;
  }
  const start = offset + column;
  if (!source.startsWith('{{', start)) return undefined;
  const end = source.indexOf('}}', start);
  if (end === -1 || end - start > 200) return undefined;
  return source.slice(start, end + 2);
}
