import type { FormContext } from '../../../application/validation/form-context.js';
import type { Translator } from '../../../ports/translator.js';

/** What validation may know beyond the input: the engine's `FormContext`, which the HTTP kernel fills. */
export type { FormContext };

/**
 * What the kernel shares with every request's validation: all of `FormContext` but the user and
 * the language, which are the request's own (the locale stage picks the language among the
 * translator's).
 */
export type FormServices = Omit<FormContext, 'user' | 'lang'> & { translator: Translator };
