import type { ClaimOutcome, RunStatus, RunTrigger, ScheduleClaim, ScheduleRun, ScheduleRuns } from '../../../ports/schedule-runs.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface Row {
  task: string;
  trigger: RunTrigger;
  slot: DateColumn;
  holder: string;
  status: RunStatus;
  started_at: DateColumn;
  finished_at: DateColumn | null;
  error: string | null;
}

const COLUMNS = 'task, trigger, slot, holder, status, started_at, finished_at, error';

// The primary key (task, trigger, slot) is the whole of the exactly-once rule: two schedulers
// inserting the same slot at once both reach the index, one wins and RETURNING gives it the
// row; the other's ON CONFLICT DO NOTHING returns no row. Same statement on both engines
// (SQLite needs the WHERE before ON CONFLICT to parse an INSERT … SELECT with an upsert).
const CLAIM = `INSERT INTO schedule_runs (task, trigger, slot, holder, status, started_at)
  VALUES (?, ?, ?, ?, 'running', ?)
  ON CONFLICT (task, trigger, slot) DO NOTHING
  RETURNING status`;

const CLAIM_WITHOUT_OVERLAPPING = `INSERT INTO schedule_runs (task, trigger, slot, holder, status, started_at)
  SELECT ?, ?, ?, ?,
    CASE WHEN EXISTS (SELECT 1 FROM schedule_runs WHERE task = ? AND status = 'running' AND started_at > ?) THEN 'skipped' ELSE 'running' END,
    ?
  WHERE true
  ON CONFLICT (task, trigger, slot) DO NOTHING
  RETURNING status`;

/** `schedule_runs` in plain SQL, one statement per call, on SQLite and PostgreSQL alike. */
export class SqlScheduleRuns implements ScheduleRuns {
  constructor(private readonly raw: RawSql) {}

  async claim(claim: ScheduleClaim): Promise<ClaimOutcome> {
    const { task, trigger, slot, holder, startedAt, overlapSince } = claim;
    const rows = await this.raw.session((sql) =>
      overlapSince === null
        ? sql.query<{ status: RunStatus }>(CLAIM, [task, trigger, slot, holder, startedAt])
        : sql.query<{ status: RunStatus }>(CLAIM_WITHOUT_OVERLAPPING, [task, trigger, slot, holder, task, overlapSince, startedAt]),
    );
    const status = rows[0]?.status;
    return status === undefined ? 'taken' : status === 'skipped' ? 'overlapping' : 'run';
  }

  async finish(task: string, slot: Date, trigger: RunTrigger, outcome: { status: 'done' | 'failed'; finishedAt: Date; error: string | null }): Promise<void> {
    await this.raw.session((sql) =>
      sql.query('UPDATE schedule_runs SET status = ?, finished_at = ?, error = ? WHERE task = ? AND trigger = ? AND slot = ?', [
        outcome.status,
        outcome.finishedAt,
        outcome.error,
        task,
        trigger,
        slot,
      ]),
    );
  }

  async latest(tasks: readonly string[]): Promise<ScheduleRun[]> {
    return this.raw.session(async (sql) => {
      const found: ScheduleRun[] = [];
      // One indexed lookup per task (task, started_at): cheap however many runs are kept.
      for (const task of tasks) {
        const rows = await sql.query<Row>(`SELECT ${COLUMNS} FROM schedule_runs WHERE task = ? ORDER BY started_at DESC LIMIT 1`, [task]);
        if (rows[0] !== undefined) found.push(fromRow(rows[0]));
      }
      return found;
    });
  }

  async ofTask(task: string): Promise<ScheduleRun[]> {
    const rows = await this.raw.session((sql) => sql.query<Row>(`SELECT ${COLUMNS} FROM schedule_runs WHERE task = ? ORDER BY slot, trigger`, [task]));
    return rows.map(fromRow);
  }

  async prune(before: Date): Promise<number> {
    const rows = await this.raw.session((sql) => sql.query('DELETE FROM schedule_runs WHERE started_at < ? RETURNING task', [before]));
    return rows.length;
  }
}

function fromRow(row: Row): ScheduleRun {
  return {
    task: row.task,
    slot: dateFromColumn(row.slot),
    trigger: row.trigger,
    holder: row.holder,
    status: row.status,
    startedAt: dateFromColumn(row.started_at),
    finishedAt: row.finished_at === null ? null : dateFromColumn(row.finished_at),
    error: row.error,
  };
}
