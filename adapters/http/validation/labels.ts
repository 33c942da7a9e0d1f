/** Field labels of the engine, re-exported where the HTTP forms always found them. */
export { labelFor } from '../../../application/validation/labels.js';
export type { Labels } from '../../../application/validation/labels.js';
