import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { ScheduleLoop } from '../../../adapters/cli/schedule-loop.js';
import { CronerCalendar } from '../../../adapters/cron/croner-calendar.js';
import { MemoryLogger } from '../../../adapters/log/memory-logger.js';
import type { LogLine } from '../../../adapters/log/memory-logger.js';
import { InMemoryScheduleRuns } from '../../../adapters/persistence/memory/in-memory-schedule-runs.js';
import { RunScheduledSlot } from '../../../application/scheduling/run-scheduled-slot.js';
import type { ScheduledTask, TaskRun } from '../../../application/scheduling/scheduled-task.js';
import type { Clock } from '../../../ports/clock.js';

/** The system's time plus an offset a test can move forward (a process that stalled). */
class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

const everySecond = new CronerCalendar().parse('* * * * * *', 'UTC');

describe('ScheduleLoop (real timers, a task every second)', () => {
  let loop: ScheduleLoop | null = null;
  afterEach(async () => {
    await loop?.stop();
    loop = null;
  });

  function start(run: (run: TaskRun) => Promise<void>, clock: Clock, logs: LogLine[], options: { catchUpLimit?: number } = {}): InMemoryScheduleRuns {
    const runs = new InMemoryScheduleRuns();
    const task: ScheduledTask = { name: 'tick', schedule: everySecond, withoutOverlapping: null, onOneServer: true, run };
    const logger = new MemoryLogger(logs);
    loop = new ScheduleLoop([task], new RunScheduledSlot(runs, new InMemoryScheduleRuns(), clock, logger, 'test:1'), runs, clock, logger, options);
    loop.start();
    return runs;
  }

  it('runs each whole second once, and stop() waits for the run under way and takes no new slot', async () => {
    const slots: string[] = [];
    let finished = 0;
    const runs = start(
      async (run) => {
        slots.push(run.slot.toISOString());
        await sleep(1300);
        finished++;
      },
      new ShiftedClock(),
      [],
    );
    await sleep(2200);
    const current = loop!;
    await current.stop();
    expect(finished).toBe(slots.length);
    expect(slots.length).toBeGreaterThanOrEqual(1);
    for (const slot of slots) expect(slot).toMatch(/:\d\d\.000Z$/u);
    expect(new Set(slots).size).toBe(slots.length);
    const before = slots.length;
    await sleep(1200);
    expect(slots.length).toBe(before);
    expect((await runs.ofTask('tick')).every((run) => run.status === 'done')).toBe(true);
  });

  it('offers every slot it overslept, and past the catch-up limit says how many it skipped', async () => {
    const clock = new ShiftedClock();
    const logs: LogLine[] = [];
    const slots: number[] = [];
    start(
      (run) => {
        slots.push(run.slot.getTime());
        return Promise.resolve();
      },
      clock,
      logs,
      { catchUpLimit: 3 },
    );
    clock.offsetMs = 6000;
    await sleep(1500);
    // The first tick after the jump owed about seven slots: the newest three ran, the rest were skipped and said so.
    expect(logs.some((line) => line.message === 'scheduler fell behind: older slots skipped')).toBe(true);
    const sorted = [...slots].sort((a, b) => a - b);
    expect(sorted).toEqual(slots);
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]! - sorted[i - 1]!).toBe(1000);
  });
});
