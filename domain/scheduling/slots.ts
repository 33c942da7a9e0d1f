import { FrameworkError, OutOfRangeError } from '../shared/errors.js';
/**
 * When a schedule fires: the first firing strictly after `after`, or null when it never fires
 * again. A cron library gives one (`CronCalendar` in ports/); the rules below only walk it.
 */
export type NextFiring = (after: Date) => Date | null;

/** The firings a scheduler tick owes, oldest first, and how many older ones it gave up on. */
export interface DueSlots {
  slots: Date[];
  /** Firings in the window older than the `limit` newest: a process that stalled that long skips them. */
  skipped: number;
}

/**
 * Every firing in the window (since, until], oldest first, at most `limit` of them (the newest
 * ones: a scheduler that fell far behind catches up on the recent past, not on all of it).
 * `since` is exclusive so that consecutive windows never share a slot; `until` is inclusive so
 * that a tick at the exact firing instant runs it.
 */
export function dueSlots(next: NextFiring, since: Date, until: Date, limit: number): DueSlots {
  if (!Number.isSafeInteger(limit) || limit < 1) throw new OutOfRangeError('schedule.bad-limit', `limit must be a positive whole number, got ${limit}`);
  const slots: Date[] = [];
  let skipped = 0;
  for (let at = next(since); at !== null && at.getTime() <= until.getTime(); at = next(at)) {
    if (at.getTime() <= since.getTime()) throw new FrameworkError('schedule.went-backwards', `The schedule went backwards: ${at.toISOString()} after ${since.toISOString()}`);
    slots.push(at);
    if (slots.length > limit) {
      slots.shift();
      skipped++;
    }
  }
  return { slots, skipped };
}

/** How long to wait from `now` until the next firing after `after`, or null when none is left. */
export function delayUntilNext(next: NextFiring, after: Date, now: Date): number | null {
  const at = next(after);
  return at === null ? null : Math.max(0, at.getTime() - now.getTime());
}

/** The soonest of several delays (null ones ignored), or null when every schedule has ended. */
export function soonest(delays: readonly (number | null)[]): number | null {
  let best: number | null = null;
  for (const delay of delays) if (delay !== null && (best === null || delay < best)) best = delay;
  return best;
}
