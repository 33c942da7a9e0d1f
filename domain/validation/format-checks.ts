/**
 * The format checks the text rules need, answered by a maintained library in an adapter
 * (`adapters/validation/validator-format-checks.ts`, the `validator` package) rather than by
 * hand-written patterns here. Each takes text and answers yes or no, never throws.
 */
export interface FormatChecks {
  email(text: string): boolean;
  url(text: string): boolean;
  uuid(text: string): boolean;
  ulid(text: string): boolean;
  ip(text: string): boolean;
  macAddress(text: string): boolean;
  json(text: string): boolean;
  timezone(text: string): boolean;
  hexColor(text: string): boolean;
  ascii(text: string): boolean;
  /** A number written as text: `12`, `-3.5`, `1e3`. */
  numeric(text: string): boolean;
  /** A whole number written as text: `42`, `-7`. */
  integer(text: string): boolean;
  /** An ISO 8601 date or date-time (`2026-11-24`, `2026-11-24T10:00:00Z`), as milliseconds; null when it is none. */
  date(text: string): number | null;
}
