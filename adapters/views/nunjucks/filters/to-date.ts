/**
 * The date values templates hand to `date` and `since`: a `Date`, an ISO 8601 string or epoch
 * milliseconds. Anything else, or an invalid date, is `undefined`, and the filters decide what
 * to print for it.
 */
export function toDate(value: unknown): Date | undefined {
  let date: Date | undefined;
  if (value instanceof Date) date = value;
  else if (typeof value === 'number') date = new Date(value);
  else if (typeof value === 'string' && value.trim() !== '') date = new Date(value.trim());
  return date !== undefined && !Number.isNaN(date.getTime()) ? date : undefined;
}
