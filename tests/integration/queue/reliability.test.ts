import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { TOKENS } from '../../../composition/index.js';
import { TEST_APP_KEY, useEngines, useOwnDatabase, useTempDir } from '../../support/databases.js';
import { CountJob, queueApp } from '../../support/queue-app.js';
import { deleteRedisKeys, redisAvailable, redisTestPrefix, redisUrl } from '../../support/redis-server.js';

/**
 * The queue with real processes: workers of a small app (tests/support/queue-app.ts) started,
 * killed with SIGKILL and cut off from their database, while the test reads what each job did
 * (a line per run in the worker's own file).
 */
const dir = useTempDir('fw-queue-reliability-');
const APP = join(FRAMEWORK_ROOT, 'tests', 'support', 'queue-app.ts');

interface Worker {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

function startWorker(env: Record<string, string>, args: readonly string[]): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', APP, 'queue:work', ...args], {
    cwd: FRAMEWORK_ROOT,
    env: { PATH: process.env['PATH'] ?? '', APP_KEY: TEST_APP_KEY, APP_ENV: 'testing', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { child, output: () => output, exited };
}

/** Every run the workers recorded: job number → attempts that ran it. */
function runs(runsDir: string): Map<number, number> {
  const seen = new Map<number, number>();
  if (!existsSync(runsDir)) return seen;
  for (const file of readdirSync(runsDir)) {
    for (const line of readFileSync(join(runsDir, file), 'utf8').split('\n')) {
      if (line === '') continue;
      const n = Number(line.split(' ')[0]);
      seen.set(n, (seen.get(n) ?? 0) + 1);
    }
  }
  return seen;
}

async function until(condition: () => boolean, timeoutMs: number, what: string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await sleep(50);
  }
}

/** Dispatches jobs 0..count-1 from the test process (in one transaction on the database driver). */
async function dispatch(env: Record<string, string>, count: number): Promise<void> {
  const app = queueApp({ environment: { APP_KEY: TEST_APP_KEY, LOG_LEVEL: 'silent', ...env }, envFile: false });
  try {
    const services = await app.services();
    await services.get(TOKENS.migrator).migrate();
    const jobs = services.get(TOKENS.jobs);
    if (env['QUEUE_CONNECTION'] === 'redis') {
      for (let start = 0; start < count; start += 200) {
        await Promise.all(Array.from({ length: Math.min(200, count - start) }, (_, i) => jobs.dispatch(CountJob.with({ n: start + i }))));
      }
    } else {
      await jobs.transaction(async (tx) => {
        for (let n = 0; n < count; n++) await tx.dispatch(CountJob.with({ n }));
      });
    }
  } finally {
    await app.close();
  }
}

interface Setup {
  name: string;
  available: () => Promise<boolean>;
  env: () => Record<string, string>;
}

const engines = useEngines();
const setups: Setup[] = engines.map((engine) => {
  const url = engine.available ? useOwnDatabase(engine) : () => '';
  return { name: `database on ${engine.name}`, available: () => Promise.resolve(engine.available), env: () => ({ DATABASE_URL: url(), QUEUE_CONNECTION: 'database' }) };
});
let redisRun = 0;
setups.push({
  name: 'redis',
  available: redisAvailable,
  env: () => ({
    DATABASE_URL: `sqlite:${join(dir(), 'redis-app.sqlite')}`,
    QUEUE_CONNECTION: 'redis',
    REDIS_URL: redisUrl,
    QUEUE_PREFIX: `${redisTestPrefix}rel${redisRun}`,
  }),
});
afterAll(async () => {
  if (await redisAvailable()) await deleteRedisKeys(redisTestPrefix);
});

for (const setup of setups) {
  describe.skipIf(!(await setup.available()))(setup.name, () => {
    let round = 0;
    const fresh = (name: string) => {
      redisRun++;
      const runsDir = join(dir(), `${setup.name.replace(/\W/gu, '-')}-${name}-${++round}`);
      rmSync(runsDir, { recursive: true, force: true });
      mkdirSync(runsDir, { recursive: true });
      return { runsDir, env: { ...setup.env(), RUNS_DIR: runsDir } };
    };

    it('two worker processes run each of 10 000 jobs exactly once', { timeout: 240_000 }, async () => {
      const { runsDir, env } = fresh('10k');
      await dispatch(env, 10_000);
      const workers = [startWorker(env, ['--workers', '2', '--once']), startWorker(env, ['--workers', '2', '--once'])];
      const codes = await Promise.all(workers.map((worker) => worker.exited));
      expect(codes, workers.map((worker) => worker.output()).join('\n')).toEqual([0, 0]);
      const seen = runs(runsDir);
      expect(seen.size).toBe(10_000);
      expect([...seen.values()].filter((times) => times !== 1)).toEqual([]);
      // Both took a share.
      expect(readdirSync(runsDir)).toHaveLength(2);
    });

    // Generous deadlines: on Redis the dead worker's jobs come back through BullMQ's stalled check
    // (two passes 5 s apart) and an idle survivor may wait out its 5 s poll; a full suite on two
    // busy cores once took past 40 s, where alone it takes 14 s.
    it("a worker killed with SIGKILL loses no job: its jobs come back after their lease", { timeout: 180_000 }, async () => {
      const { runsDir, env } = fresh('kill');
      const jobEnv = { ...env, JOB_MS: '40', JOB_TIMEOUT_MS: '300' };
      await dispatch(jobEnv, 100);
      const doomed = startWorker(jobEnv, ['--workers', '4']);
      await until(() => runs(runsDir).size >= 20, 60_000, 'the first worker to run 20 jobs');
      doomed.child.kill('SIGKILL');
      await doomed.exited;
      const survivor = startWorker(jobEnv, ['--workers', '4']);
      try {
        await until(() => runs(runsDir).size === 100, 120_000, 'every job to run');
      } finally {
        survivor.child.kill('SIGTERM');
        expect(await survivor.exited, survivor.output()).toBe(0);
      }
      const seen = runs(runsDir);
      expect([...seen.keys()].sort((a, b) => a - b)).toEqual(Array.from({ length: 100 }, (_, n) => n));
      expect(survivor.output()).toContain('Stopped: ');
    });

    it('SIGTERM lets the running jobs finish and takes no new one', { timeout: 150_000 }, async () => {
      const { runsDir, env } = fresh('term');
      const jobEnv = { ...env, JOB_MS: '300' };
      await dispatch(jobEnv, 20);
      const worker = startWorker(jobEnv, ['--workers', '2']);
      await until(() => runs(runsDir).size >= 2, 60_000, 'the first jobs');
      worker.child.kill('SIGTERM');
      expect(await worker.exited, worker.output()).toBe(0);
      const done = runs(runsDir).size;
      expect(done).toBeLessThan(20);
      // Nothing was left half-done: the rest are still waiting, none is leased.
      const app = queueApp({ environment: { APP_KEY: TEST_APP_KEY, LOG_LEVEL: 'silent', ...jobEnv }, envFile: false });
      try {
        const counts = await (await app.services()).get(TOKENS.jobQueue).counts(new Date());
        expect(counts).toEqual([{ queue: 'default', state: 'waiting', count: 20 - done }]);
      } finally {
        await app.close();
      }
    });
  });
}

describe.skipIf(!engines[1]?.available)('a PostgreSQL that goes away under a worker', () => {
  const url = engines[1]?.available === true ? useOwnDatabase(engines[1]) : () => '';

  it('logs, waits and resumes; every job still runs', { timeout: 90_000 }, async () => {
    const runsDir = join(dir(), 'pg-outage');
    mkdirSync(runsDir, { recursive: true });
    const env = { DATABASE_URL: url(), QUEUE_CONNECTION: 'database', RUNS_DIR: runsDir, JOB_MS: '20', LOG_LEVEL: 'info' };
    await dispatch(env, 200);
    const worker = startWorker(env, ['--workers', '2']);
    try {
      await until(() => runs(runsDir).size >= 20, 60_000, 'the first jobs');
      // The database refuses new connections and cuts the open ones, for two seconds: a
      // restarting server, as the worker sees it.
      const serverUrl = new URL(url());
      const database = serverUrl.pathname.slice(1);
      serverUrl.pathname = '/postgres';
      const admin = new pg.Client({ connectionString: serverUrl.toString() });
      await admin.connect();
      try {
        await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS false`);
        await admin.query('SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()', [database]);
        const during = runs(runsDir).size;
        await sleep(2000);
        // Nothing ran while the database was away.
        expect(runs(runsDir).size - during).toBeLessThanOrEqual(2);
      } finally {
        await admin.query(`ALTER DATABASE "${database}" ALLOW_CONNECTIONS true`);
        await admin.end();
      }
      await until(() => runs(runsDir).size === 200, 60_000, 'every job after the outage');
    } finally {
      worker.child.kill('SIGTERM');
      await worker.exited;
    }
    expect(worker.output()).toContain('the queue cannot be reached; the worker waits and tries again');
    expect(worker.output()).toContain('the queue is reachable again; the worker resumes');
  });
});
