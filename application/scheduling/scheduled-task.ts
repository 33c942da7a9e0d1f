import type { CronSchedule } from '../../ports/cron-calendar.js';
import type { RunTrigger } from '../../ports/schedule-runs.js';

/** What a task's function learns about the run it is doing. */
export interface TaskRun {
  task: string;
  /** The firing this run is for: the same in whichever process runs it. */
  slot: Date;
  trigger: RunTrigger;
}

/** One entry of the app's schedule, with its expression already read. */
export interface ScheduledTask {
  name: string;
  schedule: CronSchedule;
  /**
   * Skip a slot while a run of this task (in any process) has not finished. A run left
   * unfinished by a process that died stops blocking after `expiresAfterMs`.
   */
  withoutOverlapping: { expiresAfterMs: number } | null;
  /**
   * True (the default): each slot runs once across every process of the app, claimed in the
   * shared runs table. False: every process runs every slot (per-process housekeeping).
   */
  onOneServer: boolean;
  run(run: TaskRun): Promise<void>;
}
