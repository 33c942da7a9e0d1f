/**
 * Binds the spec's filters to a nunjucks environment. The filters themselves are pure
 * functions (filters/); this file only reads what they need from the render context, which
 * nunjucks passes as `this`: `app.locale`, `app.timezone` and `now` (a fixed time for tests
 * and previews; the clock otherwise).
 */
import nunjucks from 'nunjucks';
import type { Environment } from 'nunjucks';
import { formatDate } from './filters/date.js';
import { renderMarkdown } from './filters/markdown.js';
import { formatMoney } from './filters/money.js';
import { formatNumber } from './filters/number.js';
import { sanitizeRichText } from './filters/rich-text.js';
import { timeSince } from './filters/since.js';
import { toDate } from './filters/to-date.js';
import { firstWords } from './filters/words.js';

/** What nunjucks binds `this` to when it calls a filter. */
interface FilterThis {
  lookup(name: string): unknown;
}

export function registerFilters(env: Environment): void {
  env.addFilter('number', function (this: FilterThis, value: unknown, decimals?: unknown) {
    return formatNumber(value, integer(decimals, 0), appSetting(this, 'locale'));
  });
  env.addFilter('date', function (this: FilterThis, value: unknown, format?: unknown, timezone?: unknown) {
    return formatDate(value, typeof format === 'string' ? format : undefined, {
      timezone: typeof timezone === 'string' ? timezone : appSetting(this, 'timezone'),
      locale: appSetting(this, 'locale'),
    });
  });
  env.addFilter('since', function (this: FilterThis, value: unknown) {
    return timeSince(value, toDate(this.lookup('now')) ?? new Date(), appSetting(this, 'locale'));
  });
  env.addFilter('money', function (this: FilterThis, value: unknown, options?: unknown) {
    // nunjucks passes named arguments (`money(currency='EUR', divide_by=1)`) as one object.
    const named = typeof options === 'object' && options !== null ? (options as Record<string, unknown>) : {};
    const currency = typeof named['currency'] === 'string' ? named['currency'] : appSetting(this, 'currency');
    const divideBy = typeof named['divide_by'] === 'number' ? named['divide_by'] : undefined;
    return formatMoney(value, { currency, locale: appSetting(this, 'locale'), divideBy });
  });
  env.addFilter('words', (text: unknown, count?: unknown) => firstWords(text, integer(count, 30)));
  env.addFilter('markdown', (text: unknown) => new nunjucks.runtime.SafeString(renderMarkdown(text)));
  env.addFilter('rich_text', (html: unknown) => new nunjucks.runtime.SafeString(sanitizeRichText(html)));
}

function appSetting(context: FilterThis, key: 'locale' | 'timezone' | 'currency'): string | undefined {
  const app = context.lookup('app');
  if (typeof app !== 'object' || app === null) return undefined;
  const value = (app as Record<string, unknown>)[key];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function integer(value: unknown, fallback: number): number {
  const number = typeof value === 'number' ? value : typeof value === 'string' ? Number(value) : Number.NaN;
  return Number.isFinite(number) ? Math.trunc(number) : fallback;
}
