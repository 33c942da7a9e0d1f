import { describe, expect, it } from 'vitest';
import { RecordNotFound } from '../../domain/data/record-not-found.js';
import { Limit } from '../../domain/http/rate-limits/rate-limit.js';
import { corsLayerPolicy } from '../../domain/http/cors/cors.js';
import { jobOptions } from '../../domain/queue/job-options.js';
import { dueSlots } from '../../domain/scheduling/slots.js';
import { FrameworkError, MisuseError, OutOfRangeError } from '../../domain/shared/errors.js';
import { abort } from '../../adapters/http/kernel/http-error.js';
import { SetCookie } from '../../adapters/http/kernel/cookies.js';
import { ConfigError, parseConfig } from '../../composition/config.js';
import { startSession } from './domain/session/support.js';

/** What `run` threw: its class, its code and its message. */
function thrown(run: () => unknown): { error: unknown; code: unknown; message: string } {
  try {
    run();
  } catch (error) {
    return { error, code: (error as { code?: unknown }).code, message: error instanceof Error ? error.message : String(error) };
  }
  throw new Error('nothing was thrown');
}

describe('errors fw throws carry a stable code (docs/errors.md)', () => {
  it.each([
    ['a session key that is empty', () => startSession().put('', 1), 'session.bad-key', 'A session key must be a non-empty string'],
    ['a limit of no requests', () => Limit.perMinute(0), 'rate-limit.bad-limit', 'a limit needs a whole number of requests of at least 1, got 0'],
    ['CORS credentials with any origin', () => corsLayerPolicy({ origins: ['*'], credentials: true }), 'cors.credentials-with-any-origin', 'CORS credentials cannot be combined with the "*" origin; list the origins'],
    ['a job name with a space', () => jobOptions({ name: 'send mail' }), 'queue.bad-job-name', "A job's name must match"],
    ['a cookie name with a space', () => SetCookie.make('a b', 'x'), 'http.bad-cookie', '"a b" is not a valid cookie name'],
    ['abort with a 2xx status', () => abort(200), 'http.bad-abort-status', 'abort needs a 4xx or 5xx status, got 200'],
  ])('a programmer mistake, %s: a MisuseError (still a TypeError) with its code', (_name, run, code, message) => {
    const { error, code: actual, message: text } = thrown(run);
    expect(error).toBeInstanceOf(MisuseError);
    expect(error).toBeInstanceOf(TypeError);
    expect(actual).toBe(code);
    expect(text).toContain(message);
  });

  it('a count out of range is an OutOfRangeError (still a RangeError) with its code', () => {
    const { error, code } = thrown(() => dueSlots(() => null, new Date(0), new Date(1), 0));
    expect(error).toBeInstanceOf(OutOfRangeError);
    expect(error).toBeInstanceOf(RangeError);
    expect(code).toBe('schedule.bad-limit');
  });

  it('abort(404) stops the request with the code http.abort and its status', () => {
    const { error, code } = thrown(() => abort(404, 'No such product'));
    expect(error).toBeInstanceOf(FrameworkError);
    expect(code).toBe('http.abort');
    expect(error).toMatchObject({ status: 404, message: 'No such product', name: 'HttpAbort' });
  });

  it('a bad setting is a ConfigError with the code config.invalid, naming the variable', () => {
    const { error, code } = thrown(() => parseConfig({ APP_KEY: 'short' }, '/tmp'));
    expect(error).toBeInstanceOf(ConfigError);
    expect(code).toBe('config.invalid');
    expect(error).toMatchObject({ variable: 'APP_KEY' });
  });

  it('a missing row (findOrFail) is a RecordNotFound with the code data.record-not-found', () => {
    const error = new RecordNotFound('posts');
    expect(error.code).toBe('data.record-not-found');
    expect(error.name).toBe('RecordNotFound');
    expect(error.message).toBe("No 'posts' row matches");
  });
});
