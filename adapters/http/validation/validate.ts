import type { Lang } from '../../../domain/lang/lang.js';
import type { FormContext } from '../../../application/validation/form-context.js';
import { validateForm } from '../../../application/validation/validate-form.js';
import type { FormDefinition, ValidationResult } from '../../../application/validation/validate-form.js';
import type { FormSchema } from './form-schema.js';
import { superstructShape } from './superstruct-shape.js';

export type { ValidationResult } from '../../../application/validation/validate-form.js';

/** Each schema's engine form, made once: the shape compiles the struct's walk (`struct-walk.ts`). */
const forms = new WeakMap<object, object>();

/**
 * Runs a form's steps on the input (a form body, a JSON body or a GET query) with the engine
 * of application/validation; the struct gives shape and coercion. Errors are keyed by field
 * path with dots (`address.city`, `tags.0`); input that is not an object at all is reported
 * under `WHOLE_FORM`. Messages are in `lang` when given, else in the context's language.
 */
export function validate<T>(schema: FormSchema<T>, input: unknown, context: FormContext, lang?: Lang): Promise<ValidationResult<T>> {
  let form = forms.get(schema) as FormDefinition<T> | undefined;
  if (form === undefined) {
    form = { ...schema, shape: superstructShape(schema.struct) };
    forms.set(schema, form);
  }
  return validateForm(form, input, lang === undefined ? context : { ...context, lang });
}
