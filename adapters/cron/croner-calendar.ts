import { Cron } from 'croner';
import type { CronCalendar, CronSchedule } from '../../ports/cron-calendar.js';
import { InvalidCronExpression } from '../../ports/cron-calendar.js';

/**
 * Cron expressions through croner (no dependencies, time zones through Intl, seconds as an
 * optional sixth field). Five fields fire at second 0; six put seconds first. Day of month and
 * day of week combine with OR when both are restricted, as in Vixie cron and Laravel. Across a
 * daylight-saving change croner runs a fixed-time job once: in a skipped hour at the first
 * valid time after it, in a repeated hour on its first occurrence.
 */
export class CronerCalendar implements CronCalendar {
  parse(expression: string, timeZone: string): CronSchedule {
    if (!validTimeZone(timeZone)) throw new InvalidCronExpression(expression, `unknown time zone ${JSON.stringify(timeZone)}`);
    let cron: Cron;
    try {
      // No function: croner only computes times, it starts no timer.
      cron = new Cron(expression, { timezone: timeZone, mode: '5-or-6-parts', paused: true });
    } catch (error) {
      throw new InvalidCronExpression(expression, error instanceof Error ? error.message : String(error));
    }
    return {
      expression,
      timeZone,
      // croner's nextRun is "strictly after" at second precision: the start is rounded up to
      // the next whole second first, so a start of 12:00:00.500 never yields 12:00:00.
      next: (after) => cron.nextRun(new Date(Math.floor(after.getTime() / 1000) * 1000)),
    };
  }
}

function validTimeZone(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone });
    return true;
  } catch {
    return false;
  }
}
