/** The engine's error collection, re-exported where the HTTP forms always found it. */
export { ErrorCollector, WHOLE_FORM } from '../../../application/validation/errors.js';
export type { FieldErrors } from '../../../application/validation/errors.js';
