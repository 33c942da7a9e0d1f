import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { keyJobId } from '../../../../adapters/queue/bullmq-job-queue.js';

/** BullMQ's rule for custom ids: no colon, or exactly two. */
const bullMqAccepts = (id: string) => !id.includes(':') || id.split(':').length === 3;

describe('the BullMQ job id of an idempotency key', () => {
  it.each([
    ['welcome:7', 'key:welcome:7'],
    ['once', 'key-once'],
    ['a:b:c', 'key-a%3Ab%3Ac'],
    ['50%:off:now', 'key-50%25%3Aoff%3Anow'],
  ])('%s → %s', (key, id) => {
    expect(keyJobId(key)).toBe(id);
  });

  it('keeps the id a key with one colon had before (a twin queued before an upgrade is still found)', () => {
    expect(keyJobId('order:42')).toBe('key:order:42');
  });

  it('is accepted by BullMQ and gives distinct keys distinct ids', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom(':', '%', '3', 'A', 'a', '-', '2', '5') }), fc.string({ unit: fc.constantFrom(':', '%', '3', 'A', 'a', '-', '2', '5') }), (a, b) => {
        expect(bullMqAccepts(keyJobId(a))).toBe(true);
        if (a !== b) expect(keyJobId(a)).not.toBe(keyJobId(b));
      }),
      { numRuns: 2000 },
    );
  });
});
