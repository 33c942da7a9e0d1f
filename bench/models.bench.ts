/**
 * What fw's query layer costs over the same queries written directly on MikroORM's
 * QueryBuilder (the target: at most 1.15x each), on SQLite and PostgreSQL, measured in
 * one run: a by-id lookup, a filtered page of 50, `whereIn` of 5000 ids, `hasMany` for 100
 * parents, and `insertMany` of 10 000 rows (bench/support/model-pairs.ts). Run:
 * `npm run build && node dist/bench/models.bench.js`; BENCH_ROUNDS (21), BENCH_WARM_MS (1500).
 *
 * Each pair is first warmed up, raw and fw alternating, for BENCH_WARM_MS: without it the first
 * rounds ran while V8 was still optimising both sides, a slice of the same calls taking 54 ms in
 * the first round and 7 ms in the fifteenth, and the median of the ratios drifted with whichever
 * side happened to be ahead. The machine is shared, so raw and fw then run in alternating rounds
 * (each a fixed slice of calls of one then the other, the order swapped every round) and the
 * figure is the median of the rounds' ratios: a burst of load lands on both sides of a round
 * instead of on one task's whole measurement. A slice lasts at least SLICE_MS and holds at least
 * SLICE_CPU_MS of this process's CPU. Wall time is what the target is about; this
 * process's CPU time (which leaves out PostgreSQL's own work, so its ratio is the stricter one)
 * is printed beside it, with the spread of the CPU ratios (the rounds' quartiles), the ratio of
 * each side's first-quartile CPU time (load adds CPU time to a slice, never takes it away, so the
 * quicker rounds are the cost with the least interference: the steadier figure at load 10+), and
 * the load.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { Secret } from '../domain/shared/secret.js';
import { BenchDatabase } from './support/bench-database.js';
import { modelPairs } from './support/model-pairs.js';

async function run(label: string, database: Database): Promise<void> {
  const pairs = await modelPairs(database);
  console.log(`\n${label} (median of ${ROUNDS} alternating rounds after ${WARM_MS} ms of warm-up; load ${load()})`);
  for (const { name, fw, raw } of pairs) {
    await warmUp(raw, fw);
    const [rawCalls, fwCalls] = [await calibrate(raw), await calibrate(fw)];
    const calls = Math.max(1, Math.round((rawCalls + fwCalls) / 2));
    const rounds: Array<{ raw: Sample; fw: Sample }> = [];
    for (let round = 0; round < ROUNDS; round++) {
      if (round % 2 === 0) {
        const r = await sample(raw, calls);
        rounds.push({ raw: r, fw: await sample(fw, calls) });
      } else {
        const f = await sample(fw, calls);
        rounds.push({ raw: await sample(raw, calls), fw: f });
      }
    }
    const wall = median(rounds.map((round) => round.fw.wall / round.raw.wall));
    const cpuRatios = rounds.map((round) => round.fw.cpu / round.raw.cpu);
    const cpu = median(cpuRatios);
    const micros = (pick: (round: { raw: Sample; fw: Sample }) => number) => ((median(rounds.map(pick)) / calls) * 1000).toFixed(0).padStart(8);
    // Load only ever adds CPU time (caches emptied by the other processes), so each side's quicker rounds are its cost with the least of it.
    const quick = quantile(rounds.map((round) => round.fw.cpu), 0.25) / quantile(rounds.map((round) => round.raw.cpu), 0.25);
    console.log(
      `  ${name.padEnd(24)} raw ${micros((round) => round.raw.wall)} µs   fw ${micros((round) => round.fw.wall)} µs   ×${wall.toFixed(2)}   (CPU ×${cpu.toFixed(2)}, quartiles ${quantile(cpuRatios, 0.25).toFixed(2)}–${quantile(cpuRatios, 0.75).toFixed(2)}; quickest quarters ×${quick.toFixed(2)})`,
    );
  }
  console.log(`  (load ${load()})`);
}

/** The load averages (1, 5, 15 minutes) on this machine's cores. */
function load(): string {
  return loadavg()
    .map((each) => each.toFixed(1))
    .join(' / ');
}

/** Raw then fw, alternating, for WARM_MS: V8 has optimised both before anything is measured. */
async function warmUp(raw: () => Promise<unknown>, fw: () => Promise<unknown>): Promise<void> {
  const end = performance.now() + WARM_MS;
  while (performance.now() < end) {
    await raw();
    await fw();
  }
}

/**
 * Rounds per pair; the wall time and this process's CPU time one side of a round holds at least
 * (PostgreSQL's by-id calls spend ~1 ms waiting and ~60 µs of CPU here, so a 40 ms slice held 2 ms
 * of CPU and one young-generation GC swung its ratio by half); the warm-up per pair.
 */
const ROUNDS = Number(process.env['BENCH_ROUNDS'] ?? 21);
const SLICE_MS = 40;
const SLICE_CPU_MS = 20;
const WARM_MS = Number(process.env['BENCH_WARM_MS'] ?? 1500);

interface Sample {
  /** Milliseconds of wall time and of this process's CPU time for the slice's calls. */
  readonly wall: number;
  readonly cpu: number;
}

async function sample(work: () => Promise<unknown>, calls: number): Promise<Sample> {
  const cpuStart = process.cpuUsage();
  const start = performance.now();
  for (let call = 0; call < calls; call++) await work();
  const wall = performance.now() - start;
  const cpu = process.cpuUsage(cpuStart);
  return { wall, cpu: (cpu.user + cpu.system) / 1000 };
}

/** How many calls fill a slice, in wall time and in CPU time (run after the warm-up). */
async function calibrate(work: () => Promise<unknown>): Promise<number> {
  let calls = 1;
  for (;;) {
    const { wall, cpu } = await sample(work, calls);
    if ((wall >= SLICE_MS / 4 && cpu >= SLICE_CPU_MS / 4) || calls >= 100_000) {
      return Math.max(1, Math.round(Math.max((calls * SLICE_MS) / Math.max(wall, 0.001), (calls * SLICE_CPU_MS) / Math.max(cpu, 0.001))));
    }
    calls *= 4;
  }
}

function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}

/** The `q` quantile of `values`, interpolated between the nearest two. */
function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const at = (sorted.length - 1) * q;
  const low = Math.floor(at);
  return (sorted[low] ?? 0) + ((sorted[Math.ceil(at)] ?? 0) - (sorted[low] ?? 0)) * (at - low);
}

const dir = mkdtempSync(join(tmpdir(), 'fw-bench-models-'));
try {
  const sqlite = await openDatabase({ engine: 'sqlite', path: join(dir, 'bench.sqlite') });
  try {
    await run('SQLite (file)', sqlite);
  } finally {
    await sqlite.close();
  }
  const server = new BenchDatabase();
  const made = await server.create();
  if ('problem' in made) {
    console.log(`\nPostgreSQL skipped: ${made.problem}`);
  } else {
    const postgres = await openDatabase({ engine: 'postgres', url: new Secret(made.url) });
    try {
      await run('PostgreSQL', postgres);
    } finally {
      await postgres.close();
      await server.drop();
    }
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
