import type { FormatChecks } from '../../domain/validation/format-checks.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { RecordLookup } from '../../ports/record-lookup.js';
import type { Translator } from '../../ports/translator.js';
import type { FormContext } from './form-context.js';
import { validateForm } from './validate-form.js';
import type { FormDefinition, ValidationResult } from './validate-form.js';

/**
 * Validation for code that is not an HTTP handler: a CSV import validating each row, a
 * command validating its options, a job validating its payload. The same rules, steps and
 * messages as `ctx.valid()`; the app's container supplies the database, the hasher, the format
 * checks and the languages (`services.get(TOKENS.formValidation)`).
 *
 *     const result = await forms.validate({ shape, rules: (v) => v.field('email').required().email() }, row, { locale: 'de' });
 */
export class FormValidation {
  constructor(
    private readonly services: {
      records: RecordLookup;
      passwords: Pick<PasswordHasher, 'verify'>;
      formats: FormatChecks;
      translator: Translator;
    },
  ) {}

  validate<T>(
    form: FormDefinition<T>,
    input: unknown,
    options: { user?: FormContext['user']; locale?: string; services?: FormContext['services'] } = {},
  ): Promise<ValidationResult<T>> {
    const { records, passwords, formats, translator } = this.services;
    const context: FormContext = {
      user: options.user ?? null,
      records,
      passwords,
      formats,
      lang: translator.lang(options.locale ?? translator.fallback),
      ...(options.services === undefined ? {} : { services: options.services }),
    };
    return validateForm(form, input, context);
  }
}
