import { number, object, string } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../composition/app.js';
import { contextKey, TOKENS } from '../../../composition/index.js';
import { defineJob, InvalidJobPayload } from '../../../composition/jobs.js';
import { TestApp } from '../../../composition/testing.js';
import { Backoffs } from '../../../domain/queue/backoff.js';
import { useEngines } from '../../support/databases.js';
import { useOwnDatabase } from '../../support/databases.js';
import { deleteRedisKeys, redisAvailable, redisTestPrefix, redisUrl } from '../../support/redis-server.js';

/** What the jobs of these tests did, in order. */
const seen: string[] = [];
const Greeting = contextKey<string>('Greeting');

const Record = defineJob({
  name: 'record',
  payload: object({ n: number() }),
  async handle({ n }, context) {
    seen.push(`${context.provided(Greeting)} ${n}`);
    return Promise.resolve();
  },
});
const Urgent = defineJob({
  name: 'urgent',
  queue: 'high',
  payload: object({ n: number() }),
  handle: ({ n }) => {
    seen.push(`urgent ${n}`);
    return Promise.resolve();
  },
});
const Flaky = defineJob({
  name: 'flaky',
  tries: 2,
  backoff: Backoffs.fixed(0),
  payload: object({ label: string() }),
  handle: ({ label }, { job }) => {
    seen.push(`flaky ${label} attempt ${job.attempt}`);
    return Promise.reject(new Error(`boom ${label}`));
  },
});
const Leaky = defineJob({
  name: 'leaky',
  tries: 1,
  payload: object({}),
  handle: (_payload, { services }) => Promise.reject(new Error(`cannot reach ${services.config.redis.url.reveal()}`)),
});
const Slow = defineJob({
  name: 'slow',
  tries: 1,
  timeoutMs: 50,
  payload: object({}),
  handle: (_payload, { job }) => new Promise((resolve) => job.signal.addEventListener('abort', () => resolve(), { once: true })),
});

function build(options: ConstructorParameters<typeof Object>[0]) {
  return App.create(options as never).job(Record).job(Urgent).job(Flaky).job(Slow).job(Leaky).provide(Greeting, 'hello');
}

function queueApp(environment: () => Record<string, string>): () => TestApp {
  let app: TestApp | null = null;
  beforeAll(async () => {
    app = TestApp.create({ environment: { QUEUE_CONNECTION: 'database', ...environment() }, build });
    const migrated = await app.call('migrate');
    expect(migrated.code, migrated.stderr).toBe(0);
  });
  afterAll(async () => {
    await app?.app.close();
  });
  return () => {
    if (app === null) throw new Error('the app starts in beforeAll');
    return app;
  };
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`jobs on the database driver, ${engine.name}`, () => {
    const url = useOwnDatabase(engine);
    const app = queueApp(() => ({ DATABASE_URL: url(), REDIS_URL: 'redis://:hunter2-redis@127.0.0.1:6390' }));
    const jobs = async () => (await app().app.services()).get(TOKENS.jobs);
    const work = (...args: string[]) => app().call('queue:work', ['--once', ...args]);

    it('runs dispatched jobs with the payload and the provided values; a delayed job waits', async () => {
      seen.length = 0;
      await (await jobs()).dispatch(Record.with({ n: 1 }));
      await (await jobs()).dispatch(Record.with({ n: 2 }));
      const delayed = await (await jobs()).dispatch(Record.with({ n: 3 })).delay(60_000);
      expect(delayed.kind).toBe('queued');
      const outcome = await work();
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(seen).toEqual(['hello 1', 'hello 2']);
      expect(outcome.stdout).toContain('2 completed');
      const counts = await (await app().app.services()).get(TOKENS.jobQueue).counts(new Date());
      expect(counts).toEqual([{ queue: 'default', state: 'delayed', count: 1 }]);
      await (await app().app.services()).get(TOKENS.database).raw.session((sql) => sql.exec('DELETE FROM jobs'));
    });

    it('dispatches many jobs at once, in order', async () => {
      seen.length = 0;
      const results = await (await jobs()).dispatchMany([Record.with({ n: 1 }), Urgent.with({ n: 2 }), Record.with({ n: 3 })]);
      expect(results.map((result) => result.kind)).toEqual(['queued', 'queued', 'queued']);
      const outcome = await work('--queue', 'high,default');
      expect(outcome.code, outcome.stderr).toBe(0);
      expect(seen).toEqual(['urgent 2', 'hello 1', 'hello 3']);
    });

    it('refuses a payload that does not fit, at dispatch, and queues nothing', async () => {
      expect(() => Record.with({ n: 'one' } as never)).toThrow(InvalidJobPayload);
      expect(() => Record.with({ n: 'one' } as never)).toThrow(/n: Expected a number/u);
      expect(await (await app().app.services()).get(TOKENS.jobQueue).counts(new Date())).toEqual([]);
    });

    it('takes the queues in the order given by --queue', async () => {
      seen.length = 0;
      await (await jobs()).dispatch(Record.with({ n: 1 }));
      await (await jobs()).dispatch(Urgent.with({ n: 2 }));
      const outcome = await work('--queue', 'high,default', '--workers', '1');
      expect(outcome.stdout).toContain('Working on high, default with 1 worker');
      expect(seen).toEqual(['urgent 2', 'hello 1']);
    });

    it('retries a failing job, keeps it failed with its error and stack, and the commands list, retry, forget, flush and prune it', async () => {
      seen.length = 0;
      await (await jobs()).dispatch(Flaky.with({ label: 'a' }));
      await work();
      expect(seen).toEqual(['flaky a attempt 1', 'flaky a attempt 2']);
      const listed = await app().call('queue:failed');
      expect(listed.stdout).toMatch(/ID\s+Job\s+Queue\s+Attempts\s+Failed at\s+Error/u);
      expect(listed.stdout).toMatch(/flaky\s+default\s+2\s+\S+Z\s+Error: boom a/u);
      const [failed] = JSON.parse((await app().call('queue:failed', ['--json'])).stdout) as { id: string; error: string }[];
      expect(failed?.error).toMatch(/^Error: boom a\n\s+at /u);

      expect((await app().call('queue:retry', [failed!.id])).stdout).toBe(`Failed job ${failed!.id} queued again.`);
      await work();
      expect(seen).toEqual(['flaky a attempt 1', 'flaky a attempt 2', 'flaky a attempt 1', 'flaky a attempt 2']);
      const missing = await app().call('queue:retry', ['424242']);
      expect([missing.code, missing.stderr]).toEqual([1, expect.stringContaining('No failed job has the id 424242')]);

      expect((await app().call('queue:forget', [failed!.id])).stdout).toBe(`Failed job ${failed!.id} deleted.`);
      expect((await app().call('queue:failed')).stdout).toBe('No failed jobs.');

      await (await jobs()).dispatch(Flaky.with({ label: 'b' }));
      await (await jobs()).dispatch(Flaky.with({ label: 'c' }));
      await work();
      expect((await app().call('queue:prune-failed')).stdout).toBe('Deleted 0 failed jobs older than 168 hours.');
      await (await jobs()).dispatch(Flaky.with({ label: 'd' }));
      await work();
      expect((await app().call('queue:retry', ['all'])).stdout).toBe('3 failed jobs queued again.');
      await work();
      expect((await app().call('queue:prune-failed', ['--hours', '0'])).stdout).toBe('Deleted 3 failed jobs older than 0 hours.');
      await (await jobs()).dispatch(Flaky.with({ label: 'e' }));
      await work();
      expect((await app().call('queue:flush')).stdout).toBe('Deleted 1 failed job.');
    });

    it("keeps no secret of the app's settings in a failed job's error", async () => {
      await (await jobs()).dispatch(Leaky.with({}));
      await work();
      const [failed] = JSON.parse((await app().call('queue:failed', ['--json'])).stdout) as { error: string }[];
      expect(failed?.error).toContain('cannot reach redis://:[secret]@127.0.0.1:6390');
      expect(failed?.error).not.toContain('hunter2-redis');
      await app().call('queue:flush');
    });

    it('fails a job that overruns its timeout, saying so', async () => {
      await (await jobs()).dispatch(Slow.with({}));
      await work();
      const [failed] = JSON.parse((await app().call('queue:failed', ['--json'])).stdout) as { name: string; error: string }[];
      expect(failed?.name).toBe('slow');
      expect(failed?.error).toContain('timed out after 50 ms');
      await app().call('queue:flush');
    });

    it('queues the jobs of a transaction only if it commits (the outbox)', async () => {
      seen.length = 0;
      const dispatcher = await jobs();
      await dispatcher.transaction(async (tx) => {
        await tx.query("INSERT INTO cache (key, value) VALUES ('order-1', 'placed')");
        expect(await tx.dispatch(Record.with({ n: 1 }))).toMatchObject({ kind: 'queued' });
      });
      await expect(
        dispatcher.transaction(async (tx) => {
          await tx.query("INSERT INTO cache (key, value) VALUES ('order-2', 'placed')");
          await tx.dispatch(Record.with({ n: 2 }));
          throw new Error('payment refused');
        }),
      ).rejects.toThrow('payment refused');
      await work();
      expect(seen).toEqual(['hello 1']);
      const rows = await (await app().app.services()).get(TOKENS.database).raw.session((sql) => sql.query<{ key: string }>("SELECT key FROM cache WHERE key LIKE 'order-%'"));
      expect(rows.map((row) => row.key)).toEqual(['order-1']);
    });

    it('fails a job nobody registered at once, without retries', async () => {
      const queue = (await app().app.services()).get(TOKENS.jobQueue);
      await queue.enqueue({ name: 'gone', queue: 'default', payload: '{}', tries: 5, backoff: Backoffs.fixed(0), timeoutMs: 1000, availableAt: new Date(), idempotencyKey: null, batchId: null }, new Date());
      await work();
      const [failed] = JSON.parse((await app().call('queue:failed', ['--json'])).stdout) as { attempts: number; error: string }[];
      expect(failed?.attempts).toBe(1);
      expect(failed?.error).toContain('No job named "gone" is registered');
      await app().call('queue:flush');
    });
  });
}

describe('QUEUE_CONNECTION=sync', () => {
  const app = queueApp(() => ({ QUEUE_CONNECTION: 'sync' }));

  it('runs a job at dispatch, and hands its error to the dispatcher', async () => {
    seen.length = 0;
    const jobs = (await app().app.services()).get(TOKENS.jobs);
    expect(await jobs.dispatch(Record.with({ n: 9 }))).toEqual({ kind: 'ran' });
    expect(seen).toEqual(['hello 9']);
    await expect(jobs.dispatch(Flaky.with({ label: 'x' }))).rejects.toThrow('boom x');
    expect(seen).toEqual(['hello 9', 'flaky x attempt 1']);
  });

  it('runs the jobs of a transaction after it commits, and none of one rolled back', async () => {
    seen.length = 0;
    const jobs = (await app().app.services()).get(TOKENS.jobs);
    await jobs.transaction(async (tx) => {
      expect(await tx.dispatch(Record.with({ n: 1 }))).toEqual({ kind: 'after-commit' });
      expect(seen).toEqual([]);
    });
    await expect(
      jobs.transaction(async (tx) => {
        await tx.dispatch(Record.with({ n: 2 }));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(seen).toEqual(['hello 1']);
  });
});


describe.skipIf(!(await redisAvailable()))('QUEUE_CONNECTION=redis', () => {
  const prefix = `${redisTestPrefix}jobs`;
  const app = queueApp(() => ({ QUEUE_CONNECTION: 'redis', REDIS_URL: redisUrl, QUEUE_PREFIX: prefix }));
  afterAll(async () => {
    await deleteRedisKeys(prefix);
  });

  it('runs dispatched jobs, keeps the failed ones for the commands, and sends a transaction\'s jobs after its commit', async () => {
    seen.length = 0;
    const jobs = (await app().app.services()).get(TOKENS.jobs);
    expect(await jobs.dispatch(Record.with({ n: 1 }))).toMatchObject({ kind: 'queued' });
    await jobs.dispatch(Urgent.with({ n: 2 }));
    await jobs.transaction(async (tx) => {
      expect(await tx.dispatch(Record.with({ n: 3 }))).toEqual({ kind: 'after-commit' });
    });
    await jobs.dispatch(Flaky.with({ label: 'r' }));
    // Many at once: one MULTI per queue on Redis, answered in order.
    const many = await jobs.dispatchMany([Record.with({ n: 4 }), Urgent.with({ n: 5 })]);
    expect(many.map((result) => result.kind)).toEqual(['queued', 'queued']);
    const outcome = await app().call('queue:work', ['--once', '--queue', 'high,default']);
    expect(outcome.code, outcome.stderr).toBe(0);
    expect(seen.filter((line) => line !== 'urgent 5' && line !== 'hello 4')).toEqual(['urgent 2', 'hello 1', 'hello 3', 'flaky r attempt 1', 'flaky r attempt 2']);
    expect(seen.slice(0, 2)).toEqual(['urgent 2', 'urgent 5']);
    expect(seen).toContain('hello 4');
    const [failed] = JSON.parse((await app().call('queue:failed', ['--json'])).stdout) as { id: string; error: string }[];
    expect(failed?.error).toMatch(/^Error: boom r\n\s+at /u);
    expect((await app().call('queue:retry', [failed!.id])).stdout).toBe(`Failed job ${failed!.id} queued again.`);
    await app().call('queue:work', ['--once']);
    expect((await app().call('queue:flush')).stdout).toBe('Deleted 1 failed job.');
  });
});
