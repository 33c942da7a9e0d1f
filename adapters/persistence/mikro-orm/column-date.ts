/** A date column as a driver returns it: SQLite gives the epoch milliseconds written (number or text), PostgreSQL a Date. */
export type DateColumn = Date | number | string;

export function dateFromColumn(value: DateColumn): Date {
  if (value instanceof Date) return value;
  return new Date(typeof value === 'string' && /^\d+$/u.test(value) ? Number(value) : value);
}
