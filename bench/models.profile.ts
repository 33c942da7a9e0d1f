/**
 * Where fw's query layer spends the CPU time that the same query on MikroORM's QueryBuilder does
 * not: for each row of the models bench, one CPU profile (the inspector's, as `node --cpu-prof`
 * takes) of raw's loop and one of fw's, taken in alternating slices in one process, summarised as
 * self time per call by function, then fw minus raw, largest first.
 *
 *     npm run build && node dist/bench/models.profile.js [sqlite|postgres] [row…]
 *
 * rows: a prefix of a bench row's name (`by`, `filtered`, `whereIn`, `hasMany`, `insertMany`);
 * default the first four. PROFILE_CALLS (2000) calls per side; PROFILE_TOP (25) functions listed.
 */
import { Session } from 'node:inspector/promises';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../adapters/persistence/mikro-orm/database.js';
import type { Database } from '../adapters/persistence/mikro-orm/database.js';
import { Secret } from '../domain/shared/secret.js';
import { BenchDatabase } from './support/bench-database.js';
import { modelPairs } from './support/model-pairs.js';
import type { ModelPair } from './support/model-pairs.js';
import { frameName } from './support/cpu-profile.js';
import type { CpuProfile } from './support/cpu-profile.js';

const CALLS = Number(process.env['PROFILE_CALLS'] ?? 2000);
const TOP = Number(process.env['PROFILE_TOP'] ?? 25);
const SLICES = 10;

/** Self time (µs) by function, summed into `into`. */
function selfTimes(profile: CpuProfile, into: Map<string, number>): void {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parents = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);
  // Starting and stopping the profiler (the inspector's dispatch) is sampled too: left out.
  const profiler = (id: number): boolean => {
    for (let at: number | undefined = id; at !== undefined; at = parents.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame?.url === 'node:inspector' || frame?.url === 'node:inspector/promises' || (frame?.functionName === 'dispatch' && frame.url === '')) return true;
    }
    return false;
  };
  profile.samples.forEach((id, index) => {
    const node = byId.get(id);
    if (node === undefined || profiler(id)) return;
    const { functionName } = node.callFrame;
    if (functionName === '(idle)' || functionName === '(program)') return;
    const name = frameName(node.callFrame);
    into.set(name, (into.get(name) ?? 0) + (profile.timeDeltas[index] ?? 0));
  });
}

async function profileLoop(session: Session, work: () => Promise<unknown>, calls: number, into: Map<string, number>): Promise<number> {
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  for (let call = 0; call < calls; call++) await work();
  const used = process.cpuUsage(cpu);
  const { profile } = (await session.post('Profiler.stop')) as { profile: CpuProfile };
  selfTimes(profile, into);
  return used.user + used.system;
}

async function profilePair(session: Session, pair: ModelPair): Promise<void> {
  const calls = Math.max(1, Math.round(pair.name.startsWith('insertMany') ? CALLS / 200 : pair.name.startsWith('whereIn') || pair.name.startsWith('hasMany') ? CALLS / 20 : CALLS));
  for (let call = 0; call < calls / 4; call++) {
    await pair.raw();
    await pair.fw();
  }
  const raw = new Map<string, number>();
  const fw = new Map<string, number>();
  let rawCpu = 0;
  let fwCpu = 0;
  const slice = Math.max(1, Math.round(calls / SLICES));
  for (let done = 0; done < calls; done += slice) {
    rawCpu += await profileLoop(session, pair.raw, slice, raw);
    fwCpu += await profileLoop(session, pair.fw, slice, fw);
  }
  const total = (times: Map<string, number>) => [...times.values()].reduce((sum, time) => sum + time, 0);
  const perCall = (time: number) => (time / calls).toFixed(1).padStart(7);
  console.log(`\n${pair.name}: ${calls} calls each; CPU per call raw ${perCall(rawCpu)} µs, fw ${perCall(fwCpu)} µs (×${(fwCpu / rawCpu).toFixed(2)}); sampled self time raw ${perCall(total(raw))}, fw ${perCall(total(fw))} µs`);
  const names = new Set([...raw.keys(), ...fw.keys()]);
  const rows = [...names].map((name) => ({ name, raw: raw.get(name) ?? 0, fw: fw.get(name) ?? 0 }));
  console.log('  fw − raw self time per call (µs), largest differences:');
  for (const row of rows.sort((a, b) => Math.abs(b.fw - b.raw) - Math.abs(a.fw - a.raw)).slice(0, TOP)) {
    console.log(`   ${perCall(row.fw - row.raw)}  (raw ${perCall(row.raw)}, fw ${perCall(row.fw)})  ${row.name}`);
  }
  console.log('  fw, most self time per call (µs):');
  for (const row of rows.sort((a, b) => b.fw - a.fw).slice(0, Math.ceil(TOP / 2))) console.log(`   ${perCall(row.fw)}  ${row.name}`);
}

async function profileOn(database: Database, wanted: readonly string[]): Promise<void> {
  const pairs = await modelPairs(database);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  for (const pair of pairs) if (wanted.some((prefix) => pair.name.startsWith(prefix))) await profilePair(session, pair);
  session.disconnect();
}

const [engine = 'sqlite', ...rowArguments] = process.argv.slice(2);
const wanted = rowArguments.length > 0 ? rowArguments : ['by', 'filtered', 'whereIn', 'hasMany'];
console.log(`load average ${loadavg().map((load) => load.toFixed(2)).join(' ')}; ${engine}`);
if (engine === 'sqlite') {
  const dir = mkdtempSync(join(tmpdir(), 'fw-profile-models-'));
  const sqlite = await openDatabase({ engine: 'sqlite', path: join(dir, 'profile.sqlite') });
  try {
    await profileOn(sqlite, wanted);
  } finally {
    await sqlite.close();
    rmSync(dir, { recursive: true, force: true });
  }
} else {
  const server = new BenchDatabase();
  const made = await server.create();
  if ('problem' in made) throw new Error(made.problem);
  const postgres = await openDatabase({ engine: 'postgres', url: new Secret(made.url) });
  try {
    await profileOn(postgres, wanted);
  } finally {
    await postgres.close();
    await server.drop();
  }
}
