import type { RunScheduledSlot } from '../../../application/scheduling/run-scheduled-slot.js';
import type { ScheduledTask } from '../../../application/scheduling/scheduled-task.js';
import type { Clock } from '../../../ports/clock.js';
import type { ScheduleRun, ScheduleRuns } from '../../../ports/schedule-runs.js';
import type { CliCommand } from '../command.js';
import { formatTable } from '../table.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface ScheduleServices {
  tasks: readonly ScheduledTask[];
  runs: ScheduleRuns;
  runSlot: RunScheduledSlot;
  clock: Clock;
}

export interface ScheduleDeps {
  schedule(): Promise<ScheduleServices>;
  /** Runs the scheduler in this process until SIGINT/SIGTERM, then waits for the runs under way. */
  work(announce: (line: string) => void): Promise<void>;
}

/** A scheduled task that is not in the app's schedule: exit status 1, with where to look. */
export class UnknownTask extends FrameworkError {
  constructor(name: string) {
    super('schedule.unknown-task', `No scheduled task is named "${name}"; "fwx schedule:list" lists them`);
  }
}

/** `schedule:list`, `schedule:run <NAME>`, `schedule:work`. */
export function scheduleCommands(deps: ScheduleDeps): CliCommand[] {
  return [
    {
      name: 'schedule:list',
      description: 'List the scheduled tasks: name, cron expression, next run, last run (in APP_TIMEZONE)',
      options: [{ flags: '--json', description: 'Print JSON instead of text', type: 'boolean' }],
      async run({ options }, io) {
        const { tasks, runs, clock } = await deps.schedule();
        const now = clock.now();
        const last = new Map((await runs.latest(tasks.filter((task) => task.onOneServer).map((task) => task.name))).map((run) => [run.task, run]));
        const rows = tasks.map((task) => ({
          name: task.name,
          expression: task.schedule.expression,
          timeZone: task.schedule.timeZone,
          nextRun: task.schedule.next(now),
          lastRun: last.get(task.name) ?? null,
          withoutOverlapping: task.withoutOverlapping !== null,
          onOneServer: task.onOneServer,
        }));
        if (options['json'] === true) {
          io.out(JSON.stringify(rows.map((row) => ({ ...row, nextRun: row.nextRun?.toISOString() ?? null, lastRun: row.lastRun === null ? null : describeRun(row.lastRun) })), null, 2));
          return;
        }
        if (rows.length === 0) {
          io.out('No tasks are scheduled.');
          return;
        }
        io.out(
          formatTable(
            ['Name', 'Expression', 'Next run', 'Last run', 'Options'],
            rows.map((row) => [
              row.name,
              row.expression,
              row.nextRun === null ? 'never' : `${inZone(row.nextRun, row.timeZone)} ${row.timeZone}`,
              row.lastRun === null ? (row.onOneServer ? '-' : 'per process') : `${inZone(row.lastRun.slot, row.timeZone)} ${row.lastRun.status}`,
              [row.withoutOverlapping ? 'without overlapping' : '', row.onOneServer ? '' : 'every process'].filter((flag) => flag !== '').join(', ') || '-',
            ]),
          ),
        );
      },
    },
    {
      name: 'schedule:run',
      args: '<name>',
      description: 'Run one scheduled task now, in this process, whatever its schedule',
      async run({ args }, io) {
        const name = args[0] ?? '';
        const { tasks, runSlot, clock } = await deps.schedule();
        const task = tasks.find((candidate) => candidate.name === name);
        if (task === undefined) throw new UnknownTask(name);
        io.out(`Running ${task.name}…`);
        const outcome = await runSlot.execute(task, clock.now(), 'manual');
        if (outcome === 'done') io.out(`${task.name} done.`);
        else if (outcome === 'overlapping') io.err(`${task.name} was not run: its previous run has not finished (withoutOverlapping).`);
        else if (outcome === 'failed') io.err(`${task.name} failed; the log has the error.`);
        else io.err(`${task.name} was not run: another run was started at the same instant.`);
        return outcome === 'done' ? 0 : 1;
      },
    },
    {
      name: 'schedule:work',
      description: 'Run the scheduler in this process until Ctrl+C (serve runs it too unless SCHEDULER=false)',
      async run(_input, io) {
        await deps.work((line) => io.out(line));
      },
    },
  ];
}

function describeRun(run: ScheduleRun) {
  return {
    slot: run.slot.toISOString(),
    trigger: run.trigger,
    status: run.status,
    holder: run.holder,
    startedAt: run.startedAt.toISOString(),
    finishedAt: run.finishedAt?.toISOString() ?? null,
    error: run.error,
  };
}

/** `2026-11-24 14:00:00` as a wall clock in `timeZone` shows it. */
export function inZone(at: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-GB', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? '';
  return `${part('year')}-${part('month')}-${part('day')} ${part('hour')}:${part('minute')}:${part('second')}`;
}
