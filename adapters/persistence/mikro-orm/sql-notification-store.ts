import type { NotificationStore, StoredNotification } from '../../../ports/notification-store.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface Row {
  id: string;
  user_id: number | string;
  type: string;
  data: string;
  read_at: DateColumn | null;
  created_at: DateColumn;
}

/**
 * `notifications` in plain SQL. `data` is TEXT on SQLite and jsonb on PostgreSQL: JSON text
 * goes in on both (cast on PostgreSQL) and `CAST(data AS TEXT)` brings it back on both.
 */
export class SqlNotificationStore implements NotificationStore {
  constructor(private readonly raw: RawSql) {}

  async add(notification: Omit<StoredNotification, 'readAt'>): Promise<void> {
    const value = this.raw.engine === 'postgres' ? 'CAST(? AS jsonb)' : '?';
    await this.raw.session((sql) =>
      sql.query(`INSERT INTO notifications (id, user_id, type, data, created_at) VALUES (?, ?, ?, ${value}, ?) ON CONFLICT (id) DO NOTHING`, [
        notification.id,
        notification.userId,
        notification.type,
        JSON.stringify(notification.data),
        notification.createdAt,
      ]),
    );
  }

  async unread(userId: number, limit: number): Promise<StoredNotification[]> {
    const rows = await this.raw.session((sql) =>
      sql.query<Row>(
        'SELECT id, user_id, type, CAST(data AS TEXT) AS data, read_at, created_at FROM notifications WHERE user_id = ? AND read_at IS NULL ORDER BY created_at DESC, id DESC LIMIT ?',
        [userId, Math.max(0, limit)],
      ),
    );
    return rows.map((row) => ({
      id: row.id,
      userId: Number(row.user_id),
      type: row.type,
      data: JSON.parse(row.data) as Record<string, unknown>,
      readAt: row.read_at === null ? null : dateFromColumn(row.read_at),
      createdAt: dateFromColumn(row.created_at),
    }));
  }

  async markRead(userId: number, id: string, at: Date): Promise<boolean> {
    const rows = await this.raw.session((sql) =>
      sql.query('UPDATE notifications SET read_at = ? WHERE id = ? AND user_id = ? AND read_at IS NULL RETURNING id', [at, id, userId]),
    );
    return rows.length > 0;
  }

  async markAllRead(userId: number, at: Date): Promise<number> {
    const rows = await this.raw.session((sql) => sql.query('UPDATE notifications SET read_at = ? WHERE user_id = ? AND read_at IS NULL RETURNING id', [at, userId]));
    return rows.length;
  }
}
