/**
 * `{{ order.created_at | date('%d %b %Y, %H:%M') }}` with strftime tokens:
 * %Y %y %m %d %e %j %H %I %M %S %p %a %A %b %B and %% (a literal %). Unknown tokens are left
 * as written. Times are shown in UTC unless a timezone (an IANA name such as
 * `Europe/Berlin`, the app's APP_TIMEZONE) is given; day and month names follow the locale.
 * A missing value prints nothing and a value that is not a date is printed as given.
 */
import { safeLocale } from './locale.js';
import { toDate } from './to-date.js';
import { toText } from './to-text.js';

export interface DateFormatOptions {
  timezone?: string | undefined;
  locale?: string | undefined;
}

/** The calendar fields of an instant as seen in one timezone. */
interface Fields {
  year: number;
  month: number; // 1-12
  day: number;
  hour: number;
  minute: number;
  second: number;
}

export function formatDate(value: unknown, format = '%Y-%m-%d', options: DateFormatOptions = {}): string {
  if (value === null || value === undefined || value === '') return '';
  const date = toDate(value);
  if (date === undefined) return toText(value);
  const timezone = options.timezone ?? 'UTC';
  const locale = safeLocale(options.locale);
  const fields = fieldsIn(date, timezone);
  const name = (style: Intl.DateTimeFormatOptions): string =>
    dateFormat(locale, { ...style, timeZone: timezone }).format(date);

  return format.replace(/%([a-zA-Z%])/g, (token, letter: string) => {
    switch (letter) {
      case 'Y': return String(fields.year);
      case 'y': return pad(fields.year % 100);
      case 'm': return pad(fields.month);
      case 'd': return pad(fields.day);
      case 'e': return String(fields.day).padStart(2, ' ');
      case 'j': return String(dayOfYear(fields)).padStart(3, '0');
      case 'H': return pad(fields.hour);
      case 'I': return pad(fields.hour % 12 === 0 ? 12 : fields.hour % 12);
      case 'M': return pad(fields.minute);
      case 'S': return pad(fields.second);
      case 'p': return fields.hour < 12 ? 'AM' : 'PM';
      case 'a': return name({ weekday: 'short' });
      case 'A': return name({ weekday: 'long' });
      case 'b': return name({ month: 'short' });
      case 'B': return name({ month: 'long' });
      case '%': return '%';
      default: return token;
    }
  });
}

function fieldsIn(date: Date, timezone: string): Fields {
  if (timezone === 'UTC') {
    return {
      year: date.getUTCFullYear(),
      month: date.getUTCMonth() + 1,
      day: date.getUTCDate(),
      hour: date.getUTCHours(),
      minute: date.getUTCMinutes(),
      second: date.getUTCSeconds(),
    };
  }
  const parts = dateFormat('en-US', {
    timeZone: timezone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
  }).formatToParts(date);
  const part = (type: Intl.DateTimeFormatPartTypes): number =>
    Number(parts.find((candidate) => candidate.type === type)?.value ?? 0);
  return {
    year: part('year'),
    month: part('month'),
    day: part('day'),
    hour: part('hour'),
    minute: part('minute'),
    second: part('second'),
  };
}

/** Formats are costly to build and a table prints many dates, so each is made once. */
const formats = new Map<string, Intl.DateTimeFormat>();

function dateFormat(locale: string, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${locale}|${JSON.stringify(options)}`;
  let format = formats.get(key);
  if (format === undefined) {
    format = new Intl.DateTimeFormat(locale, options);
    formats.set(key, format);
  }
  return format;
}

function dayOfYear(fields: Fields): number {
  const start = Date.UTC(fields.year, 0, 1);
  return Math.round((Date.UTC(fields.year, fields.month - 1, fields.day) - start) / 86_400_000) + 1;
}

function pad(value: number): string {
  return toText(value).padStart(2, '0');
}
