/** Form input after coercion: fields by name, nested groups and lists below them. */
export type FormValues = Readonly<Record<string, unknown>>;

export { isMissing, isRecord, readPath } from '../../../domain/validation/values.js';
