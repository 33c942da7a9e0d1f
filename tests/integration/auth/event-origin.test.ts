import { executionAsyncId } from 'node:async_hooks';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Audit, Auth, LoggedOut, Routes, TOKENS, text } from '../../../composition/index.js';
import type { RequestOrigin } from '../../../composition/index.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { App } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestResponse, TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { register, signIn } from '../../support/flows.js';

const dir = useTempDir('fw-event-origin-');

/** An app's own event, published by its handler after an await, or by work left for after the answer. */
class Pinged {
  constructor(readonly by: string) {}
}

/** Whether a promise's callback runs under async_hooks' promise hooks (an AsyncLocalStorage turns them on, on Node 20). */
async function promiseHooksOn(): Promise<boolean> {
  return (await Promise.resolve().then(() => executionAsyncId())) !== 0;
}

/**
 * The audit log and every listener learn which request an event came from (client address,
 * request id) from the request's own view of the event bus, not from an AsyncLocalStorage:
 * the origin survives the handler's awaits, two requests at once, and work left for after the
 * answer; an event published outside any request has none (docs/decisions.md, 'The request's
 * origin travels with its events').
 */
describe("the origin of an event: the request whose work published it", () => {
  let testApp: TestApp;
  let server: TestServer;
  const pings: { by: string; origin: RequestOrigin | null }[] = [];

  beforeAll(async () => {
    testApp = TestApp.create({
      root: join(dir(), 'app'),
      environment: { DATABASE_URL: `sqlite:${join(dir(), 'db.sqlite')}`, MAIL_URL: 'log:', APP_URL: 'http://localhost' },
      build: (options) =>
        createWelcomeApp(App.create(options).module(Auth.create()).module(Audit.create()))
          .module({
            name: 'pings',
            routes: new Routes()
              .post('/ping', async (ctx) => {
                const events = ctx.service(TOKENS.eventBus);
                await new Promise((resolve) => setTimeout(resolve, 20));
                await events.publish(new Pinged('handler'));
                ctx.afterResponse(async () => {
                  await new Promise((resolve) => setTimeout(resolve, 5));
                  await events.publish(new Pinged('after the answer'));
                });
                return text('pong');
              })
              .withoutCsrf(),
          })
          .listen(Pinged, (event, _services, origin) => void pings.push({ by: event.by, origin })),
    });
    server = await testApp.serve();
  });
  afterAll(() => server.stop());

  const activity = async (email: string) => {
    const services = await testApp.app.services();
    const user = await services.get(TOKENS.userRepository).findByEmail(email);
    return (await services.get(TOKENS.activityLog).recent({ userId: user?.id ?? 0, limit: 20 })).reverse();
  };
  const requestId = (response: TestResponse): string | null => response.headers.get('x-request-id');

  it('registering: auth.registered and auth.login carry the client address and the id of the POST /register that made them', async () => {
    const answer = await register(server.client(), { email: 'origin-register@example.com' });
    expect(answer.status).toBe(303);
    expect(requestId(answer)).toMatch(/.{8,}/u);
    expect((await activity('origin-register@example.com')).map(({ action, ipAddress, requestId }) => ({ action, ipAddress, requestId }))).toEqual([
      { action: 'auth.registered', ipAddress: '127.0.0.1', requestId: requestId(answer) },
      { action: 'auth.login', ipAddress: '127.0.0.1', requestId: requestId(answer) },
    ]);
  });

  it('logging in and out: each row has the id of its own request, also when two people log in at the same moment', async () => {
    for (const email of ['origin-a@example.com', 'origin-b@example.com']) await testApp.createUser({ name: 'Origin', email, password: 'correct horse battery' });
    const [a, b] = [server.client(), server.client()];
    const [inA, inB] = await Promise.all([signIn(a, 'origin-a@example.com'), signIn(b, 'origin-b@example.com')]);
    // A page after the login carries the new CSRF token, as the page with the logout button would.
    await a.get('/');
    const out = await a.post('/logout');
    expect([inA.status, inB.status, out.status]).toEqual([303, 303, 303]);
    expect(new Set([requestId(inA), requestId(inB), requestId(out)]).size).toBe(3);

    const rows = (entries: Awaited<ReturnType<typeof activity>>) => entries.map(({ action, ipAddress, requestId }) => ({ action, ipAddress, requestId }));
    expect(rows(await activity('origin-a@example.com'))).toEqual([
      { action: 'auth.login', ipAddress: '127.0.0.1', requestId: requestId(inA) },
      { action: 'auth.logout', ipAddress: '127.0.0.1', requestId: requestId(out) },
    ]);
    expect(rows(await activity('origin-b@example.com'))).toEqual([{ action: 'auth.login', ipAddress: '127.0.0.1', requestId: requestId(inB) }]);
  });

  it("an app's handler publishing through ctx.service after an await, and its work after the answer: the listener gets the request's origin", async () => {
    pings.length = 0;
    const client = server.client();
    const [first, second] = await Promise.all([client.post('/ping'), server.client().post('/ping')]);
    expect([first.status, second.status]).toEqual([200, 200]);
    const ids = [requestId(first), requestId(second)];
    expect(pings.filter((ping) => ping.by === 'handler').map((ping) => ping.origin?.requestId).sort()).toEqual([...ids].sort());
    expect(pings.filter((ping) => ping.by === 'after the answer').map((ping) => ping.origin?.requestId).sort()).toEqual([...ids].sort());
    expect(pings.every((ping) => ping.origin?.ipAddress === '127.0.0.1')).toBe(true);
  });

  it('an event published outside any request (a command, a job) has no origin: the row holds null for both', async () => {
    const services = await testApp.app.services();
    const user = await services.get(TOKENS.userRepository).findByEmail('origin-b@example.com');
    await services.get(TOKENS.eventBus).publish(new LoggedOut(user?.id ?? 0));
    const last = (await activity('origin-b@example.com')).at(-1);
    expect([last?.action, last?.ipAddress, last?.requestId]).toEqual(['auth.logout', null, null]);
  });

  it('serving those requests turned on no promise hooks (no AsyncLocalStorage runs outside local debugging)', async () => {
    expect(await promiseHooksOn()).toBe(false);
  });
});
