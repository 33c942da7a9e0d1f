import type { ClaimOutcome, RunTrigger, ScheduleClaim, ScheduleRun, ScheduleRuns } from '../../../ports/schedule-runs.js';

/**
 * Scheduled runs in a map, for unit tests and an app without a database: one process only,
 * so "once per slot" holds within it and no further (a second process has a map of its own).
 */
export class InMemoryScheduleRuns implements ScheduleRuns {
  private readonly rows = new Map<string, ScheduleRun>();

  claim(claim: ScheduleClaim): Promise<ClaimOutcome> {
    const key = keyOf(claim.task, claim.trigger, claim.slot);
    if (this.rows.has(key)) return Promise.resolve('taken');
    const since = claim.overlapSince;
    const overlapping =
      since !== null && [...this.rows.values()].some((run) => run.task === claim.task && run.status === 'running' && run.startedAt.getTime() > since.getTime());
    this.rows.set(key, {
      task: claim.task,
      slot: new Date(claim.slot),
      trigger: claim.trigger,
      holder: claim.holder,
      status: overlapping ? 'skipped' : 'running',
      startedAt: new Date(claim.startedAt),
      finishedAt: null,
      error: null,
    });
    return Promise.resolve(overlapping ? 'overlapping' : 'run');
  }

  finish(task: string, slot: Date, trigger: RunTrigger, outcome: { status: 'done' | 'failed'; finishedAt: Date; error: string | null }): Promise<void> {
    const run = this.rows.get(keyOf(task, trigger, slot));
    if (run !== undefined) Object.assign(run, { status: outcome.status, finishedAt: new Date(outcome.finishedAt), error: outcome.error });
    return Promise.resolve();
  }

  latest(tasks: readonly string[]): Promise<ScheduleRun[]> {
    const found: ScheduleRun[] = [];
    for (const task of tasks) {
      const runs = [...this.rows.values()].filter((run) => run.task === task).sort((a, b) => b.startedAt.getTime() - a.startedAt.getTime());
      if (runs[0] !== undefined) found.push(copy(runs[0]));
    }
    return Promise.resolve(found);
  }

  ofTask(task: string): Promise<ScheduleRun[]> {
    const runs = [...this.rows.values()].filter((run) => run.task === task);
    return Promise.resolve(runs.sort((a, b) => a.slot.getTime() - b.slot.getTime() || a.trigger.localeCompare(b.trigger)).map(copy));
  }

  prune(before: Date): Promise<number> {
    let deleted = 0;
    for (const [key, run] of this.rows) {
      if (run.startedAt.getTime() < before.getTime()) {
        this.rows.delete(key);
        deleted++;
      }
    }
    return Promise.resolve(deleted);
  }
}

function keyOf(task: string, trigger: RunTrigger, slot: Date): string {
  return `${task}\n${trigger}\n${slot.getTime()}`;
}

function copy(run: ScheduleRun): ScheduleRun {
  return { ...run, slot: new Date(run.slot), startedAt: new Date(run.startedAt), finishedAt: run.finishedAt === null ? null : new Date(run.finishedAt) };
}
