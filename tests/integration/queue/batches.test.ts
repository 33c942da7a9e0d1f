import { boolean, number, object } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { App } from '../../../composition/app.js';
import { TOKENS } from '../../../composition/index.js';
import { defineJob } from '../../../composition/jobs.js';
import { TestApp } from '../../../composition/testing.js';
import { useEngines, useOwnDatabase } from '../../support/databases.js';

const seen: string[] = [];

const Part = defineJob({
  name: 'part',
  tries: 1,
  payload: object({ n: number(), fail: boolean() }),
  handle: ({ n, fail }) => {
    seen.push(`part ${n}`);
    return fail ? Promise.reject(new Error(`part ${n} failed`)) : Promise.resolve();
  },
});
const Callback = defineJob({
  name: 'callback',
  payload: object({ n: number() }),
  handle: ({ n }) => {
    seen.push(['then', 'catch', 'finally'][n] ?? '?');
    return Promise.resolve();
  },
});
const callbacks = { then: Callback.with({ n: 0 }), catch: Callback.with({ n: 1 }), finally: Callback.with({ n: 2 }) };

function batchApp(environment: () => Record<string, string>): () => TestApp {
  let app: TestApp | null = null;
  beforeAll(async () => {
    app = TestApp.create({ environment: environment(), build: (options) => App.create(options).job(Part).job(Callback) });
    await app.call('migrate');
  });
  afterAll(async () => {
    await app?.app.close();
  });
  return () => app!;
}

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`batches on ${engine.name}`, () => {
    const url = useOwnDatabase(engine);
    const app = batchApp(() => ({ DATABASE_URL: url(), QUEUE_CONNECTION: 'database' }));
    const jobs = async () => (await app().app.services()).get(TOKENS.jobs);

    it('reports progress, and dispatches then and finally once every job succeeded', async () => {
      seen.length = 0;
      const { id } = await (await jobs()).batch([0, 1, 2].map((n) => Part.with({ n, fail: false })), { name: 'import', ...callbacks });
      expect(await (await jobs()).batchStatus(id)).toMatchObject({ name: 'import', total: 3, succeeded: 0, failed: 0, percent: 0, pending: 3, finished: false, finishedAt: null });
      await app().call('queue:work', ['--once']);
      expect(seen).toEqual(['part 0', 'part 1', 'part 2', 'then', 'finally']);
      const status = await (await jobs()).batchStatus(id);
      expect(status).toMatchObject({ total: 3, succeeded: 3, failed: 0, percent: 100, finished: true });
      expect(status?.finishedAt).toBeInstanceOf(Date);
    });

    it('dispatches catch on the first failure and finally at the end, never then', async () => {
      seen.length = 0;
      const parts = [Part.with({ n: 0, fail: true }), Part.with({ n: 1, fail: true }), Part.with({ n: 2, fail: false })];
      const { id } = await (await jobs()).batch(parts, callbacks);
      await app().call('queue:work', ['--once']);
      expect(seen.filter((line) => !line.startsWith('part'))).toEqual(['catch', 'finally']);
      expect(await (await jobs()).batchStatus(id)).toMatchObject({ succeeded: 1, failed: 2, percent: 100, finished: true });
    });

    it('queue:prune-batches deletes finished batches older than --hours (default 24)', async () => {
      const { id } = await (await jobs()).batch([Part.with({ n: 9, fail: false })]);
      await app().call('queue:work', ['--once']);
      const open = await (await jobs()).batch([Part.with({ n: 10, fail: false })]);
      expect((await app().call('queue:prune-batches')).stdout).toBe('Deleted 0 finished batches older than 24 hours.');
      // This one and the two of the tests before.
      expect((await app().call('queue:prune-batches', ['--hours', '0'])).stdout).toBe('Deleted 3 finished batches older than 0 hours.');
      expect(await (await jobs()).batchStatus(id)).toBeNull();
      expect(await (await jobs()).batchStatus(open.id)).toMatchObject({ finished: false });
    });
  });
}

describe('batches with QUEUE_CONNECTION=sync', () => {
  const app = batchApp(() => ({ QUEUE_CONNECTION: 'sync' }));

  it('runs the jobs and the callbacks inline', async () => {
    seen.length = 0;
    const jobs = (await app().app.services()).get(TOKENS.jobs);
    const { id } = await jobs.batch([Part.with({ n: 0, fail: false }), Part.with({ n: 1, fail: false })], callbacks);
    expect(seen).toEqual(['part 0', 'part 1', 'then', 'finally']);
    expect(await jobs.batchStatus(id)).toMatchObject({ succeeded: 2, finished: true });
  });

  it('finishes an empty batch at once', async () => {
    seen.length = 0;
    const jobs = (await app().app.services()).get(TOKENS.jobs);
    const { id } = await jobs.batch([], callbacks);
    expect(seen).toEqual(['then', 'finally']);
    expect(await jobs.batchStatus(id)).toMatchObject({ total: 0, percent: 100, finished: true });
  });
});
