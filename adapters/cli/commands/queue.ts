import type { Clock } from '../../../ports/clock.js';
import type { JobQueue } from '../../../ports/job-queue.js';
import type { JobBatches } from '../../../ports/job-batches.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../command.js';
import { formatTable } from '../table.js';
import { FrameworkError } from '../../../domain/shared/errors.js';

export interface WorkRequest {
  /** Queues in priority order; null: every queue the app's jobs name. */
  queues: string[] | null;
  workers: number;
  once: boolean;
}

export interface QueueCommandDeps {
  queue(): Promise<{ queue: JobQueue; batches: JobBatches; clock: Clock }>;
  /** Runs a worker until SIGTERM/SIGINT (or, with `once`, until nothing is left), telling `io` how it went. */
  work(request: WorkRequest, announce: (line: string) => void): Promise<void>;
}

/** `queue:prune-failed`'s default: a week. */
export const PRUNE_FAILED_DEFAULT_HOURS = 168;
/** `queue:prune-batches`'s default: a day. */
export const PRUNE_BATCHES_DEFAULT_HOURS = 24;

const HOUR_MS = 3_600_000;

export function queueCommands(deps: QueueCommandDeps): CliCommand[] {
  return [
    {
      name: 'queue:work',
      description: 'Run queued jobs until stopped (SIGTERM/SIGINT finish the running jobs); --once runs what is queued, then stops',
      options: [
        { flags: '--queue <names>', description: 'Queues in priority order, comma-separated (default: every queue of the app\'s jobs, "default" first)', type: 'string' },
        { flags: '--workers <n>', description: 'Jobs run at once', type: 'integer', default: 1 },
        { flags: '--once', description: 'Run the jobs available now, then stop', type: 'boolean' },
      ],
      async run({ options }, io) {
        const workers = Number(options['workers'] ?? 1);
        if (!Number.isSafeInteger(workers) || workers < 1 || workers > 1000) throw new UsageError(`--workers must be a whole number from 1 to 1000, got ${String(options['workers'])}`);
        const raw = options['queue'];
        const queues = typeof raw === 'string' ? raw.split(',').map((name) => name.trim()).filter((name) => name !== '') : null;
        if (queues !== null && queues.length === 0) throw new UsageError('--queue needs at least one queue name');
        await deps.work({ queues, workers, once: options['once'] === true }, (line) => io.out(line));
      },
    },
    {
      name: 'queue:failed',
      description: 'List failed jobs, newest first (id, job, queue, attempts, when, error)',
      options: [{ flags: '--json', description: 'Print JSON, with the whole error and stack', type: 'boolean' }],
      async run({ options }, io) {
        const { queue } = await deps.queue();
        const failed = await queue.failed();
        if (options['json'] === true) {
          io.out(JSON.stringify(failed.map((job) => ({ ...job, failedAt: job.failedAt.toISOString() })), null, 2));
          return;
        }
        if (failed.length === 0) {
          io.out('No failed jobs.');
          return;
        }
        const firstLine = (text: string) => (text.split('\n', 1)[0] ?? '').slice(0, 120);
        io.out(
          formatTable(
            ['ID', 'Job', 'Queue', 'Attempts', 'Failed at', 'Error'],
            failed.map((job) => [job.id, job.name, job.queue, String(job.attempts), job.failedAt.toISOString(), firstLine(job.error)]),
          ),
        );
      },
    },
    {
      name: 'queue:retry',
      args: '<id>',
      description: 'Put a failed job (or `all` of them) back on its queue, its attempts reset',
      async run({ args }, io) {
        const [id = ''] = args;
        const { queue, clock } = await deps.queue();
        const count = await queue.retryFailed(id === 'all' ? 'all' : { id }, clock.now());
        if (id !== 'all' && count === 0) throw new FrameworkError('cli.no-such-job', `No failed job has the id ${id}`);
        io.out(id === 'all' ? `${count} failed job${count === 1 ? '' : 's'} queued again.` : `Failed job ${id} queued again.`);
      },
    },
    {
      name: 'queue:forget',
      args: '<id>',
      description: 'Delete one failed job',
      async run({ args }, io) {
        const [id = ''] = args;
        const { queue } = await deps.queue();
        if (!(await queue.forgetFailed(id))) throw new FrameworkError('cli.no-such-job', `No failed job has the id ${id}`);
        io.out(`Failed job ${id} deleted.`);
      },
    },
    {
      name: 'queue:flush',
      description: 'Delete every failed job',
      async run(_input, io) {
        const { queue } = await deps.queue();
        const count = await queue.flushFailed();
        io.out(`Deleted ${count} failed job${count === 1 ? '' : 's'}.`);
      },
    },
    {
      name: 'queue:prune-failed',
      description: `Delete failed jobs older than --hours (default ${PRUNE_FAILED_DEFAULT_HOURS})`,
      options: [{ flags: '--hours <n>', description: 'Age in hours', type: 'integer', default: PRUNE_FAILED_DEFAULT_HOURS }],
      async run({ options }, io) {
        const hours = hoursOption(options['hours'], PRUNE_FAILED_DEFAULT_HOURS);
        const { queue, clock } = await deps.queue();
        const count = await queue.pruneFailed(new Date(clock.now().getTime() - hours * HOUR_MS));
        io.out(`Deleted ${count} failed job${count === 1 ? '' : 's'} older than ${hours} hour${hours === 1 ? '' : 's'}.`);
      },
    },
    {
      name: 'queue:prune-batches',
      description: `Delete batches that finished more than --hours ago (default ${PRUNE_BATCHES_DEFAULT_HOURS})`,
      options: [{ flags: '--hours <n>', description: 'Age in hours', type: 'integer', default: PRUNE_BATCHES_DEFAULT_HOURS }],
      async run({ options }, io) {
        const hours = hoursOption(options['hours'], PRUNE_BATCHES_DEFAULT_HOURS);
        const { batches, clock } = await deps.queue();
        const count = await batches.prune(new Date(clock.now().getTime() - hours * HOUR_MS));
        io.out(`Deleted ${count} finished batch${count === 1 ? '' : 'es'} older than ${hours} hour${hours === 1 ? '' : 's'}.`);
      },
    },
  ];
}

export function hoursOption(value: unknown, fallback: number): number {
  const hours = value === undefined ? fallback : Number(value);
  if (!Number.isSafeInteger(hours) || hours < 0) throw new UsageError(`--hours must be a whole number ≥ 0, got ${String(value)}`);
  return hours;
}
