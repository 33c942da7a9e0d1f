/**
 * The chained rule API (`v.field('email').required().email()`) is the engine's, in
 * application/validation: the same rules serve HTTP forms, CSV rows, commands and jobs.
 */
export { FieldRules } from '../../../application/validation/field-rules.js';
export { Validator } from '../../../application/validation/validator.js';
