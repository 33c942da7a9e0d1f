/**
 * The command line of a small app with one job, for the queue's reliability tests (processes
 * of their own, killed and restarted): `node --import tsx tests/support/queue-app.ts queue:work …`.
 *
 * `count` appends its `n` and the attempt to `<RUNS_DIR>/<pid>.log` (one line per run, written
 * with O_APPEND, so two processes never interleave a line) and takes `JOB_MS` milliseconds.
 */
import { appendFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { number, object } from 'superstruct';
import { App } from '../../composition/app.js';
import type { AppOptions } from '../../composition/app.js';
import { defineJob } from '../../composition/jobs.js';

export const CountJob = defineJob({
  name: 'count',
  payload: object({ n: number() }),
  timeoutMs: Number(process.env['JOB_TIMEOUT_MS'] ?? 2000),
  async handle({ n }, { job }) {
    const ms = Number(process.env['JOB_MS'] ?? 0);
    if (ms > 0) await sleep(ms);
    appendFileSync(join(process.env['RUNS_DIR'] ?? '.', `${process.pid}.log`), `${n} ${job.attempt}\n`);
  },
});

export function queueApp(options: AppOptions = {}): App {
  return App.create(options).job(CountJob);
}

if (process.argv[1]?.endsWith('queue-app.ts') === true || process.argv[1]?.endsWith('queue-app.js') === true) {
  const app = queueApp();
  const io = { out: (line: string) => process.stdout.write(`${line}\n`), err: (line: string) => process.stderr.write(`${line}\n`) };
  try {
    process.exitCode = await app.kernel().run(process.argv.slice(2), io);
  } finally {
    await app.close();
  }
}
