import { setTimeout as sleep } from 'node:timers/promises';
import { decideAfterFailure } from '../../domain/queue/retry.js';
import { batchCallbacks } from '../../domain/queue/batch.js';
import type { Clock } from '../../ports/clock.js';
import type { JobBatches } from '../../ports/job-batches.js';
import type { ClaimedJob, JobQueue, JobWatch, NewJob } from '../../ports/job-queue.js';
import type { Logger } from '../../ports/logger.js';
import { FrameworkError, MisuseError } from '../../domain/shared/errors.js';

/** What a handler learns about the job it runs. */
export interface RunningJob {
  readonly id: string;
  readonly name: string;
  readonly queue: string;
  /** 1 on the first attempt. */
  readonly attempt: number;
  readonly tries: number;
  /** Aborted when the job's timeout passes or the worker is stopped hard. */
  readonly signal: AbortSignal;
}

/** Runs the job of one name; throwing fails the attempt. */
export type JobHandler = (payload: unknown, job: RunningJob) => Promise<void>;

/** An error a handler throws for a job that can never succeed: failed at once, without retries. */
export class PermanentJobError extends FrameworkError {
  constructor(message: string, options?: ErrorOptions) {
    super('queue.permanent-failure', message, options);
  }
}

export interface WorkerOptions {
  /** Queues in priority order: a job of the first is always taken before one of the second. */
  readonly queues: readonly string[];
  /** Jobs run at once in this process. */
  readonly concurrency: number;
  /** Stop once no job is available instead of waiting for more (`--once`). */
  readonly once?: boolean;
  /**
   * How long an idle worker waits before asking again: default 1000 ms, or 5000 ms when the
   * queue wakes workers on dispatch (`JobQueue.watch`), the poll then being only the fallback
   * for a lost wake-up and for delayed jobs coming due.
   */
  readonly pollMs?: number;
  /** The longest wait between attempts to reach a queue that failed (default 30 s). */
  readonly maxOutageWaitMs?: number;
}

export interface WorkerDeps {
  readonly queue: JobQueue;
  readonly handler: (name: string) => JobHandler | undefined;
  readonly clock: Clock;
  /** A number in [0, 1) for the backoff's jitter. */
  readonly random: () => number;
  readonly logger: Logger;
  /** Where batches count their ended jobs; absent when the app keeps none. */
  readonly batches?: JobBatches;
  /** Takes the app's secrets (passwords of its URLs, APP_KEY) out of an error before it is kept or logged. */
  readonly redact?: (text: string) => string;
}

/** At most this much of an error (message and stack) is kept with a failed job. */
const MAX_ERROR_LENGTH = 16_000;

/**
 * The worker: a driving adapter, like the HTTP server and the command line. `concurrency`
 * loops each claim a job from the first of `queues` that has one, run its handler within its
 * timeout, and tell the queue how it went. A queue that cannot be reached (a database that went
 * away) is logged and asked again after a growing wait; a job whose outcome could not be
 * recorded stays leased and comes back after its lease, so none is marked done that did not finish.
 */
export class JobWorker {
  private stopping = false;
  private readonly wake = new AbortController();
  private running: Promise<void> | null = null;
  /** Wake-ups heard so far, and the idle loops waiting for the next one. */
  private wakeups = 0;
  private readonly sleepers = new Set<() => void>();
  private watching: JobWatch | null = null;
  /** Jobs finished (completed or failed for good) and attempts retried, by this worker. */
  readonly stats = { completed: 0, retried: 0, failed: 0 };

  constructor(
    private readonly deps: WorkerDeps,
    private readonly options: WorkerOptions,
  ) {
    if (options.queues.length === 0) throw new MisuseError('queue.no-queues', 'A worker needs at least one queue');
    if (!Number.isSafeInteger(options.concurrency) || options.concurrency < 1) throw new MisuseError('queue.bad-concurrency', `--workers must be a whole number ≥ 1, got ${options.concurrency}`);
  }

  get queues(): readonly string[] {
    return this.options.queues;
  }

  /** Runs until `stop()` (or, with `once`, until no job is available); resolves when every loop has ended. */
  run(): Promise<void> {
    this.running ??= this.start();
    return this.running;
  }

  private async start(): Promise<void> {
    const watch = this.options.once === true ? null : await this.watch();
    try {
      await Promise.all(Array.from({ length: this.options.concurrency }, () => this.loop()));
    } finally {
      await watch?.close().catch(() => undefined);
    }
  }

  /** Asks the queue to wake idle loops on dispatch; without it (or when it fails) the loops poll. */
  private async watch(): Promise<JobWatch | null> {
    if (this.deps.queue.watch === undefined) return null;
    try {
      this.watching = await this.deps.queue.watch((many) => this.wakeUp(many === true), this.options.queues);
      this.watching.waiting?.(this.sleepers.size > 0);
      return this.watching;
    } catch (error) {
      this.deps.logger.warn('the queue cannot wake idle workers; they poll instead', { driver: this.deps.queue.driver, error: this.redact(describe(error)) });
      return null;
    }
  }

  /**
   * One idle loop per hint of one job (a dispatch's NOTIFY, BullMQ's marker, which it sets
   * again each time it hands a job out): waking them all would send the others to find
   * nothing. Every idle loop for a hint that may stand for several jobs.
   */
  private wakeUp(many: boolean): void {
    this.wakeups++;
    const woken = [...this.sleepers].slice(0, many ? undefined : 1);
    for (const sleeper of woken) {
      this.sleepers.delete(sleeper);
      sleeper();
    }
    if (woken.length > 0 && this.sleepers.size === 0) this.watching?.waiting?.(false);
  }

  /** Takes no new job, lets the running ones finish, and resolves once they have. */
  async stop(): Promise<void> {
    this.stopping = true;
    this.wake.abort();
    for (const sleeper of this.sleepers) sleeper();
    await this.running;
  }

  /**
   * QUEUE_CONNECTION=sync: runs a dispatched job here and now, once, within its timeout, and
   * rejects with what its handler threw (no queue, no retry, no delay).
   */
  async runNow(job: NewJob): Promise<void> {
    const now = this.deps.clock.now();
    const { name, queue, payload, tries, backoff, timeoutMs } = job;
    const claimed: ClaimedJob = { id: 'sync', name, queue, payload, tries, backoff, timeoutMs, attempts: 1, availableAt: now, leasedUntil: now, lease: 'sync', batchId: job.batchId };
    const outcome = await this.execute(claimed);
    await this.batchStep(claimed, outcome === null ? 'succeeded' : 'failed', (callback) => this.runNow(callback));
    if (outcome !== null) throw outcome instanceof Error ? outcome : new FrameworkError('queue.job-failed', describe(outcome));
  }

  private async loop(): Promise<void> {
    let outage = 0;
    /** A job the queue handed out as it completed the last one (`completeAndClaim`). */
    let next: ClaimedJob | null = null;
    while (!this.stopping || next !== null) {
      let job = next;
      next = null;
      // A wake-up that comes while the queue is asked must not be slept through.
      let heard = this.wakeups;
      if (job === null) {
        try {
          job = await this.deps.queue.claim(this.options.queues, this.deps.clock.now());
          if (outage > 0) this.deps.logger.info('the queue is reachable again; the worker resumes', { driver: this.deps.queue.driver });
          outage = 0;
        } catch (error) {
          outage++;
          const waitMs = Math.min(this.options.maxOutageWaitMs ?? 30_000, 250 * 2 ** Math.min(outage, 10));
          this.deps.logger.error('the queue cannot be reached; the worker waits and tries again', { driver: this.deps.queue.driver, error: describe(error), retryInMs: waitMs });
          await this.pause(waitMs);
          continue;
        }
        if (job === null) {
          if (this.options.once === true) return;
          await this.idle(this.options.pollMs ?? (this.watching !== null ? 5000 : 1000), heard);
          continue;
        }
      }
      const after = await this.process(job);
      if (after === 'ended') continue;
      // The queue was asked for the next job as this one completed, and had none.
      next = after.next;
      heard = after.heard;
      if (next === null && !this.stopping) {
        if (this.options.once === true) return;
        await this.idle(this.options.pollMs ?? (this.watching !== null ? 5000 : 1000), heard);
      }
    }
  }

  /**
   * Runs the job and records its outcome. A job that succeeded while the worker goes on is
   * completed together with the claim of the next one where the queue can (one round trip
   * instead of two); the answer is then that next job (null: none was available), with the
   * wake-ups heard before the queue was asked. A job handed out just as a stop began is still
   * run: it was taken before the stop was seen, as by a claim a moment earlier.
   */
  private async process(job: ClaimedJob): Promise<'ended' | { next: ClaimedJob | null; heard: number }> {
    const outcome = await this.execute(job);
    try {
      if (outcome === null) {
        const queue = this.deps.queue;
        if (queue.completeAndClaim !== undefined && !this.stopping) {
          const heard = this.wakeups;
          const { completed, next } = await queue.completeAndClaim(job, this.options.queues, this.deps.clock.now());
          // The next job is held now: a batch that cannot be counted must not drop it.
          if (completed) await this.succeeded(job).catch((error: unknown) => this.outcomeLost(job, error));
          return { next, heard };
        }
        if (await queue.complete(job)) await this.succeeded(job);
        return 'ended';
      }
      const decision = decideAfterFailure({
        attempts: job.attempts,
        tries: job.tries,
        backoff: job.backoff,
        retryable: !(outcome instanceof PermanentJobError),
        now: this.deps.clock.now(),
        random: this.deps.random(),
      });
      if (decision.kind === 'retry') {
        await this.deps.queue.retryLater(job, decision.at);
        this.stats.retried++;
        this.deps.logger.warn('a job failed and will be retried', { job: job.name, id: job.id, attempt: job.attempts, tries: job.tries, retryInMs: decision.delayMs, error: this.redact(describe(outcome)) });
      } else {
        const failed = await this.deps.queue.fail(job, this.redact(errorText(outcome)), this.deps.clock.now());
        this.stats.failed++;
        if (failed) await this.batchStep(job, 'failed');
        this.deps.logger.error('a job failed for good', { job: job.name, id: job.id, attempts: job.attempts, reason: decision.reason, error: this.redact(describe(outcome)) });
      }
      return 'ended';
    } catch (error) {
      // The outcome is lost with the connection: the job stays leased and comes back after its
      // lease (at least once), rather than being marked done without certainty.
      this.outcomeLost(job, error);
      return 'ended';
    }
  }

  private outcomeLost(job: ClaimedJob, error: unknown): void {
    this.deps.logger.error("a job's outcome could not be recorded; it runs again after its lease", { job: job.name, id: job.id, error: describe(error) });
  }

  private async succeeded(job: ClaimedJob): Promise<void> {
    this.stats.completed++;
    await this.batchStep(job, 'succeeded');
  }

  private redact(text: string): string {
    return this.deps.redact?.(text) ?? text;
  }

  /** Counts the job in its batch, and dispatches the batch's callbacks this step calls for. */
  private async batchStep(job: ClaimedJob, outcome: 'succeeded' | 'failed', send?: (callback: NewJob) => Promise<void>): Promise<void> {
    if (job.batchId === null || this.deps.batches === undefined) return;
    const now = this.deps.clock.now();
    const step = await this.deps.batches.record(job.batchId, outcome, now);
    if (step === null) return;
    for (const kind of batchCallbacks(step.before, step.after)) {
      const callback = step.callbacks[kind];
      if (callback === null) continue;
      if (send !== undefined) await send({ ...callback, availableAt: now });
      else await this.deps.queue.enqueue({ ...callback, availableAt: now }, now);
    }
  }

  /** Null when the handler succeeded, else what it threw (or why it could not run). */
  private async execute(job: ClaimedJob): Promise<unknown> {
    const handler = this.deps.handler(job.name);
    if (handler === undefined) return new PermanentJobError(`No job named "${job.name}" is registered with this app (app.job(…))`);
    let payload: unknown;
    try {
      payload = JSON.parse(job.payload);
    } catch (error) {
      return new PermanentJobError(`The payload of job ${job.id} is not JSON`, { cause: error });
    }
    // The signal is made when the handler first reads it: an AbortController per job is a
    // measurable share of an empty job's CPU (and garbage), and most handlers never look.
    let controller: AbortController | undefined;
    let timedOutWith: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        timedOutWith = new FrameworkError('queue.job-timed-out', `The job "${job.name}" timed out after ${job.timeoutMs} ms`);
        // Rejected first: a handler that ends as soon as it is aborted still counts as timed out.
        reject(timedOutWith);
        controller?.abort(timedOutWith);
      }, job.timeoutMs);
    });
    try {
      const info: RunningJob = {
        id: job.id,
        name: job.name,
        queue: job.queue,
        attempt: job.attempts,
        tries: job.tries,
        get signal(): AbortSignal {
          if (controller === undefined) {
            controller = new AbortController();
            if (timedOutWith !== undefined) controller.abort(timedOutWith);
          }
          return controller.signal;
        },
      };
      await Promise.race([handler(payload, info), timedOut]);
      return null;
    } catch (error) {
      return error ?? new FrameworkError('queue.job-failed', 'The job threw nothing');
    } finally {
      clearTimeout(timer);
    }
  }

  /** Waits for a wake-up, the poll interval, or the stop, whichever comes first. */
  private async idle(ms: number, heard: number): Promise<void> {
    if (this.stopping || this.wakeups !== heard) return;
    // A plain timer and the sleeper's own resolve (`stop` wakes every sleeper): no AbortSignal
    // pair and no promise race per idle spell, which a loop going idle after each job pays.
    let woken: () => void = () => undefined;
    let timer: NodeJS.Timeout | undefined;
    const wake = new Promise<void>((resolve) => {
      woken = resolve;
      this.sleepers.add(resolve);
      timer = setTimeout(resolve, ms);
    });
    if (this.sleepers.size === 1) this.watching?.waiting?.(true);
    try {
      await wake;
    } finally {
      clearTimeout(timer);
      if (this.sleepers.delete(woken) && this.sleepers.size === 0) this.watching?.waiting?.(false);
    }
  }

  private async pause(ms: number): Promise<void> {
    if (this.stopping) return;
    await sleep(ms, undefined, { signal: this.wake.signal }).catch(() => undefined);
  }
}

/** The error as a log line's field: its class and message, no stack. */
function describe(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'string') return error;
  return JSON.stringify(error) ?? typeof error;
}

/**
 * The error as a failed job keeps it: the stack (which starts with the class and message), and
 * the causes' after it. Only the error's own text: no payload, no environment.
 */
export function errorText(error: unknown): string {
  const parts: string[] = [];
  for (let current: unknown = error, depth = 0; current !== undefined && current !== null && depth < 5; depth++) {
    parts.push(current instanceof Error ? (current.stack ?? `${current.name}: ${current.message}`) : describe(current));
    current = current instanceof Error ? current.cause : undefined;
  }
  const text = parts.join('\nCaused by: ');
  return text.length > MAX_ERROR_LENGTH ? `${text.slice(0, MAX_ERROR_LENGTH)}\n… (cut)` : text;
}
