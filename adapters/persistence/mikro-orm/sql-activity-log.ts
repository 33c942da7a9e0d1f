import type { ActivityEntry, ActivityLog, StoredActivity } from '../../../ports/activity-log.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface Row {
  id: number | string;
  event: string;
  user_id: number | string | null;
  data: string;
  ip_address: string | null;
  request_id: string | null;
  created_at: DateColumn;
}

/**
 * `activity_log` in plain SQL, one statement per call. `data` is TEXT on SQLite and jsonb on
 * PostgreSQL: JSON text goes in on both, and `CAST(data AS TEXT)` brings JSON text back on
 * both, so one parse serves either engine. The port's `action` is the column `event`.
 */
export class SqlActivityLog implements ActivityLog {
  constructor(private readonly raw: RawSql) {}

  async record(entry: ActivityEntry): Promise<void> {
    await this.raw.session((sql) =>
      sql.query('INSERT INTO activity_log (event, user_id, data, ip_address, request_id, created_at) VALUES (?, ?, ?, ?, ?, ?)', [
        entry.action,
        entry.userId,
        JSON.stringify(entry.data),
        entry.ipAddress,
        entry.requestId,
        entry.at,
      ]),
    );
  }

  async recent(filter: { userId?: number; action?: string; limit: number }): Promise<StoredActivity[]> {
    const conditions: string[] = [];
    const params: (string | number)[] = [];
    if (filter.userId !== undefined) {
      conditions.push('user_id = ?');
      params.push(filter.userId);
    }
    if (filter.action !== undefined) {
      conditions.push('event = ?');
      params.push(filter.action);
    }
    const where = conditions.length === 0 ? '' : `WHERE ${conditions.join(' AND ')}`;
    const rows = await this.raw.session((sql) =>
      sql.query<Row>(
        // The id breaks ties between entries of one moment: the later written comes first.
        `SELECT id, event, user_id, CAST(data AS TEXT) AS data, ip_address, request_id, created_at FROM activity_log ${where}
         ORDER BY created_at DESC, id DESC LIMIT ?`,
        [...params, Math.max(0, filter.limit)],
      ),
    );
    return rows.map(fromRow);
  }
}

function fromRow(row: Row): StoredActivity {
  return {
    id: Number(row.id),
    action: row.event,
    userId: row.user_id === null ? null : Number(row.user_id),
    data: parseData(row.data),
    ipAddress: row.ip_address,
    requestId: row.request_id,
    at: dateFromColumn(row.created_at),
  };
}

/** A row written by hand with something other than a JSON object reads as no data, not a crash. */
function parseData(text: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
