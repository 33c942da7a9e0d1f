/**
 * Turns whatever nunjucks threw into a `ViewError` naming the template and line. The template
 * comes from the tag template-runtime.ts puts on errors, else from nunjucks' "template not
 * found" message, else it is the template that was asked for.
 */
import { ViewError } from '../../../ports/view-renderer.js';
import type { ViewErrorCode } from '../../../ports/view-renderer.js';
import type { TaggedError } from './template-runtime.js';

const NOT_FOUND = /^template not found: (.+)$/;
/** The `(path) [Line 3, Column 5]` lines nunjucks puts in front of a message on its way out. */
const LOCATION_PREFIX = /^(?:\([^\n]*\)(?: \[Line \d+(?:, Column \d+)?\])?\n {1,2})+/;

export function toViewError(error: unknown, requested: string): ViewError {
  if (error instanceof ViewError) return error;
  const tagged = error instanceof Error ? (error as TaggedError) : undefined;
  const detail = innermostMessage(error);
  const missing = NOT_FOUND.exec(detail)?.[1];
  if (missing !== undefined) {
    return new ViewError('view.not-found', `Template '${missing}' not found`, { template: missing, cause: error });
  }
  const code: ViewErrorCode = tagged?.fwCode ?? 'view.failed';
  const template = tagged?.fwTemplate ?? requested;
  const line = positive(tagged?.lineno);
  const column = positive(tagged?.colno);
  const where = line === undefined ? template : `${template}, line ${line}`;
  return new ViewError(code, `${detail} (${where})`, { template, line, column, cause: error });
}

/** The message of the error at the bottom of the `cause` chain, without nunjucks' location lines. */
function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  const message = current instanceof Error ? current.message : String(current);
  return message.replace(LOCATION_PREFIX, '');
}

function positive(value: number | undefined): number | undefined {
  return typeof value === 'number' && value > 0 ? value : undefined;
}
