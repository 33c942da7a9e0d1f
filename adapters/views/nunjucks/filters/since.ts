/**
 * `{{ comment.created_at | since }}`: how long ago (or how far ahead) a moment is, in words:
 * 'just now', '3 minutes ago', 'in 2 days'. Values are rounded to the nearest unit, with the
 * usual cut-overs (45 seconds is a minute, 45 minutes an hour, 22 hours a day, 26 days a
 * month, 320 days a year), so '1 month ago' never reads as '30 days ago'.
 */
import { safeLocale } from './locale.js';
import { toDate } from './to-date.js';
import { toText } from './to-text.js';

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const MONTH = 30.436875 * DAY;
const YEAR = 365.2425 * DAY;

/** Each unit is used from `from` (absolute milliseconds) up to the next unit's threshold. */
const UNITS: ReadonlyArray<{ unit: Intl.RelativeTimeFormatUnit; size: number; from: number }> = [
  { unit: 'year', size: YEAR, from: 320 * DAY },
  { unit: 'month', size: MONTH, from: 26 * DAY },
  { unit: 'day', size: DAY, from: 22 * HOUR },
  { unit: 'hour', size: HOUR, from: 45 * MINUTE },
  { unit: 'minute', size: MINUTE, from: 45 * SECOND },
];

export function timeSince(value: unknown, now: Date, locale = 'en'): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (date === undefined) return toText(value);
  const elapsed = now.getTime() - date.getTime();
  const distance = Math.abs(elapsed);
  const format = new Intl.RelativeTimeFormat(safeLocale(locale), { numeric: 'always' });
  for (const { unit, size, from } of UNITS) {
    if (distance < from) continue;
    const count = Math.max(1, Math.round(distance / size));
    return format.format(elapsed > 0 ? -count : count, unit);
  }
  return justNow(safeLocale(locale));
}

/** English says 'just now'; other languages get their own word for "now". */
function justNow(locale: string): string {
  if (locale === 'en' || locale.startsWith('en-')) return 'just now';
  return new Intl.RelativeTimeFormat(locale, { numeric: 'auto' }).format(0, 'second');
}
