import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { MemoryCacheStore } from '../../../adapters/cache/memory-cache-store.js';
import { Limit, Routes, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-throttle-');

describe('rate limits on the memory store', () => {
  const clock = new FixedClock('2026-08-01T12:00:00Z');
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      clock,
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, TRUSTED_PROXIES: '127.0.0.1' },
      build: (options) =>
        createDefaultApp(options)
          .module({
            name: 'limited',
            // A limit wraps every route added before it: each route here gets a set of its own.
            routes: new Routes()
              .get('/limited', () => json({ ok: true }))
              .throttle(3, 60)
              .merge(new Routes().get('/burst', () => json({ ok: true })).throttle(5, 60))
              .merge(new Routes().get('/keyed', () => json({ ok: true })).throttleBy('api'))
              .merge(new Routes().get('/free', () => json({ ok: true })).throttleBy('none')),
          })
          .rateLimiter('api', (request) => Limit.perMinute(2).by(String(request.headers['x-api-key'] ?? 'anonymous')))
          .rateLimiter('none', () => Limit.none()),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  const from = (ip: string) => ({ headers: { 'x-forwarded-for': ip } });

  it('allows the limit in a window with the headers, then 429 with Retry-After until the window ends', async () => {
    const client = server.client();
    for (const remaining of ['2', '1', '0']) {
      const ok = await client.get('/limited', from('198.51.100.1'));
      expect(ok.status).toBe(200);
      expect(ok.headers.get('x-ratelimit-limit')).toBe('3');
      expect(ok.headers.get('x-ratelimit-remaining')).toBe(remaining);
    }
    clock.advance(15_000);
    const refused = await client.get('/limited', from('198.51.100.1'));
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('45');
    expect(refused.text).toContain('Too many requests');
    const api = await client.get('/limited', { headers: { ...from('198.51.100.1').headers, accept: 'application/json' } });
    expect(api.json()).toEqual({ message: 'Too many requests. Please wait before trying again.' });
    clock.advance(45_000);
    expect((await client.get('/limited', from('198.51.100.1'))).status).toBe(200);
  });

  it('counts each client apart, and every spelling of one IPv6 /64 as one client', async () => {
    clock.advance(60_000);
    for (let n = 0; n < 3; n++) expect((await server.client().get('/limited', from('203.0.113.7'))).status).toBe(200);
    expect((await server.client().get('/limited', from('203.0.113.7'))).status).toBe(429);
    expect((await server.client().get('/limited', from('203.0.113.8'))).status).toBe(200);

    const spellings = ['2001:db8:1:2::1', '2001:DB8:1:2:0:0:0:2', '2001:db8:0001:0002::3'];
    for (const ip of spellings) expect((await server.client().get('/limited', from(ip))).status).toBe(200);
    expect((await server.client().get('/limited', from('2001:db8:1:2:ffff::9'))).status).toBe(429);
  });

  it('uses a named limiter and its own key', async () => {
    clock.advance(60_000);
    const key = (value: string) => ({ headers: { 'x-api-key': value } });
    expect((await server.client().get('/keyed', key('a'))).status).toBe(200);
    expect((await server.client().get('/keyed', key('a'))).status).toBe(200);
    expect((await server.client().get('/keyed', key('a'))).status).toBe(429);
    expect((await server.client().get('/keyed', key('b'))).status).toBe(200);
    const free = await server.client().get('/free');
    expect(free.status).toBe(200);
    expect(free.headers.get('x-ratelimit-limit')).toBeNull();
  });

  it('never lets more than the limit through when requests arrive together', async () => {
    clock.advance(60_000);
    const answers = await Promise.all(Array.from({ length: 20 }, () => server.client().get('/burst', from('192.0.2.50'))));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(5);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(15);
  });
});

describe('rate limits at start-up', () => {
  it('refuses a .throttleBy() whose limiter the app does not register, naming the route', async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/unknown.sqlite` },
      build: (options) => createDefaultApp(options).module({ name: 'x', routes: new Routes().get('/x', () => json({})).name('x.show').throttleBy('missing') }),
    });
    await expect(app.serve()).rejects.toThrow("The route GET /x ('x.show', module x) uses .throttleBy('missing'), but the app registers no App.rateLimiter('missing', …)");
    await app.close();
  });
});

describe('MemoryCacheStore', () => {
  it('keeps at most maxKeys counters, expired ones first, then the oldest', async () => {
    const clock = new FixedClock('2026-08-01T12:00:00Z');
    const store = new MemoryCacheStore(clock, 3);
    const soon = new Date('2026-08-01T12:00:10Z');
    const later = new Date('2026-08-01T13:00:00Z');
    await store.increment('a', soon);
    await store.increment('b', later);
    await store.increment('c', later);
    clock.advance(11_000);
    await store.increment('d', later);
    expect(store.size).toBe(3);
    expect(await store.increment('b', later)).toBe(2);
    for (let n = 0; n < 1000; n++) await store.increment(`flood-${n}`, later);
    expect(store.size).toBe(3);
    expect(await store.increment('b', later)).toBe(1);
  });
});

describe('route layers at start-up', () => {
  it('refuses a route under an extension layer this kernel does not know, rather than serving it without', async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/unknown-layer.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'x',
          routes: new Routes().get('/x', () => json({})).name('x.show').layer({ kind: 'extension', name: 'cache-for', label: 'cache:60', value: 60 }),
        }),
    });
    await expect(app.serve()).rejects.toThrow("The route GET /x uses the layer 'cache:60', which this version of the kernel does not know");
    await app.close();
  });
});
