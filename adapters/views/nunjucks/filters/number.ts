/**
 * `{{ total | number }}` → `1,234`; `{{ ratio | number(2) }}` → `0.50`. Grouping and the
 * decimal mark follow the locale. A value that is not a number is printed as given, so bad
 * data shows up instead of turning into `0`.
 */
import { safeLocale } from './locale.js';
import { toText } from './to-text.js';

const formats = new Map<string, Intl.NumberFormat>();

export function formatNumber(value: unknown, decimals = 0, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  if (!Number.isFinite(number)) return toText(value);
  return numberFormat(locale, Math.min(Math.max(Math.trunc(decimals), 0), 20)).format(number);
}

/** Formats are costly to build and used on every row of a table, so each is made once. */
function numberFormat(locale: string, decimals: number): Intl.NumberFormat {
  const key = `${locale}|${decimals}`;
  let format = formats.get(key);
  if (format === undefined) {
    const options = { minimumFractionDigits: decimals, maximumFractionDigits: decimals };
    format = new Intl.NumberFormat(safeLocale(locale), options);
    formats.set(key, format);
  }
  return format;
}
