import type { Failure } from 'superstruct';
import type { Messages } from './messages.js';

/**
 * The sentence for one superstruct failure. Superstruct's own messages are written for
 * developers ("Expected a value of type `integer`…"); a visitor gets one chosen by the struct
 * type instead. A field with no value is "required" whatever its type, since blank text is
 * coerced to nothing first. Refinements an app adds to a struct get the general "is
 * invalid"; a specific sentence belongs in `rules()`.
 */
export function failureMessage(failure: Failure, label: string, messages: Messages): string {
  if (failure.refinement !== undefined) return messages.invalid(label);
  if (failure.value === undefined || failure.value === null) return messages.required(label);
  switch (failure.type) {
    case 'integer':
      return messages.notInteger(label);
    case 'number':
    case 'bigint':
      return messages.notNumber(label);
    case 'checkbox':
    case 'boolean':
      return messages.notBoolean(label);
    case 'text':
    case 'string':
      return messages.notText(label);
    case 'list':
    case 'array':
    case 'tuple':
      return messages.notList(label);
    case 'object':
    case 'type':
    case 'record':
      return messages.notGroup(label);
    case 'oneOf':
    case 'enums':
    case 'literal':
      return messages.oneOf(label);
    default:
      return messages.invalid(label);
  }
}
