import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ClaimOutcome, RunTrigger, ScheduleRuns } from '../../ports/schedule-runs.js';
import type { ScheduledTask } from './scheduled-task.js';

/** What became of one slot in this process. */
export type SlotOutcome = Exclude<ClaimOutcome, 'run'> | 'done' | 'failed';

/**
 * Runs one slot of one task, if this process is the one to: the claim (one row per task and
 * slot, written by whoever comes first) decides, so a slot runs once however many schedulers
 * run. A task that throws is recorded as failed with its message and logged with its stack;
 * the scheduler goes on. A process that dies mid-run leaves the row `running`: that slot is not
 * run again (the task may have done part of its work), and it is visible as unfinished.
 */
export class RunScheduledSlot {
  /**
   * `shared` is the app's runs table; `local` holds the runs of tasks with `onOneServer: false`,
   * which every process runs (and records) for itself.
   */
  constructor(
    private readonly shared: ScheduleRuns,
    private readonly local: ScheduleRuns,
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly holder: string,
    /** Takes the app's secrets (passwords of its URLs, APP_KEY) out of an error before it is logged or kept, as for failed jobs. */
    private readonly redact: (text: string) => string = (text) => text,
  ) {}

  async execute(task: ScheduledTask, slot: Date, trigger: RunTrigger): Promise<SlotOutcome> {
    const startedAt = this.clock.now();
    const overlapSince = task.withoutOverlapping === null ? null : new Date(startedAt.getTime() - task.withoutOverlapping.expiresAfterMs);
    const runs = task.onOneServer ? this.shared : this.local;
    const claimed = await runs.claim({ task: task.name, slot, trigger, holder: this.holder, startedAt, overlapSince });
    if (claimed === 'taken') return 'taken';
    const fields = { task: task.name, slot: slot.toISOString(), trigger };
    if (claimed === 'overlapping') {
      this.logger.info('scheduled task skipped: its previous run has not finished', fields);
      return 'overlapping';
    }
    try {
      await task.run({ task: task.name, slot, trigger });
    } catch (error) {
      const message = this.redact(error instanceof Error ? `${error.name}: ${error.message}` : String(error));
      const stack = error instanceof Error && error.stack !== undefined ? this.redact(error.stack) : message;
      this.logger.error('scheduled task failed', { ...fields, error: message, stack });
      await runs.finish(task.name, slot, trigger, { status: 'failed', finishedAt: this.clock.now(), error: firstLine(message) });
      return 'failed';
    }
    await runs.finish(task.name, slot, trigger, { status: 'done', finishedAt: this.clock.now(), error: null });
    return 'done';
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
