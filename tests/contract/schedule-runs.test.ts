import { beforeEach, describe, expect, it } from 'vitest';
import { InMemoryScheduleRuns } from '../../adapters/persistence/memory/in-memory-schedule-runs.js';
import { SqlScheduleRuns } from '../../adapters/persistence/mikro-orm/sql-schedule-runs.js';
import type { ScheduleClaim, ScheduleRuns } from '../../ports/schedule-runs.js';
import { useEngines } from '../support/databases.js';
import { useMigratedDatabase, useSecondPool } from '../support/migrated-database.js';

const T0 = new Date('2026-11-24T12:00:00.000Z');
const sec = (n: number) => new Date(T0.getTime() + n * 1000);

function claim(task: string, slot: Date, extra: Partial<ScheduleClaim> = {}): ScheduleClaim {
  return { task, slot, trigger: 'schedule', holder: 'host-a:1', startedAt: slot, overlapSince: null, ...extra };
}

/** What every `ScheduleRuns` must do; `sibling` is a second connection pool on the same store (another process). */
function scheduleRunsContract(name: string, fresh: () => Promise<{ runs: ScheduleRuns; sibling?: ScheduleRuns }>): void {
  describe(`ScheduleRuns contract: ${name}`, () => {
    let runs: ScheduleRuns;
    let sibling: ScheduleRuns | undefined;
    beforeEach(async () => {
      ({ runs, sibling } = await fresh());
    });

    it('gives a slot to the first claim only; another slot, trigger or task is another row', async () => {
      expect(await runs.claim(claim('tick', sec(1)))).toBe('run');
      expect(await runs.claim(claim('tick', sec(1), { holder: 'host-b:2' }))).toBe('taken');
      expect(await runs.claim(claim('tick', sec(2)))).toBe('run');
      expect(await runs.claim(claim('tick', sec(1), { trigger: 'manual' }))).toBe('run');
      expect(await runs.claim(claim('other', sec(1)))).toBe('run');
      const rows = await runs.ofTask('tick');
      expect(rows.map((run) => [run.slot.toISOString(), run.trigger, run.holder, run.status])).toEqual([
        [sec(1).toISOString(), 'manual', 'host-a:1', 'running'],
        [sec(1).toISOString(), 'schedule', 'host-a:1', 'running'],
        [sec(2).toISOString(), 'schedule', 'host-a:1', 'running'],
      ]);
    });

    it('records how a run ended, and gives the newest run of each task', async () => {
      await runs.claim(claim('tick', sec(1)));
      await runs.finish('tick', sec(1), 'schedule', { status: 'done', finishedAt: sec(1.25), error: null });
      await runs.claim(claim('tick', sec(2)));
      await runs.finish('tick', sec(2), 'schedule', { status: 'failed', finishedAt: sec(3), error: 'Error: boom' });
      await runs.claim(claim('other', sec(5)));
      const latest = await runs.latest(['tick', 'other', 'never-ran']);
      expect(latest).toEqual([
        { task: 'tick', slot: sec(2), trigger: 'schedule', holder: 'host-a:1', status: 'failed', startedAt: sec(2), finishedAt: sec(3), error: 'Error: boom' },
        { task: 'other', slot: sec(5), trigger: 'schedule', holder: 'host-a:1', status: 'running', startedAt: sec(5), finishedAt: null, error: null },
      ]);
      expect((await runs.ofTask('tick'))[0]?.finishedAt).toEqual(sec(1.25));
    });

    it('withoutOverlapping: a slot is recorded as skipped while a run started after overlapSince is unfinished', async () => {
      expect(await runs.claim(claim('slow', sec(1)))).toBe('run');
      expect(await runs.claim(claim('slow', sec(2), { startedAt: sec(2), overlapSince: sec(-60) }))).toBe('overlapping');
      // The skipped slot is decided: claiming it again is `taken`, not a second chance.
      expect(await runs.claim(claim('slow', sec(2), { startedAt: sec(2), overlapSince: sec(-60) }))).toBe('taken');
      // A run that started before overlapSince (its process died long ago) no longer blocks.
      expect(await runs.claim(claim('slow', sec(3), { startedAt: sec(3), overlapSince: sec(2) }))).toBe('run');
      await runs.finish('slow', sec(1), 'schedule', { status: 'done', finishedAt: sec(4), error: null });
      await runs.finish('slow', sec(3), 'schedule', { status: 'done', finishedAt: sec(4), error: null });
      expect(await runs.claim(claim('slow', sec(5), { startedAt: sec(5), overlapSince: sec(-60) }))).toBe('run');
      // Other tasks' runs never block.
      expect(await runs.claim(claim('fast', sec(5), { startedAt: sec(5), overlapSince: sec(-60) }))).toBe('run');
      expect((await runs.ofTask('slow')).map((run) => run.status)).toEqual(['done', 'skipped', 'done', 'running']);
    });

    it('prunes runs that started before an instant, whatever their status', async () => {
      for (const n of [1, 2, 3, 4]) await runs.claim(claim('tick', sec(n)));
      await runs.finish('tick', sec(1), 'schedule', { status: 'done', finishedAt: sec(1), error: null });
      expect(await runs.prune(sec(3))).toBe(2);
      expect((await runs.ofTask('tick')).map((run) => run.slot)).toEqual([sec(3), sec(4)]);
      expect(await runs.prune(sec(3))).toBe(0);
    });

    it('of many claims of one slot at once, from two pools, exactly one wins', async () => {
      const contenders = [runs, sibling ?? runs];
      for (let slot = 0; slot < 20; slot++) {
        const outcomes = await Promise.all(
          Array.from({ length: 8 }, (_, i) => (contenders[i % 2] as ScheduleRuns).claim(claim('race', sec(slot), { holder: `p:${i}` }))),
        );
        expect(outcomes.filter((outcome) => outcome === 'run')).toHaveLength(1);
        expect(outcomes.filter((outcome) => outcome === 'taken')).toHaveLength(7);
      }
      expect(await runs.ofTask('race')).toHaveLength(20);
    });
  });
}

scheduleRunsContract('memory', () => Promise.resolve({ runs: new InMemoryScheduleRuns() }));

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(engine.name, () => {
    const db = useMigratedDatabase(engine);
    const second = useSecondPool(engine);
    scheduleRunsContract(`SQL on ${engine.name}`, async () => {
      await db().raw.session((sql) => sql.exec('DELETE FROM schedule_runs'));
      return { runs: new SqlScheduleRuns(db().raw), sibling: new SqlScheduleRuns(second().raw) };
    });
  });
}
