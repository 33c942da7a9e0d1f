import { object } from 'superstruct';
import { validatorFormatChecks } from '../../../../adapters/validation/validator-format-checks.js';
import { english } from '../../../support/lang.js';
import { InMemoryRecordLookup } from '../../../../adapters/persistence/memory/in-memory-record-lookup.js';
import type { FieldErrors } from '../../../../adapters/http/validation/errors.js';
import type { FormContext } from '../../../../adapters/http/validation/form-context.js';
import type { FormSchema } from '../../../../adapters/http/validation/form-schema.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { validate } from '../../../../adapters/http/validation/validate.js';
import type { Validator } from '../../../../adapters/http/validation/validator.js';

/** A verifier that needs no hashing: the hash of `secret` is `hashed:secret`. */
export const fakePasswords = {
  verify: (hash: string, plain: string): Promise<boolean> => Promise.resolve(hash === `hashed:${plain}`),
};

export function formContext(overrides: Partial<FormContext> = {}): FormContext {
  return { user: null, records: new InMemoryRecordLookup(['users']), passwords: fakePasswords, formats: validatorFormatChecks, lang: english, ...overrides };
}

/** The errors of a schema, or `{}` when the input is valid; a refusal fails the test. */
export async function errorsOf<T>(schema: FormSchema<T>, input: unknown, context = formContext()): Promise<FieldErrors> {
  const result = await validate(schema, input, context);
  if (result.kind === 'forbidden') throw new Error('unexpectedly forbidden');
  return result.kind === 'invalid' ? result.errors : {};
}

/** The errors the rules alone give on the input as sent (a struct that declares no field). */
export function ruleErrors(input: Record<string, unknown>, rules: (v: Validator) => void, context = formContext()): Promise<FieldErrors> {
  return errorsOf(formSchema({ struct: object({}), rules: (v) => rules(v) }), input, context);
}
