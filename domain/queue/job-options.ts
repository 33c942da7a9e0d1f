import { DEFAULT_BACKOFF } from './backoff.js';
import type { Backoff } from './backoff.js';
import { MisuseError } from '../shared/errors.js';

/** Names of jobs and queues: what a command line and a Redis key can carry unquoted. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9._:-]{0,99}$/u;

export const DEFAULT_QUEUE = 'default';
export const DEFAULT_TRIES = 3;
export const DEFAULT_TIMEOUT_MS = 60_000;
/** Payloads are stored as JSON text; larger ones belong in storage, with their key in the job. */
export const MAX_PAYLOAD_BYTES = 64 * 1024;

export interface JobOptions {
  readonly name: string;
  readonly queue: string;
  readonly tries: number;
  readonly backoff: Backoff;
  readonly timeoutMs: number;
}

/** A job's options with the defaults filled in, or a TypeError naming what is wrong. */
export function jobOptions(given: { name: string; queue?: string | undefined; tries?: number | undefined; backoff?: Backoff | undefined; timeoutMs?: number | undefined }): JobOptions {
  const options = {
    name: given.name,
    queue: given.queue ?? DEFAULT_QUEUE,
    tries: given.tries ?? DEFAULT_TRIES,
    backoff: given.backoff ?? DEFAULT_BACKOFF,
    timeoutMs: given.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  };
  if (!NAME.test(options.name)) throw new MisuseError('queue.bad-job-name', `A job's name must match ${String(NAME)}, got ${JSON.stringify(options.name)}`);
  assertQueueName(options.queue);
  if (!Number.isSafeInteger(options.tries) || options.tries < 1) throw new MisuseError('queue.bad-tries', `tries must be a whole number ≥ 1, got ${options.tries}`);
  if (!Number.isSafeInteger(options.timeoutMs) || options.timeoutMs < 1) throw new MisuseError('queue.bad-timeout', `timeoutMs must be a whole number ≥ 1, got ${options.timeoutMs}`);
  return options;
}

export function assertQueueName(queue: string): void {
  if (!NAME.test(queue)) throw new MisuseError('queue.bad-queue-name', `A queue's name must match ${String(NAME)}, got ${JSON.stringify(queue)}`);
}

/**
 * A payload as stored: JSON text of plain data. Values JSON would silently change (a Date, a
 * Map, undefined, NaN, a class instance) are refused, so the handler sees what was dispatched.
 */
export function serializePayload(payload: unknown): string {
  checkPlain(payload, '$');
  const text = JSON.stringify(payload);
  // A UTF-16 unit is at most 3 bytes of UTF-8: most payloads are too short to need encoding to be measured.
  if (text.length * 3 > MAX_PAYLOAD_BYTES && new TextEncoder().encode(text).length > MAX_PAYLOAD_BYTES) throw new MisuseError('queue.payload-too-large', `A job's payload must be at most ${MAX_PAYLOAD_BYTES} bytes of JSON`);
  return text;
}

function checkPlain(value: unknown, path: string): void {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) throw new MisuseError('queue.payload-not-json', `${path} is ${value}, which JSON cannot carry`);
    return;
  }
  if (Array.isArray(value)) {
    value.forEach((item, index) => checkPlain(item, `${path}[${index}]`));
    return;
  }
  if (typeof value === 'object') {
    const proto = Object.getPrototypeOf(value) as unknown;
    if (proto !== Object.prototype && proto !== null) throw new MisuseError('queue.payload-not-json', `${path} is a ${value.constructor.name}; a job's payload is plain JSON data`);
    for (const [key, item] of Object.entries(value)) checkPlain(item, `${path}.${key}`);
    return;
  }
  throw new MisuseError('queue.payload-not-json', `${path} is ${typeof value}; a job's payload is plain JSON data`);
}
