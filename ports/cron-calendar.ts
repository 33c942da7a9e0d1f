import type { NextFiring } from '../domain/scheduling/slots.js';
import { FrameworkError } from '../domain/shared/errors.js';

/** A cron expression that was understood, in the time zone it was read in. */
export interface CronSchedule {
  readonly expression: string;
  readonly timeZone: string;
  /** The first firing strictly after `after`, or null when the expression never fires again. */
  readonly next: NextFiring;
}

/**
 * Reads cron expressions: five fields (minute hour day month weekday) or six with seconds
 * first. `parse` throws `InvalidCronExpression` for one it cannot read, or an unknown zone.
 */
export interface CronCalendar {
  parse(expression: string, timeZone: string): CronSchedule;
}

export class InvalidCronExpression extends FrameworkError {
  constructor(
    readonly expression: string,
    reason: string,
  ) {
    super('schedule.bad-cron', `Invalid cron expression ${JSON.stringify(expression)}: ${reason}`);
  }
}
