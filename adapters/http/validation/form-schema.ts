import type { Struct } from 'superstruct';
import type { FieldDeclarations } from '../../../application/validation/declared.js';
import type { ErrorCollector } from './errors.js';
import type { FormContext } from './form-context.js';
import type { Labels } from './labels.js';
import type { Validator } from './validator.js';

/**
 * A form's validation, the spec's `Validate` for TypeScript. Steps run in the spec's order:
 * `prepare` the raw input; `authorize` (false: 403); the `struct` and the `rules` together,
 * so every field's errors show at once; `after`, only when all of those passed.
 */
export interface FormSchema<T> {
  /** Shape and types, with coercion (form fields arrive as text): see `fields.ts`. */
  struct: Struct<T, unknown>;
  /** Tidies the raw input first, e.g. lower-cases an email before `unique` looks it up. */
  prepare?(input: unknown): unknown;
  /** Whether this user may submit the form at all; `input` is the prepared input. */
  authorize?(context: FormContext, input: unknown): boolean | Promise<boolean>;
  /**
   * Rules beyond the types, with `v.field(name)…`. `value` holds what parsed, and the input as
   * sent for fields that did not, plus any extra input (`password_confirmation`).
   */
  rules?(v: Validator, value: Partial<T> & Record<string, unknown>, context: FormContext): void | Promise<void>;
  /** The declarative form of the rules: `{ email: { required: true, email: true } }` (see `declared.ts`). */
  fields?: FieldDeclarations;
  /** Checks across fields once everything else passed; add failures with `errors.add(field, message)`. */
  after?(value: T, errors: ErrorCollector, context: FormContext): void | Promise<void>;
  /** Field names in messages, by path (`address.city`, `tags.*`); see `labels.ts`. */
  labels?: Labels;
  /** The named error bag the errors go to (`error(field, bag='…')` in templates). */
  bag?: string;
}

/** Declares a form; only there so TypeScript infers `T` from the struct for the hooks. */
export function formSchema<T>(schema: FormSchema<T>): FormSchema<T> {
  return schema;
}
