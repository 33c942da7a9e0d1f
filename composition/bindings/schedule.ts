import { SqlScheduleRuns } from '../../adapters/persistence/mikro-orm/sql-schedule-runs.js';
import type { ScheduleRuns } from '../../ports/schedule-runs.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

export const SCHEDULE_TOKENS = {
  /** One row per scheduled task and slot, shared by every scheduler of the app. */
  scheduleRuns: token<ScheduleRuns>('ScheduleRuns'),
} as const;

export function bindSchedule({ container }: Binding): void {
  provide(container, SCHEDULE_TOKENS.scheduleRuns, [C.database], (db) => new SqlScheduleRuns(db.raw));
}
