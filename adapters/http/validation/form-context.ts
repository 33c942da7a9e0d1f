/** What validation may know beyond the input: the engine's `FormContext`, which the HTTP kernel fills. */
export type { FormContext } from '../../../application/validation/form-context.js';
