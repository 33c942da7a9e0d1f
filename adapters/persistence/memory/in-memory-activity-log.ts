import type { ActivityEntry, ActivityLog, StoredActivity } from '../../../ports/activity-log.js';

/**
 * The activity log in an array, for unit tests and embedding without a database. `data` goes
 * through JSON on the way in, as the column does, so what comes back is what SQL gives back
 * (no `undefined` members, no Dates) and the caller's object can change without changing it.
 */
export class InMemoryActivityLog implements ActivityLog {
  private readonly rows: StoredActivity[] = [];

  record(entry: ActivityEntry): Promise<void> {
    const data = JSON.parse(JSON.stringify(entry.data)) as Record<string, unknown>;
    this.rows.push({ ...entry, data, at: new Date(entry.at), id: this.rows.length + 1 });
    return Promise.resolve();
  }

  recent(filter: { userId?: number; action?: string; limit: number }): Promise<StoredActivity[]> {
    const matching = this.rows.filter(
      (row) => (filter.userId === undefined || row.userId === filter.userId) && (filter.action === undefined || row.action === filter.action),
    );
    // Newest first; entries of one moment newest-written first, as `ORDER BY created_at DESC, id DESC`.
    const sorted = matching.sort((a, b) => b.at.getTime() - a.at.getTime() || b.id - a.id);
    return Promise.resolve(sorted.slice(0, Math.max(0, filter.limit)).map(copy));
  }
}

function copy(row: StoredActivity): StoredActivity {
  return { ...row, data: JSON.parse(JSON.stringify(row.data)) as Record<string, unknown>, at: new Date(row.at) };
}
