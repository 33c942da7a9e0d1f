import { JOB_STATES } from '../../../domain/queue/job-state.js';
import { Routes } from '../../../domain/http/routing/routes.js';
import type { Clock } from '../../../ports/clock.js';
import type { JobQueue } from '../../../ports/job-queue.js';
import { Redirect, Toast, View, combine } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';

export interface DashboardServices {
  queue: JobQueue;
  clock: Clock;
}

/** At most this many failed jobs are listed (newest first); the commands reach the rest. */
const FAILED_SHOWN = 100;

/**
 * `fw/queue/dashboard.html` at `path`, behind the app's gate `gate`: jobs per queue and
 * state, and the failed jobs (newest first) with a retry and a forget button each.
 */
export function queueDashboardRoutes(path: string, gate: string, services: (ctx: RequestContext) => DashboardServices): Routes<Handler> {
  const show: Handler = async (ctx) => {
    const { queue, clock } = services(ctx);
    const counts = await queue.counts(clock.now());
    const names = [...new Set(counts.map((count) => count.queue))].sort();
    const queues = names.map((name) => ({
      name,
      counts: Object.fromEntries(JOB_STATES.map((state) => [state, counts.find((c) => c.queue === name && c.state === state)?.count ?? 0])),
    }));
    const failed = await queue.failed();
    return View.make('fw/queue/dashboard.html', {
      states: JOB_STATES,
      queues,
      failed: failed.slice(0, FAILED_SHOWN).map((job) => ({
        id: job.id,
        name: job.name,
        queue: job.queue,
        attempts: job.attempts,
        failed_at: job.failedAt.toISOString(),
        error: job.error.split('\n', 1)[0] ?? '',
        stack: job.error,
      })),
      failed_total: failed.length,
    });
  };

  const back = (message: string, ok: boolean) => combine(Redirect.route('queue.dashboard'), ok ? Toast.success(message) : Toast.error(message));

  const retry: Handler = async (ctx) => {
    const { queue, clock } = services(ctx);
    const id = ctx.params.string('id');
    const count = await queue.retryFailed({ id }, clock.now());
    return back(ctx.lang.t(count === 1 ? 'queue.message.retried' : 'queue.message.unknown', { id }), count === 1);
  };

  const forget: Handler = async (ctx) => {
    const id = ctx.params.string('id');
    const forgotten = await services(ctx).queue.forgetFailed(id);
    return back(ctx.lang.t(forgotten ? 'queue.message.forgotten' : 'queue.message.unknown', { id }), forgotten);
  };

  return new Routes<Handler>()
    .get(path, show)
    .name('queue.dashboard')
    .post(`${path}/failed/{id}/retry`, retry)
    .name('queue.retry')
    .post(`${path}/failed/{id}/forget`, forget)
    .name('queue.forget')
    .requireGate(gate);
}
