import type { TransactionStatements } from '../../../ports/job-queue.js';
import type { AttemptRecord, DeliveryStatus, NewDelivery, WebhookDeliveries, WebhookDelivery } from '../../../ports/webhook-deliveries.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface Row {
  id: string;
  url: string;
  event: string;
  body: string;
  status: DeliveryStatus;
  attempts: number | string;
  next_attempt_at: DateColumn | null;
  last_status: number | string | null;
  last_error: string | null;
  last_response: string | null;
  created_at: DateColumn;
  finished_at: DateColumn | null;
}

const COLUMNS = 'id, url, event, body, status, attempts, next_attempt_at, last_status, last_error, last_response, created_at, finished_at';

// Claimed with one UPDATE … RETURNING over the due rows: on PostgreSQL the subquery locks them
// with SKIP LOCKED, so two processes claiming at once take different rows; SQLite has one writer.
const CLAIM = {
  sqlite: `UPDATE webhook_deliveries SET attempts = attempts + 1, leased_until = ?
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND (leased_until IS NULL OR leased_until <= ?) AND (? IS NULL OR id = ?) ORDER BY next_attempt_at LIMIT ?)
    RETURNING ${COLUMNS}`,
  postgres: `UPDATE webhook_deliveries SET attempts = attempts + 1, leased_until = ?
    WHERE id IN (SELECT id FROM webhook_deliveries WHERE status = 'pending' AND next_attempt_at <= ? AND (leased_until IS NULL OR leased_until <= ?) AND (?::text IS NULL OR id = ?) ORDER BY next_attempt_at LIMIT ? FOR UPDATE SKIP LOCKED)
    RETURNING ${COLUMNS}`,
} as const;

/** `webhook_deliveries` in plain SQL, one statement per call. */
export class SqlWebhookDeliveries implements WebhookDeliveries {
  constructor(private readonly raw: RawSql) {}

  async add(delivery: NewDelivery, within?: TransactionStatements): Promise<void> {
    const insert = "INSERT INTO webhook_deliveries (id, url, event, body, status, attempts, next_attempt_at, created_at) VALUES (?, ?, ?, ?, 'pending', 0, ?, ?)";
    const params = [delivery.id, delivery.url, delivery.event, delivery.body, delivery.createdAt, delivery.createdAt];
    if (within !== undefined) await within.query(insert, params);
    else await this.raw.session((sql) => sql.query(insert, params));
  }

  async claimDue(now: Date, leaseUntil: Date, limit: number, id?: string): Promise<WebhookDelivery[]> {
    const only = id ?? null;
    const rows = await this.raw.session((sql) => sql.query<Row>(CLAIM[this.raw.engine], [leaseUntil, now, now, only, only, limit]));
    return rows.map(fromRow).sort((a, b) => (a.nextAttemptAt?.getTime() ?? 0) - (b.nextAttemptAt?.getTime() ?? 0));
  }

  async record(id: string, outcome: AttemptRecord): Promise<void> {
    await this.raw.session((sql) =>
      sql.query(
        'UPDATE webhook_deliveries SET status = ?, next_attempt_at = ?, leased_until = NULL, last_status = ?, last_error = ?, last_response = ?, finished_at = ? WHERE id = ?',
        [outcome.status, outcome.nextAttemptAt, outcome.lastStatus, outcome.lastError, outcome.lastResponse, outcome.finishedAt, id],
      ),
    );
  }

  async find(id: string): Promise<WebhookDelivery | null> {
    const rows = await this.raw.session((sql) => sql.query<Row>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE id = ?`, [id]));
    return rows[0] === undefined ? null : fromRow(rows[0]);
  }

  async failed(limit: number): Promise<WebhookDelivery[]> {
    const rows = await this.raw.session((sql) =>
      sql.query<Row>(`SELECT ${COLUMNS} FROM webhook_deliveries WHERE status = 'failed' ORDER BY finished_at DESC, id DESC LIMIT ?`, [limit]),
    );
    return rows.map(fromRow);
  }

  async retry(id: string, now: Date): Promise<boolean> {
    const rows = await this.raw.session((sql) =>
      sql.query(
        "UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = ?, leased_until = NULL, finished_at = NULL WHERE id = ? AND status = 'failed' RETURNING id",
        [now, id],
      ),
    );
    return rows.length > 0;
  }
}

function fromRow(row: Row): WebhookDelivery {
  return {
    id: row.id,
    url: row.url,
    event: row.event,
    body: row.body,
    status: row.status,
    attempts: Number(row.attempts),
    nextAttemptAt: row.next_attempt_at === null ? null : dateFromColumn(row.next_attempt_at),
    lastStatus: row.last_status === null ? null : Number(row.last_status),
    lastError: row.last_error,
    lastResponse: row.last_response,
    createdAt: dateFromColumn(row.created_at),
    finishedAt: row.finished_at === null ? null : dateFromColumn(row.finished_at),
  };
}
