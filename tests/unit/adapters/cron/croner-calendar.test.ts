import { describe, expect, it } from 'vitest';
import { CronerCalendar } from '../../../../adapters/cron/croner-calendar.js';
import { InvalidCronExpression } from '../../../../ports/cron-calendar.js';

const calendar = new CronerCalendar();

describe('CronerCalendar: the next firing strictly after an instant', () => {
  it.each<[string, string, string, string]>([
    // expression, zone, after, next
    ['* * * * *', 'UTC', '2026-01-01T00:00:00.000Z', '2026-01-01T00:01:00.000Z'],
    ['* * * * *', 'UTC', '2026-01-01T00:00:59.999Z', '2026-01-01T00:01:00.000Z'],
    ['* * * * * *', 'UTC', '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z'],
    ['* * * * * *', 'UTC', '2026-01-01T00:00:00.500Z', '2026-01-01T00:00:01.000Z'],
    ['*/15 * * * * *', 'UTC', '2026-01-01T00:00:14.000Z', '2026-01-01T00:00:15.000Z'],
    ['0 6 * * *', 'UTC', '2026-01-01T06:00:00.000Z', '2026-01-02T06:00:00.000Z'],
    ['0 6 * * *', 'Europe/Berlin', '2026-01-01T00:00:00.000Z', '2026-01-01T05:00:00.000Z'],
    ['0 6 * * *', 'Europe/Berlin', '2026-07-01T00:00:00.000Z', '2026-07-01T04:00:00.000Z'],
    ['0 6 * * *', 'America/New_York', '2026-01-01T12:00:00.000Z', '2026-01-02T11:00:00.000Z'],
    ['0 0 1 1 *', 'UTC', '2026-01-01T00:00:00.000Z', '2027-01-01T00:00:00.000Z'],
    ['0 9 * * 1-5', 'UTC', '2026-11-27T09:00:00.000Z', '2026-11-30T09:00:00.000Z'],
    // Day of month and day of week both restricted: either matches (Vixie cron).
    ['0 0 13 * 5', 'UTC', '2026-02-01T00:00:00.000Z', '2026-02-06T00:00:00.000Z'],
    // Daylight saving in Berlin: 02:30 does not exist on 29 March 2026, so it runs once at the
    // first valid time after the gap (03:00 CEST = 01:00Z); on 25 October 02:30 comes twice and runs once.
    ['30 2 * * *', 'Europe/Berlin', '2026-03-28T12:00:00.000Z', '2026-03-29T01:00:00.000Z'],
    ['30 2 * * *', 'Europe/Berlin', '2026-10-24T12:00:00.000Z', '2026-10-25T00:30:00.000Z'],
    ['30 2 * * *', 'Europe/Berlin', '2026-10-25T00:30:00.000Z', '2026-10-26T01:30:00.000Z'],
  ])('%s in %s after %s → %s', (expression, zone, after, next) => {
    expect(calendar.parse(expression, zone).next(new Date(after))?.toISOString()).toBe(next);
  });

  it('keeps the expression and the zone it was read in', () => {
    const schedule = calendar.parse('0 6 * * *', 'Europe/Berlin');
    expect([schedule.expression, schedule.timeZone]).toEqual(['0 6 * * *', 'Europe/Berlin']);
  });

  it('says when a schedule fires no more (a date in the past)', () => {
    expect(calendar.parse('0 0 30 2 *', 'UTC').next(new Date('2026-01-01T00:00:00Z'))).toBeNull();
  });

  it.each<[string, string, RegExp]>([
    ['61 * * * *', 'UTC', /minute/u],
    ['* * * *', 'UTC', /five, six/u],
    ['* * * * * * *', 'UTC', /Invalid cron expression/u],
    ['every minute', 'UTC', /Invalid cron expression/u],
    ['* * * * *', 'Mars/Olympus', /unknown time zone "Mars\/Olympus"/u],
  ])('refuses %j in %s', (expression, zone, message) => {
    expect(() => calendar.parse(expression, zone)).toThrow(InvalidCronExpression);
    expect(() => calendar.parse(expression, zone)).toThrow(message);
  });
});
