import type { ListedSession, SessionStore, StoredSession } from '../../../ports/session-store.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

/**
 * The `sessions` table of `SESSION_DRIVER=database`. One statement per operation, each on a
 * pooled connection: a session is read and written once per request, so the ORM's unit of
 * work would only add cost. The payload is the snapshot as JSON text.
 */
export class SqlSessionStore implements SessionStore {
  constructor(private readonly raw: RawSql) {}

  async read(key: string, now: Date): Promise<unknown> {
    const rows = await this.raw.session((sql) => sql.query<{ payload: string }>('SELECT payload FROM sessions WHERE id = ? AND expires_at > ?', [key, now]));
    const payload = rows[0]?.payload;
    if (payload === undefined) return null;
    try {
      return JSON.parse(payload) as unknown;
    } catch {
      return null; // A damaged row is no session; `Session.resume` would refuse it anyway.
    }
  }

  async write(key: string, session: StoredSession): Promise<void> {
    await this.raw.session((sql) =>
      sql.query(
        `INSERT INTO sessions (id, user_id, ip_address, user_agent, payload, last_activity, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (id) DO UPDATE SET user_id = excluded.user_id, ip_address = excluded.ip_address, user_agent = excluded.user_agent,
           payload = excluded.payload, last_activity = excluded.last_activity, expires_at = excluded.expires_at`,
        [
          key,
          session.userId,
          session.ipAddress,
          session.userAgent === null ? null : session.userAgent.slice(0, 512),
          JSON.stringify(session.snapshot),
          session.lastActivity,
          session.expiresAt,
        ],
      ),
    );
  }

  async destroy(key: string): Promise<void> {
    await this.raw.session((sql) => sql.query('DELETE FROM sessions WHERE id = ?', [key]));
  }

  async destroyOthersOf(userId: number, keep: string | null): Promise<number> {
    return this.count('DELETE FROM sessions WHERE user_id = ? AND id <> ? RETURNING id', [userId, keep ?? '']);
  }

  async listOf(userId: number, now: Date): Promise<ListedSession[]> {
    const rows = await this.raw.session((sql) =>
      sql.query<{ payload: string; ip_address: string | null; user_agent: string | null; last_activity: DateColumn; expires_at: DateColumn }>(
        // The id is not selected: whoever lists sessions has no use for it.
        'SELECT payload, ip_address, user_agent, last_activity, expires_at FROM sessions WHERE user_id = ? AND expires_at > ? ORDER BY last_activity DESC',
        [userId, now],
      ),
    );
    return rows.map((row) => ({
      snapshot: parsePayload(row.payload),
      ipAddress: row.ip_address,
      userAgent: row.user_agent,
      lastActivity: dateFromColumn(row.last_activity),
      expiresAt: dateFromColumn(row.expires_at),
    }));
  }

  async prune(now: Date): Promise<number> {
    return this.count('DELETE FROM sessions WHERE expires_at <= ? RETURNING id', [now]);
  }

  private async count(statement: string, params: (string | number | Date)[]): Promise<number> {
    // RETURNING works on both engines (SQLite since 3.35) and gives the count the same way.
    const rows = await this.raw.session((sql) => sql.query(statement, params));
    return rows.length;
  }
}

function parsePayload(payload: string): unknown {
  try {
    return JSON.parse(payload) as unknown;
  } catch {
    return null; // A damaged row, as in `read`: `parseSnapshot` refuses it.
  }
}
