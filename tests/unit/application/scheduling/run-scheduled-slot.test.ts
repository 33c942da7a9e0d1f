import { describe, expect, it } from 'vitest';
import { CronerCalendar } from '../../../../adapters/cron/croner-calendar.js';
import { MemoryLogger } from '../../../../adapters/log/memory-logger.js';
import { InMemoryScheduleRuns } from '../../../../adapters/persistence/memory/in-memory-schedule-runs.js';
import { RunScheduledSlot } from '../../../../application/scheduling/run-scheduled-slot.js';
import { redactor } from '../../../../composition/queue.js';

describe('a scheduled task that throws', () => {
  it('is logged and kept without the app’s secrets, as a failed job is', async () => {
    const runs = new InMemoryScheduleRuns();
    const logger = new MemoryLogger();
    const clock = { now: () => new Date('2026-11-24T10:00:00.000Z') };
    const slot = new RunScheduledSlot(runs, new InMemoryScheduleRuns(), clock, logger, 'test:1', redactor(['db-pass-42']));
    const task = {
      name: 'report',
      schedule: new CronerCalendar().parse('* * * * *', 'UTC'),
      withoutOverlapping: null,
      onOneServer: true,
      run: () => Promise.reject(new Error('cannot connect to postgres://app:db-pass-42@db/app')),
    };
    expect(await slot.execute(task, new Date('2026-11-24T10:00:00.000Z'), 'schedule')).toBe('failed');
    const [run] = await runs.ofTask('report');
    expect(run?.error).toBe('Error: cannot connect to postgres://app:[secret]@db/app');
    const logged = JSON.stringify(logger.lines);
    expect(logged).toContain('scheduled task failed');
    expect(logged).toContain('postgres://app:[secret]@db/app');
    expect(logged).not.toContain('db-pass-42');
  });
});
