import type { RunScheduledSlot } from '../../application/scheduling/run-scheduled-slot.js';
import type { ScheduledTask } from '../../application/scheduling/scheduled-task.js';
import { delayUntilNext, dueSlots, soonest } from '../../domain/scheduling/slots.js';
import type { Clock } from '../../ports/clock.js';
import type { Logger } from '../../ports/logger.js';
import type { ScheduleRuns } from '../../ports/schedule-runs.js';
import { FrameworkError } from '../../domain/shared/errors.js';

export interface ScheduleLoopOptions {
  /** At most this many slots per task per tick, the newest (default 100): a process that stalled catches up on the recent past only. */
  catchUpLimit?: number;
  /** Wake at least this often (default 60 s), so a clock that jumps is noticed. */
  maxSleepMs?: number;
  /** Runs that started longer ago than this are deleted (default 24 h)… */
  keepRunsMs?: number;
  /** …at most this often (default 1 h). */
  pruneEveryMs?: number;
}

/**
 * The scheduler of one process (`schedule:work`, or inside `serve`): sleeps until the next
 * firing of any task, then offers every slot that came due since its last look to
 * `RunScheduledSlot`, which runs it only if no other process has. Slots due before it started
 * are not its business; slots it overslept (a busy event loop) are still offered, so another
 * scheduler being slow or killed costs no slot. Tasks run concurrently and never delay the loop.
 */
export class ScheduleLoop {
  private readonly catchUpLimit: number;
  private readonly maxSleepMs: number;
  private readonly keepRunsMs: number;
  private readonly pruneEveryMs: number;
  private since: Date | null = null;
  private lastPrune = 0;
  private timer: NodeJS.Timeout | null = null;
  private stopped = false;
  private readonly running = new Set<Promise<void>>();

  constructor(
    private readonly tasks: readonly ScheduledTask[],
    private readonly runSlot: RunScheduledSlot,
    private readonly runs: ScheduleRuns,
    private readonly clock: Clock,
    private readonly logger: Logger,
    options: ScheduleLoopOptions = {},
  ) {
    this.catchUpLimit = options.catchUpLimit ?? 100;
    this.maxSleepMs = options.maxSleepMs ?? 60_000;
    this.keepRunsMs = options.keepRunsMs ?? 24 * 3600_000;
    this.pruneEveryMs = options.pruneEveryMs ?? 3600_000;
  }

  start(): void {
    if (this.since !== null) throw new FrameworkError('schedule.started-twice', 'The scheduler is started already');
    this.since = this.clock.now();
    this.lastPrune = this.since.getTime();
    this.logger.info('scheduler started', { tasks: this.tasks.map((task) => task.name) });
    this.sleep();
  }

  /** Takes no new slot, and resolves once the runs under way have finished. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer !== null) clearTimeout(this.timer);
    this.timer = null;
    await Promise.allSettled([...this.running]);
  }

  private sleep(): void {
    if (this.stopped || this.since === null) return;
    const since = this.since;
    const now = this.clock.now();
    const delay = soonest(this.tasks.map((task) => delayUntilNext(task.schedule.next, since, now)));
    if (delay === null && this.tasks.length > 0) this.logger.info('scheduler: no task fires again');
    // A task list that never fires again still wakes now and then, to prune the runs table.
    this.timer = setTimeout(() => this.tick(), Math.min(delay ?? this.maxSleepMs, this.maxSleepMs));
  }

  private tick(): void {
    this.timer = null;
    if (this.stopped || this.since === null) return;
    const since = this.since;
    const until = this.clock.now();
    // A timer may fire a hair before the clock reaches the slot: then nothing is due yet and
    // the window stays open from the same `since`.
    if (until.getTime() > since.getTime()) {
      for (const task of this.tasks) {
        const due = dueSlots(task.schedule.next, since, until, this.catchUpLimit);
        if (due.skipped > 0) this.logger.warn('scheduler fell behind: older slots skipped', { task: task.name, skipped: due.skipped });
        for (const slot of due.slots) this.track(this.offer(task, slot));
      }
      this.since = until;
      if (until.getTime() - this.lastPrune >= this.pruneEveryMs) {
        this.lastPrune = until.getTime();
        this.track(this.prune(until));
      }
    }
    this.sleep();
  }

  private async offer(task: ScheduledTask, slot: Date): Promise<void> {
    try {
      await this.runSlot.execute(task, slot, 'schedule');
    } catch (error) {
      // The runs table could not be reached: this process does not run the slot (another one may).
      this.logger.error('scheduler could not claim a slot', { task: task.name, slot: slot.toISOString(), error });
    }
  }

  private async prune(now: Date): Promise<void> {
    try {
      const deleted = await this.runs.prune(new Date(now.getTime() - this.keepRunsMs));
      if (deleted > 0) this.logger.debug('scheduler pruned old runs', { deleted });
    } catch (error) {
      this.logger.warn('scheduler could not prune old runs', { error });
    }
  }

  private track(work: Promise<void>): void {
    this.running.add(work);
    void work.finally(() => this.running.delete(work));
  }
}
