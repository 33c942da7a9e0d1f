import { spawn, spawnSync } from 'node:child_process';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../../adapters/persistence/mikro-orm/database.js';
import { SqlScheduleRuns } from '../../../adapters/persistence/mikro-orm/sql-schedule-runs.js';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { parseConfig } from '../../../composition/config.js';
import { TEST_APP_KEY, useEngines, useTempDir } from '../../support/databases.js';

const TSX = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href;
const FIXTURE = join(FRAMEWORK_ROOT, 'tests', 'support', 'fixtures', 'scheduled-app.ts');
/** Each scheduler runs this long before one is killed, and the survivor as long again after. */
const PHASE_MS = 8000;

interface Scheduler {
  child: ChildProcessWithoutNullStreams;
  exited: Promise<number | null>;
  output: () => string;
}

function environment(databaseUrl: string, log: string): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '', APP_KEY: TEST_APP_KEY, APP_ENV: 'testing', LOG_LEVEL: 'warn', DATABASE_URL: databaseUrl, FIXTURE_LOG: log };
}

async function startScheduler(env: NodeJS.ProcessEnv): Promise<Scheduler> {
  const child = spawn(process.execPath, ['--import', TSX, FIXTURE, 'schedule:work'], { env, stdio: ['pipe', 'pipe', 'pipe'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  for (const started = Date.now(); !output.includes('Running 1 scheduled task'); await sleep(50)) {
    if (child.exitCode !== null) throw new Error(`schedule:work exited with ${child.exitCode}: ${output}`);
    if (Date.now() - started > 20_000) throw new Error(`schedule:work did not start in time: ${output}`);
  }
  return { child, exited, output: () => output };
}

/** Lines "<slot> <pid>" the task appended, as slot → pids that ran it. */
function runsBySlot(log: string): Map<number, number[]> {
  const bySlot = new Map<number, number[]>();
  if (!existsSync(log)) return bySlot;
  for (const line of readFileSync(log, 'utf8').split('\n').filter((l) => l !== '')) {
    const [slot = '', pid = ''] = line.split(' ');
    const at = new Date(slot).getTime();
    bySlot.set(at, [...(bySlot.get(at) ?? []), Number(pid)]);
  }
  return bySlot;
}

describe('two schedulers of one app, a task every second, one of them killed with SIGKILL', () => {
  const tempDir = useTempDir('fw-schedulers-');
  for (const engine of useEngines()) {
    it.skipIf(!engine.available)(
      `runs each slot exactly once, before and after the kill (${engine.name})`,
      async () => {
        const log = join(tempDir(), `${engine.name}.log`);
        const env = environment(engine.url(), log);
        const migrated = spawnSync(process.execPath, ['--import', TSX, FIXTURE, 'migrate'], { env, encoding: 'utf8' });
        expect(migrated.status, migrated.stderr).toBe(0);

        const [a, b] = await Promise.all([startScheduler(env), startScheduler(env)]);
        if (a === undefined || b === undefined) throw new Error('two schedulers');
        const from = Date.now();
        await sleep(PHASE_MS);
        a.child.kill('SIGKILL');
        await a.exited;
        const killedAt = Date.now();
        await sleep(PHASE_MS);
        const until = Date.now();
        b.child.kill('SIGTERM');
        expect(await b.exited, b.output()).toBe(0);

        const bySlot = runsBySlot(log);
        const database = await openDatabase(parseConfig({ APP_KEY: TEST_APP_KEY, DATABASE_URL: engine.url() }, FRAMEWORK_ROOT).database);
        const rows = await new SqlScheduleRuns(database.raw).ofTask('tick').finally(() => database.close());
        const rowOf = new Map(rows.map((row) => [row.slot.getTime(), row]));
        const pidA = a.child.pid ?? -1;
        const pidB = b.child.pid ?? -1;

        // Every whole second while a scheduler ran (a second's margin at both ends for start-up and stop).
        const first = Math.ceil(from / 1000) * 1000 + 1000;
        const last = Math.floor(until / 1000) * 1000 - 1000;
        let checked = 0;
        let unfinishedByTheKilled = 0;
        for (let slot = first; slot <= last; slot += 1000) {
          const pids = bySlot.get(slot) ?? [];
          const row = rowOf.get(slot);
          expect(row, `slot ${new Date(slot).toISOString()} was never claimed`).toBeDefined();
          if (row?.status === 'running' && row.holder.endsWith(`:${pidA}`)) {
            // Claimed by the killed process and cut short: run at most once, never twice.
            unfinishedByTheKilled++;
            expect(pids.length).toBeLessThanOrEqual(1);
          } else {
            expect(pids, `slot ${new Date(slot).toISOString()}`).toHaveLength(1);
            expect(row?.status).toBe('done');
          }
          // After the kill, the survivor runs every slot.
          if (slot > killedAt + 1000) expect(pids).toEqual([pidB]);
          checked++;
        }
        expect(unfinishedByTheKilled).toBeLessThanOrEqual(1);
        expect(checked).toBeGreaterThanOrEqual((2 * PHASE_MS) / 1000 - 3);
        // No slot anywhere in the log ran twice (the margins included).
        for (const [slot, pids] of bySlot) expect(pids, new Date(slot).toISOString()).toHaveLength(1);
      },
      2 * PHASE_MS + 60_000,
    );
  }
});
