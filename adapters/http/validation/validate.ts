import { ErrorCollector, WHOLE_FORM } from './errors.js';
import type { FieldErrors } from './errors.js';
import { failureMessage } from './failure-messages.js';
import type { FormContext } from './form-context.js';
import type { FormSchema } from './form-schema.js';
import { labelFor } from './labels.js';
import { ENGLISH_MESSAGES } from './messages.js';
import type { Messages } from './messages.js';
import { ruleValues } from './rule-values.js';
import { Validator } from './validator.js';

export type ValidationResult<T> =
  | { kind: 'valid'; value: T }
  | { kind: 'invalid'; errors: FieldErrors }
  | { kind: 'forbidden' };

/**
 * Runs a form's steps on the input (a form body, a JSON body or a GET query): `prepare`,
 * `authorize`, then the struct and the rules together, then `after`. Errors are keyed by
 * field path with dots (`address.city`, `tags.0`); input that is not an object at all is
 * reported under `WHOLE_FORM`.
 */
export async function validate<T>(
  schema: FormSchema<T>,
  input: unknown,
  context: FormContext,
  messages: Messages = ENGLISH_MESSAGES,
): Promise<ValidationResult<T>> {
  const prepared = schema.prepare === undefined ? input : schema.prepare(input);
  if (schema.authorize !== undefined && !(await schema.authorize(context, prepared))) return { kind: 'forbidden' };

  const labelOf = (field: string): string => labelFor(field, schema.labels);
  const errors = new ErrorCollector();

  // mask: input the struct does not declare (a CSRF token, `_method`) is dropped, not an error.
  const [failure, value] = schema.struct.validate(prepared, { coerce: true, mask: true });
  const failures = failure?.failures() ?? [];
  const whole = failures.filter((each) => each.path.length === 0);
  if (whole.length > 0) {
    // Not a form at all (a JSON list, a string): its "fields" would only be noise.
    for (const each of whole) errors.add(WHOLE_FORM, failureMessage(each, labelOf(WHOLE_FORM), messages));
    return { kind: 'invalid', errors: errors.toRecord() };
  }
  const unparsed = new Set<string>();
  for (const each of failures) {
    const field = each.path.map(String).join('.');
    unparsed.add(field);
    errors.add(field, failureMessage(each, labelOf(field), messages));
  }

  if (schema.rules !== undefined) {
    const values = ruleValues(schema.struct, prepared, failure === undefined ? { value } : null);
    const validator = new Validator({ values, context, messages, labelOf }, unparsed);
    await schema.rules(validator, values as Partial<T> & Record<string, unknown>, context);
    await validator.run(errors);
  }
  // (`failure` is checked too so TypeScript knows `value` is a T below.)
  if (!errors.isEmpty() || failure !== undefined) return { kind: 'invalid', errors: errors.toRecord() };

  await schema.after?.(value, errors, context);
  return errors.isEmpty() ? { kind: 'valid', value } : { kind: 'invalid', errors: errors.toRecord() };
}
