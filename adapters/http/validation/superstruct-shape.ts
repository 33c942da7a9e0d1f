import type { Failure, Struct } from 'superstruct';
import type { Shape, ShapeFailureKind, ShapeResult } from '../../../application/validation/shape.js';
import { ruleValues } from './rule-values.js';
import { DOES_NOT_FIT, rootContext, walkerOf } from './struct-walk.js';
import { asUnvalidated } from './unvalidated-reading.js';

/**
 * A superstruct struct as the engine's `Shape`: coercion and types stay superstruct's; a
 * failure becomes a kind the engine has a message for. A field with no value is "required"
 * whatever its type, since blank text is coerced to nothing first. Refinements an app adds
 * to a struct get the general "is invalid"; a specific sentence belongs in `rules()`.
 * `unvalidated` reads the input as the spec's `Form<T>` does: no browser meanings (`on`).
 */
export function superstructShape<T>(struct: Struct<T, unknown>, options: { unvalidated?: boolean } = {}): Shape<T> {
  const walk = walkerOf(struct);
  return {
    parse(sent: unknown): ShapeResult<T> {
      // Read as the unvalidated body, fields take their type's plain meaning (`unvalidated-reading.ts`).
      const input = options.unvalidated === true ? asUnvalidated(sent) : sent;
      // Input that fits takes the direct walk; superstruct's `validate` finds what does not (`struct-walk.ts`).
      const walked = walk(input, rootContext(input));
      if (walked !== DOES_NOT_FIT) return { ok: true, value: walked as T };
      // mask: input the struct does not declare (a CSRF token, `_method`) is dropped, not an error.
      const [failure, value] = struct.validate(input, { coerce: true, mask: true });
      if (failure === undefined) return { ok: true, value };
      const failures = failure.failures().map((each) => ({ path: each.path.map(String).join('.'), kind: failureKind(each) }));
      return { ok: false, failures, values: ruleValues(struct, input, null) };
    },
  };
}

function failureKind(failure: Failure): ShapeFailureKind {
  if (failure.refinement !== undefined) return 'invalid';
  if (failure.value === undefined || failure.value === null) return 'required';
  switch (failure.type) {
    case 'integer':
      return 'integer';
    case 'number':
    case 'bigint':
      return 'number';
    case 'checkbox':
    case 'boolean':
      return 'boolean';
    case 'text':
    case 'string':
      return 'text';
    case 'list':
    case 'array':
    case 'tuple':
      return 'list';
    case 'object':
    case 'type':
    case 'record':
      return 'group';
    case 'oneOf':
    case 'enums':
    case 'literal':
      return 'oneOf';
    default:
      return 'invalid';
  }
}
