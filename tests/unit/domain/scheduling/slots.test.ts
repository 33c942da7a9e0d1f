import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { delayUntilNext, dueSlots, soonest } from '../../../../domain/scheduling/slots.js';
import type { NextFiring } from '../../../../domain/scheduling/slots.js';
import { taskNameProblem } from '../../../../domain/scheduling/task-name.js';

/** Fires every `periodMs` from the epoch (a cron `*\/n` in seconds, without the library). */
const every =
  (periodMs: number): NextFiring =>
  (after) =>
    new Date((Math.floor(after.getTime() / periodMs) + 1) * periodMs);

/** Fires at the given instants only, then never again. */
const at =
  (...instants: string[]): NextFiring =>
  (after) => {
    const next = instants.map((i) => new Date(i)).find((d) => d.getTime() > after.getTime());
    return next ?? null;
  };

const t = (iso: string) => new Date(iso);
const iso = (dates: Date[]) => dates.map((d) => d.toISOString());

describe('dueSlots: the firings in (since, until]', () => {
  it.each<[string, NextFiring, string, string, number, string[], number]>([
    ['nothing due before the first firing', every(1000), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.999Z', 100, [], 0],
    ['since is exclusive: a firing at since is not due again', every(1000), '2026-01-01T00:00:01.000Z', '2026-01-01T00:00:01.500Z', 100, [], 0],
    ['until is inclusive: a tick at the firing instant runs it', every(1000), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:01.000Z', 100, ['2026-01-01T00:00:01.000Z'], 0],
    [
      'an overslept tick gets every slot it missed, oldest first',
      every(1000),
      '2026-01-01T00:00:00.200Z',
      '2026-01-01T00:00:03.100Z',
      100,
      ['2026-01-01T00:00:01.000Z', '2026-01-01T00:00:02.000Z', '2026-01-01T00:00:03.000Z'],
      0,
    ],
    ['beyond the limit, the newest are kept and the rest counted', every(1000), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:05.000Z', 2, ['2026-01-01T00:00:04.000Z', '2026-01-01T00:00:05.000Z'], 3],
    ['a schedule that has ended gives nothing', at('2025-01-01T00:00:00Z'), '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 100, [], 0],
    ['a one-off firing inside the window', at('2026-06-01T12:00:00Z'), '2026-01-01T00:00:00Z', '2027-01-01T00:00:00Z', 100, ['2026-06-01T12:00:00.000Z'], 0],
    ['an empty window (until = since)', every(1000), '2026-01-01T00:00:00.000Z', '2026-01-01T00:00:00.000Z', 100, [], 0],
  ])('%s', (_name, next, since, until, limit, expected, skipped) => {
    const due = dueSlots(next, t(since), t(until), limit);
    expect(iso(due.slots)).toEqual(expected);
    expect(due.skipped).toBe(skipped);
  });

  it('refuses a limit below one, and a schedule that goes backwards', () => {
    expect(() => dueSlots(every(1000), t('2026-01-01T00:00:00Z'), t('2026-01-01T00:01:00Z'), 0)).toThrow(RangeError);
    const stuck: NextFiring = () => t('2026-01-01T00:00:00Z');
    expect(() => dueSlots(stuck, t('2026-01-01T00:00:00Z'), t('2026-01-01T00:01:00Z'), 10)).toThrow(/went backwards/u);
  });

  const period = fc.integer({ min: 1, max: 120 }).map((s) => s * 1000);
  const instant = fc.integer({ min: Date.UTC(2020, 0, 1), max: Date.UTC(2030, 0, 1) });

  it('consecutive windows cover every firing exactly once, however the ticks fall', () => {
    fc.assert(
      fc.property(period, instant, fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: 1, maxLength: 30 }), (periodMs, start, gaps) => {
        const next = every(periodMs);
        const seen: number[] = [];
        let since = start;
        for (const gap of gaps) {
          const until = since + gap;
          for (const slot of dueSlots(next, new Date(since), new Date(until), 10_000).slots) seen.push(slot.getTime());
          since = until;
        }
        // What one window over the whole span gives: no slot lost, none twice, in order.
        const whole: number[] = [];
        for (let s = next(new Date(start)); s !== null && s.getTime() <= since; s = next(s)) whole.push(s.getTime());
        expect(seen).toEqual(whole);
      }),
    );
  });

  it('every slot is inside the window, a firing of the schedule, and ascending; at most `limit`', () => {
    fc.assert(
      fc.property(period, instant, fc.integer({ min: 0, max: 600_000 }), fc.integer({ min: 1, max: 50 }), (periodMs, since, span, limit) => {
        const due = dueSlots(every(periodMs), new Date(since), new Date(since + span), limit);
        expect(due.slots.length).toBeLessThanOrEqual(limit);
        let previous = since;
        for (const slot of due.slots) {
          expect(slot.getTime()).toBeGreaterThan(previous);
          expect(slot.getTime()).toBeLessThanOrEqual(since + span);
          expect(slot.getTime() % periodMs).toBe(0);
          previous = slot.getTime();
        }
        // The firings in the window are the slots plus the skipped ones.
        const total = Math.floor((since + span) / periodMs) - Math.floor(since / periodMs);
        expect(due.slots.length + due.skipped).toBe(total);
      }),
    );
  });
});

describe('delayUntilNext and soonest: how long the scheduler sleeps', () => {
  it.each<[string, NextFiring, string, string, number | null]>([
    ['until the next firing', every(60_000), '2026-01-01T00:00:00Z', '2026-01-01T00:00:45Z', 15_000],
    ['zero when the firing is already due (an overslept tick)', every(60_000), '2026-01-01T00:00:00Z', '2026-01-01T00:02:00Z', 0],
    ['null when the schedule has ended', at('2025-01-01T00:00:00Z'), '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z', null],
  ])('%s', (_name, next, after, now, expected) => {
    expect(delayUntilNext(next, t(after), t(now))).toBe(expected);
  });

  it.each<[(number | null)[], number | null]>([
    [[], null],
    [[null, null], null],
    [[5000, null, 200, 7000], 200],
    [[0, 10], 0],
  ])('soonest(%j) = %s', (delays, expected) => {
    expect(soonest(delays)).toBe(expected);
  });
});

describe('taskNameProblem', () => {
  it.each<[string, RegExp | null]>([
    ['reports:daily', null],
    ['prune.sessions', null],
    ['a', null],
    ['9-backup_db', null],
    ['', /empty/u],
    ['-leading-dash', /letters, digits/u],
    ['has space', /letters, digits/u],
    ['semi;colon', /letters, digits/u],
    ['x'.repeat(101), /at most 100/u],
  ])('%j', (name, expected) => {
    const problem = taskNameProblem(name);
    if (expected === null) expect(problem).toBeNull();
    else expect(problem).toMatch(expected);
  });
});
