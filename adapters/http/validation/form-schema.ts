import type { Struct } from 'superstruct';
import type { FormDefinition } from '../../../application/validation/validate-form.js';

/**
 * A form's validation over HTTP, the spec's `Validate` for TypeScript: the engine's form
 * (`prepare`, `authorize`, `rules` or the declarative `fields`, `after`, `labels`; see
 * application/validation/validate-form.ts) with its shape given as a superstruct struct, and
 * the error bag the kernel flashes the errors to.
 */
export interface FormSchema<T> extends Omit<FormDefinition<T>, 'shape'> {
  /** Shape and types, with coercion (form fields arrive as text): see `fields.ts`. */
  struct: Struct<T, unknown>;
  /** The named error bag the errors go to (`error(field, bag='…')` in templates). */
  bag?: string;
}

/** Declares a form; only there so TypeScript infers `T` from the struct for the hooks. */
export function formSchema<T>(schema: FormSchema<T>): FormSchema<T> {
  return schema;
}
