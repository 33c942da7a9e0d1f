import { InMemoryRecordLookup } from '../../../../adapters/persistence/memory/in-memory-record-lookup.js';
import { validatorFormatChecks } from '../../../../adapters/validation/validator-format-checks.js';
import type { FieldErrors } from '../../../../application/validation/errors.js';
import type { FieldDeclarations } from '../../../../application/validation/declared.js';
import type { FieldRules } from '../../../../application/validation/field-rules.js';
import type { FormContext } from '../../../../application/validation/form-context.js';
import type { Shape } from '../../../../application/validation/shape.js';
import { validateForm } from '../../../../application/validation/validate-form.js';
import type { Validator } from '../../../../application/validation/validator.js';
import type { Lang } from '../../../../domain/lang/lang.js';
import { english } from '../../../support/lang.js';

/** A shape that takes the input as it is: the engine's rules alone, as a CSV row or a job would use them. */
export const asIs: Shape<Record<string, unknown>> = { parse: (input) => ({ ok: true, value: input as Record<string, unknown> }) };

export function context(overrides: Partial<FormContext> = {}): FormContext {
  const records = new InMemoryRecordLookup(['users']);
  records.insert('users', { id: 1, email: 'ada@example.com' });
  return {
    user: { id: 1, passwordHash: 'hashed:secret' },
    records,
    passwords: { verify: (hash, plain) => Promise.resolve(hash === `hashed:${plain}`) },
    formats: validatorFormatChecks,
    lang: english,
    ...overrides,
  };
}

export async function errorsOf(input: unknown, rules: (v: Validator) => void, lang: Lang = english): Promise<FieldErrors> {
  const result = await validateForm({ shape: asIs, rules }, input, context({ lang }));
  if (result.kind === 'forbidden') throw new Error('unexpectedly forbidden');
  return result.kind === 'invalid' ? result.errors : {};
}

export async function declaredErrorsOf(input: unknown, fields: FieldDeclarations, lang: Lang = english): Promise<FieldErrors> {
  const result = await validateForm({ shape: asIs, fields }, input, context({ lang }));
  if (result.kind === 'forbidden') throw new Error('unexpectedly forbidden');
  return result.kind === 'invalid' ? result.errors : {};
}

/** The messages of field `x` under one chain. */
export async function messagesOf(input: Record<string, unknown>, chain: (rules: FieldRules) => void, lang: Lang = english): Promise<string[]> {
  return (await errorsOf(input, (v) => chain(v.field('x')), lang))['x'] ?? [];
}
