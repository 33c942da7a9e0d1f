/** Why a slot was run: its time came, or someone typed `schedule:run <NAME>`. */
export type RunTrigger = 'schedule' | 'manual';

export type RunStatus = 'running' | 'done' | 'failed' | 'skipped';

export interface ScheduleClaim {
  task: string;
  /** The firing this run is for (for a manual run, the moment it was asked for). */
  slot: Date;
  trigger: RunTrigger;
  /** Who runs it: `host:pid`, shown when a run was left unfinished by a process that died. */
  holder: string;
  startedAt: Date;
  /**
   * With `withoutOverlapping`: a run of the task started after this instant and not finished
   * means the slot is recorded as skipped instead of run. Null: overlaps are allowed.
   */
  overlapSince: Date | null;
}

/**
 * - `run`: this caller holds the slot and must run the task, then `finish` it.
 * - `taken`: another process (or an earlier tick) holds it already: do nothing.
 * - `overlapping`: the caller holds the slot, recorded as skipped: the previous run still goes.
 */
export type ClaimOutcome = 'run' | 'taken' | 'overlapping';

export interface ScheduleRun {
  task: string;
  slot: Date;
  trigger: RunTrigger;
  holder: string;
  status: RunStatus;
  startedAt: Date;
  finishedAt: Date | null;
  error: string | null;
}

/**
 * One row per task and slot, shared by every process of the app: whoever writes the row
 * first runs the slot, so a slot runs once however many schedulers are running.
 */
export interface ScheduleRuns {
  /** Atomic across processes: of any number of claims of one task, slot and trigger, exactly one gets `run` or `overlapping`. */
  claim(claim: ScheduleClaim): Promise<ClaimOutcome>;
  /** Records how a claimed run ended; `error` is one line (no stack, no secrets). */
  finish(task: string, slot: Date, trigger: RunTrigger, outcome: { status: 'done' | 'failed'; finishedAt: Date; error: string | null }): Promise<void>;
  /** The newest run (by start) of each of `tasks` that has one, for `schedule:list`. */
  latest(tasks: readonly string[]): Promise<ScheduleRun[]>;
  /** Every run of one task in slot order (tests and diagnostics). */
  ofTask(task: string): Promise<ScheduleRun[]>;
  /** Deletes the runs that started before `before` (whatever their status); returns how many. */
  prune(before: Date): Promise<number>;
}
