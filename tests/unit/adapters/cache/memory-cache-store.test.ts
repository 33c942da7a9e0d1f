import { describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { MemoryCacheStore } from '../../../../adapters/cache/memory-cache-store.js';

describe('MemoryCacheStore at its cap', () => {
  const later = new Date('2026-08-01T13:00:00Z');

  it('frees a tenth of the cap at once, so a flood of new clients does not sweep the map on every one', async () => {
    const store = new MemoryCacheStore(new FixedClock('2026-08-01T12:00:00Z'), 1000);
    for (let n = 0; n < 1000; n++) await store.increment(`client-${n}`, later);
    expect(store.size).toBe(1000);
    await store.increment('one-more', later);
    expect(store.size).toBe(901);
    // The oldest went; the newest stayed.
    expect(await store.count('client-0')).toBe(0);
    expect(await store.count('client-99')).toBe(0);
    expect(await store.count('client-100')).toBe(1);
    for (let n = 0; n < 99; n++) await store.increment(`flood-${n}`, later);
    expect(store.size).toBe(1000);
  });

  it('drops only expired counters when that makes enough room', async () => {
    const clock = new FixedClock('2026-08-01T12:00:00Z');
    const store = new MemoryCacheStore(clock, 1000);
    for (let n = 0; n < 500; n++) await store.increment(`short-${n}`, new Date('2026-08-01T12:00:10Z'));
    for (let n = 0; n < 500; n++) await store.increment(`long-${n}`, later);
    clock.advance(11_000);
    await store.increment('new', later);
    expect(store.size).toBe(501);
    expect(await store.count('long-0')).toBe(1);
  });

  it('refuses a cap that is not a positive whole number', () => {
    for (const cap of [0, -1, 1.5, Number.NaN]) expect(() => new MemoryCacheStore(new FixedClock(), cap)).toThrow(TypeError);
  });
});
