import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Migration } from '../../../../domain/migrations/migration-files.js';
import { migrationStatus, planMigrate, planRollback } from '../../../../domain/migrations/migration-plan.js';
import type { AppliedMigration, MigrationStatus } from '../../../../domain/migrations/migration-plan.js';

const T = new Date('2024-05-01T10:00:00Z');

function migration(id: string, options: { down?: boolean } = {}): Migration {
  return { id, source: 'app', up: `-- up ${id}`, down: options.down === false ? null : `-- down ${id}` };
}

function ran(id: string, batch: number, ranAt: Date = T): AppliedMigration {
  return { id, batch, ranAt };
}

const ids = (migrations: readonly Migration[]): string[] => migrations.map((m) => m.id);

const A = '20240101000000_a';
const B = '20240102000000_b';
const C = '20240103000000_c';
const D = '20240104000000_d';
const E = '20240105000000_e';
const available = [A, B, C, D, E].map((id) => migration(id));

describe('planMigrate', () => {
  it.each<[string, AppliedMigration[], number, string[]]>([
    ['nothing applied: batch 1 with everything', [], 1, [A, B, C, D, E]],
    ['batch 1 applied: batch 2 with the rest', [ran(A, 1), ran(B, 1)], 2, [C, D, E]],
    ['batches 1 and 3 applied (2 was rolled back): batch 4', [ran(A, 1), ran(B, 3)], 4, [C, D, E]],
    ['a hole in the middle is filled', [ran(A, 1), ran(C, 1), ran(E, 2)], 3, [B, D]],
    ['everything applied: nothing to run', [A, B, C, D, E].map((id) => ran(id, 1)), 2, []],
    ['an applied migration whose file is gone only counts for the batch number', [ran('20230101000000_old', 7)], 8, [A, B, C, D, E]],
  ])('%s', (_what, applied, batch, pending) => {
    const plan = planMigrate(available, applied);
    expect(plan.batch).toBe(batch);
    expect(ids(plan.migrations)).toEqual(pending);
  });

  it('hands back the migrations themselves, SQL included', () => {
    expect(planMigrate(available, [ran(A, 1)]).migrations[0]).toEqual(migration(B));
  });
});

describe('planRollback', () => {
  const applied = [ran(A, 1), ran(B, 1), ran(C, 2), ran(D, 3), ran(E, 3)];

  it.each<[number, string[]]>([
    [1, [E, D]],
    [2, [E, D, C]],
    [3, [E, D, C, B, A]],
    [4, [E, D, C, B, A]],
    [100, [E, D, C, B, A]],
  ])('steps=%i undoes the whole last batches, newest batch first, then id descending', (steps, expected) => {
    const plan = planRollback(available, applied, steps);
    expect(plan).toEqual({ kind: 'ok', migrations: expected.map((id) => migration(id)) });
  });

  it('orders by batch before id: a newer batch with an older id still goes first', () => {
    const plan = planRollback(available, [ran(E, 1), ran(A, 2), ran(B, 2)], 2);
    expect(plan.kind === 'ok' && ids(plan.migrations)).toEqual([B, A, E]);
  });

  it('does not care in which order the applied rows come', () => {
    const plan = planRollback(available, [...applied].reverse(), 2);
    expect(plan.kind === 'ok' && ids(plan.migrations)).toEqual([E, D, C]);
  });

  it('with nothing applied there is nothing to undo', () => {
    expect(planRollback(available, [], 1)).toEqual({ kind: 'ok', migrations: [] });
  });

  it('refuses as a whole when a chosen migration has no down file, listing the ids', () => {
    const withoutDowns = [migration(A), migration(B, { down: false }), migration(C), migration(D, { down: false }), migration(E)];
    expect(planRollback(withoutDowns, applied, 1)).toEqual({ kind: 'refused', reason: 'no-down-file', ids: [D] });
    expect(planRollback(withoutDowns, applied, 3)).toEqual({ kind: 'refused', reason: 'no-down-file', ids: [D, B] });
  });

  it('a migration without a down file outside the chosen batches does not block', () => {
    const withoutDowns = [migration(A, { down: false }), migration(B), migration(C), migration(D), migration(E)];
    expect(planRollback(withoutDowns, applied, 2)).toMatchObject({ kind: 'ok' });
  });

  it('refuses as a whole when the file of a chosen migration is gone, listing the ids', () => {
    const gone = available.filter((m) => m.id !== D && m.id !== C);
    expect(planRollback(gone, applied, 1)).toEqual({ kind: 'refused', reason: 'missing-file', ids: [D] });
    expect(planRollback(gone, applied, 2)).toEqual({ kind: 'refused', reason: 'missing-file', ids: [D, C] });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])('throws a TypeError for steps=%s', (steps) => {
    expect(() => planRollback(available, applied, steps)).toThrow(TypeError);
  });
});

describe('migrationStatus', () => {
  it('lists ran, pending and missing-file rows in id order', () => {
    const earlier = new Date('2024-04-01T00:00:00Z');
    const rows = migrationStatus([migration(C), migration(A), migration(B)], [ran(B, 2, T), ran('20231231000000_gone', 1, earlier), ran(A, 1, earlier)]);
    expect(rows).toEqual<MigrationStatus[]>([
      { id: '20231231000000_gone', state: 'missing-file', batch: 1, ranAt: earlier },
      { id: A, state: 'ran', batch: 1, ranAt: earlier },
      { id: B, state: 'ran', batch: 2, ranAt: T },
      { id: C, state: 'pending', batch: null, ranAt: null },
    ]);
  });

  it('is empty when nothing is known', () => {
    expect(migrationStatus([], [])).toEqual([]);
  });
});

// ---- Properties

/** Distinct migration ids in ascending order, as `migrationsFor` hands them over. */
const idSet = fc
  .uniqueArray(fc.integer({ min: 0, max: 40 }), { maxLength: 20 })
  .map((ns) => [...ns].sort((a, b) => a - b).map((n) => `${20_240_000_000_000 + n}_m${n}`));

/** Available migrations, and for each, the batch it ran in (or null when still pending). */
const history = idSet.chain((all) =>
  fc.record({
    available: fc.constant(all.map((id) => migration(id))),
    batches: fc.array(fc.option(fc.integer({ min: 1, max: 6 }), { nil: null }), { minLength: all.length, maxLength: all.length }),
  }),
).chain(({ available: avail, batches }) => {
  const rows = avail.flatMap((m, i) => {
    const batch = batches[i] ?? null;
    return batch === null ? [] : [ran(m.id, batch)];
  });
  return fc.record({ available: fc.constant(avail), applied: fc.shuffledSubarray(rows, { minLength: rows.length }) });
});

describe('properties', () => {
  it('migrate, then rollback(1), undoes exactly what migrate ran, in reverse order', () => {
    fc.assert(
      fc.property(history, ({ available: avail, applied }) => {
        const plan = planMigrate(avail, applied);
        fc.pre(plan.migrations.length > 0);
        const after = [...applied, ...plan.migrations.map((m) => ran(m.id, plan.batch))];
        const rollback = planRollback(avail, after, 1);
        expect(rollback).toEqual({ kind: 'ok', migrations: [...plan.migrations].reverse() });
      }),
    );
  });

  it('rollback(k) for k at least the number of batches undoes every applied migration', () => {
    fc.assert(
      fc.property(history, fc.nat({ max: 3 }), ({ available: avail, applied }, extra) => {
        const batchCount = new Set(applied.map((row) => row.batch)).size;
        const plan = planRollback(avail, applied, Math.max(1, batchCount + extra));
        expect(plan.kind).toBe('ok');
        if (plan.kind !== 'ok') return;
        expect(ids(plan.migrations).sort()).toEqual(applied.map((row) => row.id).sort());
      }),
    );
  });

  it('planMigrate never returns an applied id, misses no pending one, and keeps ids ascending', () => {
    fc.assert(
      fc.property(history, ({ available: avail, applied }) => {
        const plan = planMigrate(avail, applied);
        const appliedIds = new Set(applied.map((row) => row.id));
        const planned = ids(plan.migrations);
        expect(planned.filter((id) => appliedIds.has(id))).toEqual([]);
        expect(planned).toEqual(ids(avail).filter((id) => !appliedIds.has(id)));
        expect(planned).toEqual([...planned].sort());
        expect(plan.batch).toBe(Math.max(0, ...applied.map((row) => row.batch)) + 1);
      }),
    );
  });

  it('status has exactly one row per id in available ∪ applied, in id order, with the right state', () => {
    const scenario = fc
      .tuple(idSet, idSet)
      .chain(([availableIds, appliedIds]) =>
        fc.record({
          availableIds: fc.shuffledSubarray(availableIds, { minLength: availableIds.length }),
          applied: fc.shuffledSubarray(
            appliedIds.map((id, i) => ran(id, 1 + (i % 3))),
            { minLength: appliedIds.length },
          ),
        }),
      );
    fc.assert(
      fc.property(scenario, ({ availableIds, applied }) => {
        const rows = migrationStatus(availableIds.map((id) => migration(id)), applied);
        const union = [...new Set([...availableIds, ...applied.map((row) => row.id)])].sort();
        expect(rows.map((row) => row.id)).toEqual(union);
        for (const row of rows) {
          const isAvailable = availableIds.includes(row.id);
          const appliedRow = applied.find((a) => a.id === row.id);
          const expected = appliedRow === undefined ? 'pending' : isAvailable ? 'ran' : 'missing-file';
          expect(row.state).toBe(expected);
          expect(row.batch).toBe(appliedRow?.batch ?? null);
        }
      }),
    );
  });
});

describe('planMigrate keeps id order whatever order it is given', () => {
  it('sorts pending migrations by id', () => {
    const plan = planMigrate([migration('20260102000000_b'), migration('20260101000000_a')], []);
    expect(ids(plan.migrations)).toEqual(['20260101000000_a', '20260102000000_b']);
  });
});
