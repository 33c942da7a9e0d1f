import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { Routes, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-session-writes-');

/** When the session cookie is (and is not) written: only when it has something new to say. */
describe('session cookie writes', () => {
  const clock = new FixedClock('2026-06-01T10:00:00Z');
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      clock,
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, SESSION_LIFETIME: '120' },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'writes',
          routes: new Routes()
            .get('/read', (ctx) => json({ visits: ctx.session.get('visits') ?? 0 }))
            .get('/count', (ctx) => json({ visits: ctx.session.increment('visits') })),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  const setsSession = (headers: Headers) => headers.getSetCookie().some((line) => line.startsWith('fw_session='));

  it('gives a visitor asking for a page that does not exist no session', async () => {
    const response = await server.client().get('/no-such-page');
    expect(response.status).toBe(404);
    expect(setsSession(response.headers)).toBe(false);
  });

  it('writes a changed session, skips an unchanged one visited again within a minute, and refreshes it later', async () => {
    const client = server.client();
    expect(setsSession((await client.get('/count')).headers)).toBe(true);

    clock.advance(30_000);
    const unchanged = await client.get('/read');
    expect(unchanged.json()).toEqual({ visits: 1 });
    expect(setsSession(unchanged.headers)).toBe(false);

    clock.advance(31_000);
    expect(setsSession((await client.get('/read')).headers)).toBe(true);

    expect(setsSession((await client.get('/count')).headers)).toBe(true);
    expect((await client.get('/read')).json()).toEqual({ visits: 2 });
  });

  it('keeps a session alive across visits spread over more than its lifetime, each within it', async () => {
    const client = server.client();
    await client.get('/count');
    for (let visit = 0; visit < 6; visit++) {
      clock.advance(50 * 60_000);
      expect((await client.get('/read')).json()).toEqual({ visits: 1 });
    }
    clock.advance(121 * 60_000);
    expect((await client.get('/read')).json()).toEqual({ visits: 0 });
  });
});
