import { object, string } from 'superstruct';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultApp } from '../../../composition/default-app.js';
import { QueueDashboard, Routes, TOKENS } from '../../../composition/index.js';
import { defineJob } from '../../../composition/jobs.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { testLogin } from '../../support/flows.js';

const Fails = defineJob({
  name: 'fails',
  tries: 1,
  payload: object({ why: string() }),
  handle: ({ why }) => Promise.reject(new Error(why)),
});

/** The dashboard over a socket, behind the gate `view-queue` that only ops@example.com passes. */
describe('fw/queue/dashboard.html', () => {
  let app: TestApp;
  let server: TestServer;
  beforeAll(async () => {
    app = TestApp.create({
      // No worker in the server: the test runs the jobs when it chooses (queue:work --once).
      environment: { QUEUE_CONNECTION: 'database', QUEUE_SERVE_WORKERS: '0' },
      build: (options) =>
        createDefaultApp(options)
          .module({
            name: 'test-login',
            routes: new Routes().post('/test-login/{id}', testLogin),
          })
          .module(QueueDashboard.create({ gate: 'view-queue' }))
          .gate('view-queue', (user) => user.email === 'ops@example.com')
          .job(Fails),
    });
    await app.call('migrate');
    server = await app.serve();
  });
  afterAll(async () => {
    await server.stop();
  });

  async function signedIn(email: string) {
    const user = await app.createUser({ email, name: email, password: 'correct horse battery' });
    const client = server.client();
    expect((await client.post(`/test-login/${user.id}`)).status).toBe(200);
    return client;
  }

  it('is closed to guests and to users the gate refuses', async () => {
    expect((await server.client().get('/queue')).status).not.toBe(200);
    const other = await signedIn('someone@example.com');
    expect((await other.get('/queue')).status).toBe(403);
    expect((await other.post('/queue/failed/1/forget')).status).toBe(403);
  });

  it('shows jobs per queue and state, and the failed jobs, whose buttons retry and forget them', async () => {
    const services = await app.app.services();
    const jobs = services.get(TOKENS.jobs);
    await jobs.dispatch(Fails.with({ why: 'card <declined>' }));
    await app.call('queue:work', ['--once']);
    await jobs.dispatch(Fails.with({ why: 'later' })).delay(60_000);
    const ops = await signedIn('ops@example.com');

    const page = await ops.get('/queue');
    expect(page.status).toBe(200);
    expect(page.text).toMatch(/<th scope="row">default<\/th><td data-state="waiting">0<\/td><td data-state="delayed">1<\/td><td data-state="running">0<\/td><td data-state="failed">1<\/td>/u);
    expect(page.text).toContain('Failed jobs (1)');
    // The error is escaped, like everything a template prints.
    expect(page.text).toContain('<summary>Error: card &lt;declined&gt;</summary>');
    const [, id] = /action="\/queue\/failed\/([^/]+)\/retry"/u.exec(page.text) ?? [];
    expect(id).toBeDefined();

    const retried = await ops.post(`/queue/failed/${id}/retry`);
    expect([retried.status, retried.location]).toEqual([303, '/queue']);
    expect(await services.get(TOKENS.jobQueue).counts(new Date())).toContainEqual({ queue: 'default', state: 'waiting', count: 1 });
    await app.call('queue:work', ['--once']);

    const forgotten = await ops.post(`/queue/failed/${id}/forget`);
    expect(forgotten.location).toBe('/queue');
    expect((await ops.get('/queue')).text).toContain('No failed jobs.');
    expect(await services.get(TOKENS.jobQueue).failed()).toEqual([]);
  });
});
