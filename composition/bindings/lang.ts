import { validatorFormatChecks } from '../../adapters/validation/validator-format-checks.js';
import { FormValidation } from '../../application/validation/form-validation.js';
import type { Translator } from '../../ports/translator.js';
import { createTranslator } from '../views.js';
import { CORE_TOKENS as C } from './core.js';
import { DATA_TOKENS } from './data.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { USER_TOKENS } from './users.js';

/** The app's languages, and validation with their messages. */
export const LANG_TOKENS = {
  /** The app's languages: `resources/lang/<locale>.json` over the framework's `templates/lang/`. */
  translator: token<Translator>('Translator'),
  /** Validation outside HTTP (CSV rows, commands, jobs): the same rules and messages as `ctx.valid()`. */
  formValidation: token<FormValidation>('FormValidation'),
} as const;

export function bindLang({ container }: Binding): void {
  provide(container, LANG_TOKENS.translator, [C.config], (config) => createTranslator(config, config.root));
  provide(
    container,
    LANG_TOKENS.formValidation,
    [DATA_TOKENS.recordLookup, USER_TOKENS.passwordHasher, LANG_TOKENS.translator],
    (records, passwords, translator) => new FormValidation({ records, passwords, formats: validatorFormatChecks, translator }),
  );
}
