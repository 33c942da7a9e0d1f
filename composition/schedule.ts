import { hostname } from 'node:os';
import { ScheduleLoop } from '../adapters/cli/schedule-loop.js';
import { CronerCalendar } from '../adapters/cron/croner-calendar.js';
import { InMemoryScheduleRuns } from '../adapters/persistence/memory/in-memory-schedule-runs.js';
import { RunScheduledSlot } from '../application/scheduling/run-scheduled-slot.js';
import type { ScheduledTask, TaskRun } from '../application/scheduling/scheduled-task.js';
import { taskNameProblem } from '../domain/scheduling/task-name.js';
import { InvalidCronExpression } from '../ports/cron-calendar.js';
import type { ScheduleServices } from '../adapters/cli/commands/schedule.js';
import type { AppServices } from './services.js';
import { redactor, secretsOf } from './queue.js';
import { TOKENS } from './tokens.js';
import { MisuseError } from '../domain/shared/errors.js';

/** What a scheduled function gets: the app's services, and which run this is. */
export type ScheduledFunction = (services: AppServices, run: TaskRun) => void | Promise<void>;

export interface ScheduleOptions {
  /**
   * Skip a slot while the task's previous run (in any process) has not finished. `true`: a run
   * left unfinished by a process that died stops blocking after 24 hours; or give the minutes.
   */
  withoutOverlapping?: boolean | { expiresAfterMinutes: number };
  /**
   * `true` (the default): each slot runs once across every process of the app. `false`: every
   * process that runs a scheduler runs every slot (housekeeping of the process's own files).
   */
  onOneServer?: boolean;
}

/** One `app.schedule(…)`, checked when it is registered. */
export interface ScheduleEntry {
  name: string;
  expression: string;
  run: ScheduledFunction;
  options: ScheduleOptions;
}

const calendar = new CronerCalendar();

/** Refuses a bad name, a name given twice, or an expression croner cannot read, at registration. */
export function checkScheduleEntry(entry: ScheduleEntry, existing: readonly ScheduleEntry[]): void {
  const problem = taskNameProblem(entry.name);
  if (problem !== null) throw new MisuseError('schedule.bad-task-name', `The scheduled task name ${problem}`);
  if (existing.some((other) => other.name === entry.name)) throw new MisuseError('schedule.task-twice', `The scheduled task "${entry.name}" is registered twice`);
  try {
    calendar.parse(entry.expression, 'UTC');
  } catch (error) {
    if (error instanceof InvalidCronExpression) throw new MisuseError('schedule.bad-cron', `The scheduled task "${entry.name}": ${error.message}`, { cause: error });
    throw error;
  }
  const overlap = entry.options.withoutOverlapping;
  if (typeof overlap === 'object' && (!Number.isSafeInteger(overlap.expiresAfterMinutes) || overlap.expiresAfterMinutes < 1)) {
    throw new MisuseError('schedule.bad-overlap-expiry', `The scheduled task "${entry.name}": withoutOverlapping.expiresAfterMinutes must be a positive whole number`);
  }
}

/** The entries as the scheduler runs them: expressions read in APP_TIMEZONE, functions given the services. */
export function scheduledTasks(entries: readonly ScheduleEntry[], services: AppServices): ScheduledTask[] {
  return entries.map((entry) => {
    const overlap = entry.options.withoutOverlapping;
    return {
      name: entry.name,
      schedule: calendar.parse(entry.expression, services.config.app.timezone),
      withoutOverlapping: overlap === undefined || overlap === false ? null : { expiresAfterMs: (overlap === true ? 24 * 60 : overlap.expiresAfterMinutes) * 60_000 },
      onOneServer: entry.options.onOneServer ?? true,
      run: async (run) => {
        await entry.run(services, run);
      },
    };
  });
}

/** The scheduler's parts for the commands, built once per booted app. */
export function scheduleServices(entries: readonly ScheduleEntry[], services: AppServices): ScheduleServices {
  const clock = services.get(TOKENS.clock);
  const runs = services.get(TOKENS.scheduleRuns);
  const runSlot = new RunScheduledSlot(
    runs,
    new InMemoryScheduleRuns(),
    clock,
    services.get(TOKENS.logger).child({ scheduler: true }),
    `${hostname()}:${process.pid}`,
    redactor(secretsOf(services.config)),
  );
  return { tasks: scheduledTasks(entries, services), runs, runSlot, clock };
}

/** Starts the scheduler of this process; `stop()` ends it after the runs under way. */
export async function startScheduler(entries: readonly ScheduleEntry[], services: AppServices): Promise<ScheduleLoop> {
  const parts = scheduleServices(entries, services);
  // Fails now, with the reason, when the runs table is missing (migrations not run).
  await parts.runs.ofTask('');
  const loop = new ScheduleLoop(parts.tasks, parts.runSlot, parts.runs, parts.clock, services.get(TOKENS.logger).child({ scheduler: true }));
  loop.start();
  return loop;
}
