/**
 * Every sentence validation shows, in one place so an app (or a translation) can replace
 * them as a whole. Each names the field by its label (`password confirmation`, or what the
 * form's `labels` say); the spec leaves the texts open, so these follow the familiar
 * "The … field …" pattern of server-rendered frameworks.
 */

/** What a size rule measures: characters of text, the value of a number, the items of a list. */
export type SizeUnit = 'characters' | 'number' | 'items';

export interface Messages {
  required(field: string): string;
  email(field: string): string;
  min(field: string, limit: number, unit: SizeUnit): string;
  max(field: string, limit: number, unit: SizeUnit): string;
  between(field: string, low: number, high: number, unit: SizeUnit): string;
  confirmed(field: string): string;
  same(field: string, other: string): string;
  different(field: string, other: string): string;
  accepted(field: string): string;
  oneOf(field: string): string;
  matches(field: string): string;
  unique(field: string): string;
  exists(field: string): string;
  currentPassword(field: string): string;
  /** Any other failure, e.g. a refinement an app added to a struct. */
  invalid(field: string): string;
  /** Input that does not parse as the field's type (form text is coerced first). */
  notInteger(field: string): string;
  notNumber(field: string): string;
  notBoolean(field: string): string;
  notText(field: string): string;
  notList(field: string): string;
  notGroup(field: string): string;
}

const sized = (limit: number, unit: SizeUnit): string =>
  unit === 'number' ? `${limit}` : `${limit} ${unit === 'characters' ? 'character' : 'item'}${limit === 1 ? '' : 's'}`;

export const ENGLISH_MESSAGES: Messages = {
  required: (field) => `The ${field} field is required.`,
  email: (field) => `The ${field} field must be a valid email address.`,
  min: (field, limit, unit) => `The ${field} field must ${unit === 'items' ? 'have' : 'be'} at least ${sized(limit, unit)}.`,
  max: (field, limit, unit) =>
    `The ${field} field must ${unit === 'items' ? 'not have more than' : 'not be greater than'} ${sized(limit, unit)}.`,
  between: (field, low, high, unit) =>
    `The ${field} field must ${unit === 'items' ? 'have' : 'be'} between ${low} and ${sized(high, unit)}.`,
  confirmed: (field) => `The ${field} field confirmation does not match.`,
  same: (field, other) => `The ${field} field must match ${other}.`,
  different: (field, other) => `The ${field} field and ${other} must be different.`,
  accepted: (field) => `The ${field} field must be accepted.`,
  oneOf: (field) => `The selected ${field} is invalid.`,
  matches: (field) => `The ${field} field format is invalid.`,
  unique: (field) => `The ${field} has already been taken.`,
  exists: (field) => `The selected ${field} is invalid.`,
  currentPassword: (field) => `The ${field} is incorrect.`,
  invalid: (field) => `The ${field} field is invalid.`,
  notInteger: (field) => `The ${field} field must be a whole number.`,
  notNumber: (field) => `The ${field} field must be a number.`,
  notBoolean: (field) => `The ${field} field must be true or false.`,
  notText: (field) => `The ${field} field must be text.`,
  notList: (field) => `The ${field} field must be a list.`,
  notGroup: (field) => `The ${field} field must be a group of fields.`,
};
