import { describe, expect, it } from 'vitest';
import { batchCallbacks, batchProgress } from '../../../../domain/queue/batch.js';
import { jobOptions, serializePayload, MAX_PAYLOAD_BYTES } from '../../../../domain/queue/job-options.js';
import { jobState } from '../../../../domain/queue/job-state.js';
import { leaseExpired, leaseUntil, LEASE_GRACE_MS } from '../../../../domain/queue/lease.js';

const at = (iso: string) => new Date(`2026-11-24T${iso}Z`);

describe('jobState', () => {
  const now = at('10:00:00');
  it.each([
    ['waiting: available, not leased', { availableAt: at('09:00:00'), leasedUntil: null, failedAt: null }, 'waiting'],
    ['delayed: available later', { availableAt: at('10:00:01'), leasedUntil: null, failedAt: null }, 'delayed'],
    ['running: leased into the future', { availableAt: at('09:00:00'), leasedUntil: at('10:00:30'), failedAt: null }, 'running'],
    ['waiting again: the lease ended (its worker died)', { availableAt: at('09:00:00'), leasedUntil: at('10:00:00'), failedAt: null }, 'waiting'],
    ['failed wins over everything', { availableAt: at('11:00:00'), leasedUntil: at('10:00:30'), failedAt: at('09:59:00') }, 'failed'],
  ])('%s', (_name, job, expected) => {
    expect(jobState(job, now)).toBe(expected);
  });
});

describe('leases', () => {
  it('end after the timeout plus the grace period, and not a moment before', () => {
    const until = leaseUntil(at('10:00:00'), 60_000);
    expect(until).toEqual(new Date(at('10:01:00').getTime() + LEASE_GRACE_MS));
    expect(leaseExpired(until, new Date(until.getTime() - 1))).toBe(false);
    expect(leaseExpired(until, until)).toBe(true);
  });
});

describe('batches', () => {
  it.each([
    [{ total: 4, succeeded: 0, failed: 0 }, { percent: 0, pending: 4, finished: false }],
    [{ total: 4, succeeded: 1, failed: 1 }, { percent: 50, pending: 2, finished: false }],
    [{ total: 3, succeeded: 1, failed: 0 }, { percent: 33, pending: 2, finished: false }],
    [{ total: 3, succeeded: 2, failed: 1 }, { percent: 100, pending: 0, finished: true }],
    [{ total: 0, succeeded: 0, failed: 0 }, { percent: 100, pending: 0, finished: true }],
  ])('progress of %j', (counts, expected) => {
    expect(batchProgress(counts)).toEqual(expected);
  });

  it.each([
    ['the last job succeeds', { total: 2, succeeded: 1, failed: 0 }, { total: 2, succeeded: 2, failed: 0 }, ['then', 'finally']],
    ['a middle job succeeds', { total: 3, succeeded: 0, failed: 0 }, { total: 3, succeeded: 1, failed: 0 }, []],
    ['the first failure', { total: 3, succeeded: 0, failed: 0 }, { total: 3, succeeded: 0, failed: 1 }, ['catch']],
    ['a second failure', { total: 3, succeeded: 0, failed: 1 }, { total: 3, succeeded: 0, failed: 2 }, []],
    ['the last job after a failure', { total: 2, succeeded: 0, failed: 1 }, { total: 2, succeeded: 1, failed: 1 }, ['finally']],
    ['a failing last job alone', { total: 1, succeeded: 0, failed: 0 }, { total: 1, succeeded: 0, failed: 1 }, ['catch', 'finally']],
  ])('callbacks when %s', (_name, before, after, expected) => {
    expect(batchCallbacks(before, after)).toEqual(expected);
  });

  it('refuses impossible counts', () => {
    expect(() => batchProgress({ total: 1, succeeded: 1, failed: 1 })).toThrow(TypeError);
  });
});

describe('job options and payloads', () => {
  it('fills the defaults', () => {
    expect(jobOptions({ name: 'send-mail' })).toMatchObject({ name: 'send-mail', queue: 'default', tries: 3, timeoutMs: 60_000 });
  });

  it.each([
    ['a name with a space', { name: 'send mail' }],
    ['an empty queue', { name: 'a', queue: '' }],
    ['zero tries', { name: 'a', tries: 0 }],
    ['a fractional timeout', { name: 'a', timeoutMs: 1.5 }],
  ])('refuses %s', (_name, given) => {
    expect(() => jobOptions(given)).toThrow(TypeError);
  });

  it('stores plain JSON as it is', () => {
    expect(serializePayload({ id: 7, tags: ['a', null, true], nested: { x: 1.5 } })).toBe('{"id":7,"tags":["a",null,true],"nested":{"x":1.5}}');
  });

  it.each([
    ['a Date', { when: new Date(0) }, '$.when is a Date'],
    ['undefined', { x: undefined }, '$.x is undefined'],
    ['NaN', [Number.NaN], '$[0] is NaN'],
    ['a Map', new Map(), '$ is a Map'],
    ['a function', { f: () => 1 }, '$.f is function'],
  ])('refuses %s, naming where', (_name, payload, message) => {
    expect(() => serializePayload(payload)).toThrow(message);
  });

  it('refuses payloads over the limit', () => {
    expect(() => serializePayload('x'.repeat(MAX_PAYLOAD_BYTES))).toThrow(/at most/u);
  });
});
