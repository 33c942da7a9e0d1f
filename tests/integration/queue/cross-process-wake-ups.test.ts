/**
 * On SQLite, a job dispatched in one process (the test's, as by `serve`) starts in an idle
 * worker of another process (`queue:work`) at once, through the wake file beside the database,
 * not at the worker's poll: the worker here polls every ten minutes, and the test gives each
 * job a minute.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../../composition/app.js';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { TOKENS } from '../../../composition/index.js';
import { TEST_APP_KEY, useTempDir } from '../../support/databases.js';
import { CountJob, queueApp } from '../../support/queue-app.js';

const dir = useTempDir('fw-queue-cross-wake-');
const WORKER = join(FRAMEWORK_ROOT, 'tests', 'integration', 'queue', 'idle-worker.process.ts');

/** The job numbers the worker ran (a line per run in its file). */
function ran(runsDir: string): number[] {
  if (!existsSync(runsDir)) return [];
  return readdirSync(runsDir).flatMap((file) =>
    readFileSync(join(runsDir, file), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => Number(line.split(' ')[0])),
  );
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('a worker in another process on SQLite', () => {
  let app: App;
  let worker: ChildProcess;
  let output = '';
  let exited: Promise<unknown>;
  let runsDir = '';

  beforeAll(async () => {
    runsDir = join(dir(), 'runs');
    mkdirSync(runsDir);
    const env = { APP_KEY: TEST_APP_KEY, LOG_LEVEL: 'warn', DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}`, QUEUE_CONNECTION: 'database', RUNS_DIR: runsDir };
    app = queueApp({ environment: env, envFile: false });
    await (await app.services()).get(TOKENS.migrator).migrate();
    worker = spawn(process.execPath, ['--import', 'tsx', WORKER], {
      cwd: FRAMEWORK_ROOT,
      env: { PATH: process.env['PATH'] ?? '', APP_ENV: 'testing', WORKER_POLL_MS: String(10 * 60_000), ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    worker.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    worker.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    exited = new Promise((resolve) => worker.on('exit', resolve));
    await until(() => output.includes('ready') || worker.exitCode !== null, 120_000, 'the worker process to start');
    expect(worker.exitCode, output).toBeNull();
  }, 180_000);

  afterAll(async () => {
    worker.kill('SIGTERM');
    await exited;
    await app.close();
  });

  it('starts jobs dispatched here at once, not at its poll ten minutes later', { timeout: 180_000 }, async () => {
    const jobs = (await app.services()).get(TOKENS.jobs);
    // The first may be found by the worker's first look; the second comes once it sleeps.
    await jobs.dispatch(CountJob.with({ n: 1 }));
    await until(() => ran(runsDir).includes(1), 60_000, `job 1 to run (worker output: ${output})`);
    await jobs.dispatch(CountJob.with({ n: 2 }));
    await until(() => ran(runsDir).includes(2), 60_000, `job 2 to run (worker output: ${output})`);
    // And one dispatched in a transaction, announced after its commit.
    await jobs.transaction(async (tx) => {
      await tx.dispatch(CountJob.with({ n: 3 }));
    });
    await until(() => ran(runsDir).includes(3), 60_000, `job 3 to run (worker output: ${output})`);
    expect(ran(runsDir).sort()).toEqual([1, 2, 3]);
  });
});
