import { SqlActivityLog } from '../../adapters/persistence/mikro-orm/sql-activity-log.js';
import { RecordActivity } from '../../application/audit/record-activity.js';
import type { ActivityLog } from '../../ports/activity-log.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

/** The activity log (the Audit module) and its `activity_log` table. */
export const AUDIT_TOKENS = {
  activityLog: token<ActivityLog>('ActivityLog'),
  recordActivity: token<RecordActivity>('RecordActivity'),
} as const;

/** The table is the framework's: `fwx activity` reads it in any app. */
export function bindActivityLog({ container }: Binding): void {
  provide(container, AUDIT_TOKENS.activityLog, [C.database], (db) => new SqlActivityLog(db.raw));
}

/** What the Audit module's listener writes with. */
export function bindAudit({ container }: Pick<Binding, 'container'>): void {
  provide(container, AUDIT_TOKENS.recordActivity, [AUDIT_TOKENS.activityLog, C.clock], (log, clock) => new RecordActivity(log, clock));
}
