import { describe, expect, it } from 'vitest';
import { formatDate } from '../../../adapters/views/nunjucks/filters/date.js';
import type { DateFormatOptions } from '../../../adapters/views/nunjucks/filters/date.js';
import { renderMarkdown } from '../../../adapters/views/nunjucks/filters/markdown.js';
import { formatMoney } from '../../../adapters/views/nunjucks/filters/money.js';
import { formatNumber } from '../../../adapters/views/nunjucks/filters/number.js';
import { timeSince } from '../../../adapters/views/nunjucks/filters/since.js';
import { firstWords } from '../../../adapters/views/nunjucks/filters/words.js';
import { rendererFor } from './app-views.js';

describe('number', () => {
  it.each<[unknown, number | undefined, string | undefined, string]>([
    [1234567, undefined, undefined, '1,234,567'],
    [1234.5, 2, undefined, '1,234.50'],
    ['1234.5', 1, undefined, '1,234.5'],
    [1234.56, 0, undefined, '1,235'],
    [-9876.5, 1, 'en', '-9,876.5'],
    [1234567.891, 2, 'de', '1.234.567,89'],
    [1234567, 0, 'fr', '1\u202f234\u202f567'],
    [1234, 0, 'not a locale!', '1,234'],
    [0, 2, 'en', '0.00'],
    [null, 2, 'en', ''],
    [undefined, 0, 'en', ''],
    ['n/a', 0, 'en', 'n/a'],
  ])('%j with %j decimals in %s is %j', (value, decimals, locale, expected) => {
    expect(formatNumber(value, decimals, locale)).toBe(expected);
  });
});

describe('date', () => {
  const moment = new Date(Date.UTC(2024, 2, 5, 14, 7, 9)); // Tuesday 5 March 2024, 14:07:09 UTC

  it.each<[unknown, string | undefined, DateFormatOptions, string]>([
    [moment, undefined, {}, '2024-03-05'],
    [moment, '%d/%m/%y %H:%M:%S', {}, '05/03/24 14:07:09'],
    [moment, '%a %A %b %B', {}, 'Tue Tuesday Mar March'],
    [moment, '[%e] day %j', {}, '[ 5] day 065'],
    [moment, '%I:%M %p', {}, '02:07 PM'],
    [new Date(Date.UTC(2024, 0, 1, 0, 30)), '%I:%M %p', {}, '12:30 AM'],
    [moment, '100%% on %Y, %Q stays', {}, '100% on 2024, %Q stays'],
    ['2024-03-05T14:07:09Z', '%Y-%m-%d %H:%M', {}, '2024-03-05 14:07'],
    [moment.getTime(), '%Y-%m-%d %H:%M', {}, '2024-03-05 14:07'],
    [moment, '%Y-%m-%d %H:%M', { timezone: 'America/New_York' }, '2024-03-05 09:07'],
    [new Date(Date.UTC(2024, 11, 31, 20)), '%Y-%m-%d %H:%M day %j', { timezone: 'Asia/Tokyo' }, '2025-01-01 05:00 day 001'],
    [moment, '%e %B %Y', { locale: 'de' }, ' 5 März 2024'],
    [null, undefined, {}, ''],
    ['', undefined, {}, ''],
    ['not a date', undefined, {}, 'not a date'],
  ])('%j formatted as %j with %j is %j', (value, format, options, expected) => {
    expect(formatDate(value, format, options)).toBe(expected);
  });
});

describe('since', () => {
  const now = new Date('2024-03-05T12:00:00Z');
  const at = (milliseconds: number): Date => new Date(now.getTime() + milliseconds);
  const SECOND = 1000;
  const MINUTE = 60 * SECOND;
  const HOUR = 60 * MINUTE;
  const DAY = 24 * HOUR;

  it.each<[unknown, string, string]>([
    [at(-10 * SECOND), 'en', 'just now'],
    [at(10 * SECOND), 'en', 'just now'],
    [at(-50 * SECOND), 'en', '1 minute ago'],
    [at(-3 * MINUTE), 'en', '3 minutes ago'],
    [at(-2 * HOUR), 'en', '2 hours ago'],
    [at(-23 * HOUR), 'en', '1 day ago'],
    [at(2 * DAY), 'en', 'in 2 days'],
    [at(-45 * DAY), 'en', '1 month ago'],
    [at(-400 * DAY), 'en', '1 year ago'],
    ['2024-03-05T11:57:00Z', 'en', '3 minutes ago'],
    [now.getTime() - 3 * MINUTE, 'en', '3 minutes ago'],
    [at(-3 * MINUTE), 'de', 'vor 3 Minuten'],
    [null, 'en', ''],
    ['soon', 'en', 'soon'],
  ])('%j in %s reads %j', (value, locale, expected) => {
    expect(timeSince(value, now, locale)).toBe(expected);
  });
});

describe('words', () => {
  it.each<[unknown, number | undefined, string]>([
    ['one two three four', 2, 'one two…'],
    ['one two', 2, 'one two'],
    ['  one   two  ', 5, 'one   two'],
    ['one\ntwo three', 2, 'one two…'],
    ['one two', 0, '…'],
    [null, 3, ''],
    [Array.from({ length: 40 }, (_, index) => `w${index}`).join(' '), undefined, `${Array.from({ length: 30 }, (_, index) => `w${index}`).join(' ')}…`],
  ])('%j cut at %j words is %j', (text, count, expected) => {
    expect(firstWords(text, count)).toBe(expected);
  });
});

describe('markdown', () => {
  it.each<[string, string]>([
    ['**bold** and _em_', '<p><strong>bold</strong> and <em>em</em></p>\n'],
    ['[docs](https://example.com/docs)', '<p><a href="https://example.com/docs" rel="nofollow noopener">docs</a></p>\n'],
    ['see https://example.com', '<p>see <a href="https://example.com" rel="nofollow noopener">https://example.com</a></p>\n'],
    ['<script>alert(1)</script>', '<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n'],
    ['<img src=x onerror=alert(1)>', '<p>&lt;img src=x onerror=alert(1)&gt;</p>\n'],
  ])('%j renders as %j', (text, expected) => {
    expect(renderMarkdown(text)).toBe(expected);
  });

  it.each([
    '[click](javascript:alert(1))',
    '[click](JaVaScRiPt:alert(1))',
    '[click](jav&#x61;script:alert(1))',
    '[click]( javascript:alert(1) )',
    '<javascript:alert(1)>',
    '![pic](javascript:alert(1))',
    '[click](vbscript:msgbox(1))',
    '[click](data:text/html;base64,PHNjcmlwdD4=)',
  ])('refuses the script URL in %j', (text) => {
    const html = renderMarkdown(text);
    expect(html).not.toMatch(/href=|src=/);
    expect(html).not.toMatch(/<a |<img /);
  });

  it('prints nothing for a missing text', () => {
    expect(renderMarkdown(undefined)).toBe('');
  });
});

describe('filters in templates', () => {
  const renderer = (): ReturnType<typeof rendererFor> =>
    rendererFor({
      'number.html': '{{ amount | number }}|{{ amount | number(2) }}',
      'date.html': '{{ when | date }}|{{ when | date("%H:%M") }}|{{ when | date("%H:%M", "Asia/Tokyo") }}',
      'since.html': '{{ when | since }}',
      'words.html': '{{ text | words(2) }}',
      'markdown.html': '{{ body | markdown }}',
    }, { debug: true });
  const when = '2024-03-05T14:07:09Z';

  it('formats numbers in the locale of the app', async () => {
    expect(await renderer().render('number.html', { amount: 1234.5 })).toBe('1,235|1,234.50');
    expect(await renderer().render('number.html', { amount: 1234.5, app: { locale: 'de' } })).toBe('1.235|1.234,50');
  });

  it("formats dates in UTC, in the app's timezone, or in the one given", async () => {
    expect(await renderer().render('date.html', { when })).toBe('2024-03-05|14:07|23:07');
    expect(await renderer().render('date.html', { when, app: { timezone: 'Europe/Berlin' } })).toBe('2024-03-05|15:07|23:07');
  });

  it('counts since the `now` of the render context', async () => {
    expect(await renderer().render('since.html', { when, now: '2024-03-05T14:10:09Z' })).toBe('3 minutes ago');
    expect(await renderer().render('since.html', { when, now: '2024-03-03T14:07:09Z', app: { locale: 'en' } })).toBe('in 2 days');
  });

  it('escapes the words of a text, and prints markdown HTML without escaping it again', async () => {
    expect(await renderer().render('words.html', { text: '<b>one</b> two three' })).toBe('&lt;b&gt;one&lt;/b&gt; two…');
    expect(await renderer().render('markdown.html', { body: '*hi* <b>you</b>' })).toBe('<p><em>hi</em> &lt;b&gt;you&lt;/b&gt;</p>\n');
  });
});

describe('money', () => {
  it.each<[unknown, Parameters<typeof formatMoney>[1], string]>([
    [1999, { currency: 'USD', locale: 'en' }, '$19.99'],
    [1999, { currency: 'EUR', locale: 'de' }, '19,99\u00a0€'],
    [-250, { currency: 'GBP', locale: 'en-GB' }, '-£2.50'],
    [5, { currency: 'JPY', locale: 'ja', divideBy: 1 }, '￥5'],
    [1999, {}, '$19.99'],
    ['1999', { currency: 'USD' }, '$19.99'],
    ['not money', { currency: 'USD' }, 'not money'],
    [1999, { currency: 'NOPE' }, '1999'],
    [null, {}, ''],
  ])('%j with %j is %j', (value, options, expected) => {
    expect(formatMoney(value, options)).toBe(expected);
  });

  it('uses APP_CURRENCY (app.currency) and the locale in templates; currency= and divide_by= override', async () => {
    const renderer = rendererFor({ 'money.html': "{{ cents | money }}|{{ cents | money(currency='EUR') }}|{{ 12 | money(divide_by=1) }}" }, { debug: true });
    expect(await renderer.render('money.html', { cents: 123456, app: { currency: 'USD', locale: 'en' } })).toBe('$1,234.56|€1,234.56|$12.00');
    expect(await renderer.render('money.html', { cents: 123456, app: { currency: 'EUR', locale: 'de' } })).toBe('1.234,56\u00a0€|1.234,56\u00a0€|12,00\u00a0€');
  });
});
