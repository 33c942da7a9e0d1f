/**
 * `{{ order.total_cents | money }}` → `$19.99`: an amount in cents (the smallest unit, so sums
 * stay whole numbers), shown in APP_CURRENCY with the locale's symbol placement and marks
 * (`19,99 €` in German). `money(currency='EUR')` picks another currency; `money(divide_by=1)`
 * takes an amount already in whole units. A value that is no number is printed as given.
 */
import { safeLocale } from './locale.js';
import { toText } from './to-text.js';

const formats = new Map<string, Intl.NumberFormat>();

export function formatMoney(value: unknown, options: { currency?: string | undefined; locale?: string | undefined; divideBy?: number | undefined } = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const amount = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  const divideBy = options.divideBy !== undefined && Number.isFinite(options.divideBy) && options.divideBy > 0 ? options.divideBy : 100;
  if (!Number.isFinite(amount)) return toText(value);
  const format = moneyFormat(safeLocale(options.locale), options.currency ?? 'USD');
  return format === null ? toText(value) : format.format(amount / divideBy);
}

/** One format per locale and currency; null for a currency code `Intl` refuses. */
function moneyFormat(locale: string, currency: string): Intl.NumberFormat | null {
  const key = `${locale}|${currency}`;
  let format = formats.get(key);
  if (format === undefined) {
    try {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency });
    } catch {
      return null;
    }
    formats.set(key, format);
  }
  return format;
}
