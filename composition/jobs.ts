import { StructError, create } from 'superstruct';
import type { Infer, Struct } from 'superstruct';
import type { ContextKey } from '../adapters/http/kernel/request-context.js';
import type { JobHandler, RunningJob } from '../adapters/worker/job-worker.js';
import type { JobToDispatch } from '../application/queue/job-to-dispatch.js';
import type { Backoff } from '../domain/queue/backoff.js';
import { jobOptions, serializePayload } from '../domain/queue/job-options.js';
import type { JobOptions } from '../domain/queue/job-options.js';
import type { AppServices } from './services.js';
import { MisuseError } from '../domain/shared/errors.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a struct of any payload: superstruct's Struct is invariant in its schema
type AnyStruct = Struct<any, any>;

/** What a job's handler gets besides its payload: the app's services and the job itself. */
export interface JobContext {
  readonly services: AppServices;
  /** A value the app gave with `App.provide(key, value)`; throws naming the key if none was. */
  provided<T>(key: ContextKey<T>): T;
  readonly job: RunningJob;
}

export interface JobSpec<S extends AnyStruct> {
  /** Unique in the app: the queue stores it to find the handler. */
  name: string;
  /** The payload's shape (superstruct); checked on dispatch, and again before the handler runs. */
  payload: S;
  /** Default `default`. */
  queue?: string;
  /** Attempts in all; default 3. */
  tries?: number;
  /** Default: exponential from 1 s, with jitter (`Backoffs.fixed(ms)`, `Backoffs.exponential(ms)`). */
  backoff?: Backoff;
  /** The longest an attempt may run; default 60 000 ms. */
  timeoutMs?: number;
  /** While a job with this key is waiting, running or failed, dispatching another is a no-op. */
  idempotencyKey?: (payload: Infer<S>) => string;
  handle(payload: Infer<S>, context: JobContext): Promise<void>;
}

/** A payload that does not fit the job's shape; the message names the field. */
export class InvalidJobPayload extends MisuseError {
  constructor(job: string, error: StructError) {
    const failure = error.failures()[0] ?? error;
    super('queue.bad-payload', `Invalid payload for job "${job}": ${failure.path.length === 0 ? '' : `${failure.path.join('.')}: `}${failure.message}`);
  }
}

/** A job as the app keeps it: its options, and its handler for the worker. */
export interface RegisteredJob {
  readonly name: string;
  readonly options: JobOptions;
  handler(services: AppServices, provided: ReadonlyMap<symbol, unknown>): JobHandler;
}

/**
 * A named, typed job:
 *
 *     export const SendWelcome = defineJob({
 *       name: 'send-welcome',
 *       payload: object({ userId: number() }),
 *       queue: 'mail', tries: 5, backoff: Backoffs.exponential(10_000), timeoutMs: 30_000,
 *       async handle({ userId }, { services }) { … },
 *     });
 *     app.job(SendWelcome);
 *     await jobs.dispatch(SendWelcome.with({ userId: 7 })).delay(60_000);
 */
export class JobDefinition<S extends AnyStruct> implements RegisteredJob {
  readonly options: JobOptions;

  constructor(private readonly spec: JobSpec<S>) {
    this.options = jobOptions({ name: spec.name, queue: spec.queue, tries: spec.tries, backoff: spec.backoff, timeoutMs: spec.timeoutMs });
  }

  get name(): string {
    return this.options.name;
  }

  /** The job with this payload, checked now: a wrong payload throws `InvalidJobPayload` here, at dispatch. */
  with(payload: Infer<S>): JobToDispatch {
    const checked = this.check(payload);
    return { options: this.options, payload: serializePayload(checked), idempotencyKey: this.spec.idempotencyKey?.(checked) ?? null };
  }

  /** The handler as the worker calls it. */
  handler(services: AppServices, provided: ReadonlyMap<symbol, unknown>): JobHandler {
    return (payload, job) =>
      this.spec.handle(this.check(payload), {
        services,
        job,
        provided<T>(key: ContextKey<T>): T {
          if (!provided.has(key)) throw new MisuseError('app.nothing-provided', `Nothing was provided for ${key.description ?? 'a key'}: call App.provide(key, value)`);
          return provided.get(key) as T;
        },
      });
  }

  private check(payload: unknown): Infer<S> {
    try {
      return create(payload, this.spec.payload) as Infer<S>;
    } catch (error) {
      if (error instanceof StructError) throw new InvalidJobPayload(this.spec.name, error);
      throw error;
    }
  }
}

export function defineJob<S extends AnyStruct>(spec: JobSpec<S>): JobDefinition<S> {
  return new JobDefinition(spec);
}
