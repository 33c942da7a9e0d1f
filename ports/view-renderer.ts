import { FrameworkError } from '../domain/shared/errors.js';

/**
 * Why a view could not be rendered. The codes are stable so the error pages and tests can tell
 * them apart without reading messages:
 * - `view.not-found`: no search path holds the template (or a template it extends or includes);
 * - `view.block-not-found`: a fragment render asked for a block the template chain lacks;
 * - `view.undefined-value`: with debug on, the template printed a variable that is not defined;
 * - `view.failed`: anything else (a syntax error, a filter or function that threw, …).
 */
export type ViewErrorCode = 'view.not-found' | 'view.block-not-found' | 'view.undefined-value' | 'view.failed';

/** Where the failure happened, when the template engine knows it (the debug error page shows it). */
export interface ViewErrorLocation {
  /** The template name as the app wrote it (`orders/show.html`), not a file path. */
  template?: string | undefined;
  /** 1-based line in that template. */
  line?: number | undefined;
  /** 1-based column in that line. */
  column?: number | undefined;
  cause?: unknown;
}

export class ViewError extends FrameworkError<ViewErrorCode> {
  readonly template: string | undefined;
  readonly line: number | undefined;
  readonly column: number | undefined;

  constructor(code: ViewErrorCode, message: string, location: ViewErrorLocation = {}) {
    super(code, message, location.cause === undefined ? undefined : { cause: location.cause });
    this.template = location.template;
    this.line = location.line;
    this.column = location.column;
  }
}

export interface RenderOptions {
  /**
   * Render only this `{% block %}` of the template (the spec's `View.fragment('block')`, for
   * partial updates). Imports and `{% set %}` at the top level of the template and of the
   * templates it extends are still available to the block; the rest of the page is not rendered.
   */
  block?: string | undefined;
  /**
   * The context object was made for this render alone and nobody reads it afterwards: the
   * renderer may use it as the template's variables instead of a copy (a template's `{% set %}`
   * and the renderer's own names then land in it). Without it the caller's object is left as it was.
   */
  fresh?: boolean | undefined;
}

/**
 * Turns a template name and a context into HTML. Templates are looked up by name in the app's
 * views first, then in the framework's built-in templates, so an app replaces a built-in page by
 * adding a file of the same name. Every failure is thrown as a `ViewError`.
 */
export interface ViewRenderer {
  render(template: string, context: Record<string, unknown>, options?: RenderOptions): Promise<string>;
  /** Whether a template of that name exists (used to pick `errors/404.html`, then `errors/default.html`). */
  has(template: string): boolean;
  /**
   * Marks HTML the framework built itself (`csrf_field()`, `fw_head()`) as safe to print
   * without escaping. Never for text that came from a visitor.
   */
  safe(html: string): unknown;
}
