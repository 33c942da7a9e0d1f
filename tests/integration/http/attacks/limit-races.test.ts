import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { Limit, Routes, json } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { rawRequest } from './raw-http.js';
import type { RawResponse } from './raw-http.js';

/**
 * Spec 001, Limits: `.throttle(max, per)` counts per IP address for guests; over the limit the
 * answer is 429 with `Retry-After`, allowed answers carry `X-RateLimit-Limit` and
 * `X-RateLimit-Remaining`; `.throttleBy(name)` counts by the key of `App.rateLimiter(name, …)`.
 * Requests here arrive together, over separate connections, to catch a check-then-increment race.
 */

const LIMIT = 5;
const KEYED_LIMIT = 3;
/** A minute boundary: every run starts a window of its own. */
const START = Date.parse('2026-08-01T12:00:00Z');

function limitedApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/limited', () => json({ ok: true }))
    .throttle(LIMIT, 60)
    .merge(new Routes().get('/keyed', () => json({ ok: true })).throttleBy('api'));
  return createDefaultApp(options)
    .module({ name: 'limited', routes })
    .rateLimiter('api', (request) => {
      const key = request.headers['x-api-key'];
      return Limit.perMinute(KEYED_LIMIT).by(typeof key === 'string' && key !== '' ? key : 'anonymous');
    });
}

/** Shuffles by the given ranks (from fast-check, so a failing order is replayed). */
function shuffled<T>(items: readonly T[], ranks: readonly number[]): T[] {
  return items
    .map((item, index) => ({ item, rank: ranks[index % Math.max(1, ranks.length)] ?? 0, index }))
    .sort((a, b) => a.rank - b.rank || a.index - b.index)
    .map(({ item }) => item);
}

describe('rate limits under concurrent requests (property-based)', () => {
  const clock = new FixedClock(new Date(START));
  let server: TestServer;
  let window = 0;

  beforeAll(async () => {
    // The client connects from 127.0.0.1, which may speak for others through X-Forwarded-For.
    server = await TestApp.create({ clock, environment: { TRUSTED_PROXIES: '127.0.0.1' }, build: limitedApp }).serve();
  });
  afterAll(() => server.stop());

  /** Moves the clock into a window no earlier run used, `offset` ms after its start. */
  function freshWindow(offset = 0): void {
    window += 1;
    clock.set(new Date(START + window * 60_000 + offset));
  }

  const get = (target: string, headers: [string, string][] = []) => rawRequest(server.url, { target, headers });

  function expectAllowed(response: RawResponse, limit: number): void {
    expect(response.status).toBe(200);
    expect(response.header('x-ratelimit-limit')).toBe(String(limit));
  }

  function expectRefused(response: RawResponse): number {
    expect(response.status).toBe(429);
    const retryAfter = response.header('retry-after') ?? '';
    expect(retryAfter).toMatch(/^[1-9]\d*$/u);
    expect(Number(retryAfter)).toBeLessThanOrEqual(60);
    return Number(retryAfter);
  }

  it(`lets exactly ${LIMIT} of n simultaneous requests from one client through, and refuses the rest with 429 and Retry-After`, async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 50 }),
        fc.integer({ min: 0, max: 59_999 }),
        fc.option(fc.tuple(fc.integer({ min: 1, max: 223 }), fc.nat(255), fc.nat(255), fc.integer({ min: 1, max: 254 })).map((octets) => octets.join('.'))),
        async (n, offset, forwardedFor) => {
          freshWindow(offset);
          const headers: [string, string][] = forwardedFor === null ? [] : [['x-forwarded-for', forwardedFor]];
          const answers = await Promise.all(Array.from({ length: n }, () => get('/limited', headers)));
          const allowed = answers.filter((answer) => answer.status === 200);
          const refused = answers.filter((answer) => answer.status !== 200);
          expect(allowed).toHaveLength(Math.min(n, LIMIT));
          expect(refused).toHaveLength(Math.max(0, n - LIMIT));
          for (const answer of allowed) expectAllowed(answer, LIMIT);
          // Each allowed answer counted once: the remaining counts are all different.
          const remaining = allowed.map((answer) => Number(answer.header('x-ratelimit-remaining'))).sort((a, b) => a - b);
          expect(remaining).toEqual(Array.from({ length: allowed.length }, (_, index) => LIMIT - allowed.length + index));
          const waits = new Set(refused.map(expectRefused));
          // One window, one clock: every refusal names the same wait, which ends with the window.
          expect(waits.size).toBeLessThanOrEqual(1);
          for (const wait of waits) expect(wait).toBe(Math.max(1, Math.ceil((60_000 - offset) / 1000)));
        },
      ),
      { numRuns: 20, examples: [[50, 0, null]] },
    );
  });

  it('counts every client apart (an IPv6 /64 as one client, however spelled), also when their requests interleave', async () => {
    // Clients: IPv4 addresses, and IPv6 /64 networks whose requests come from any host in them.
    const client = fc.oneof(
      fc.tuple(fc.constantFrom(198, 203, 100), fc.nat(255), fc.nat(255)).map(([a, b, c]) => ({ kind: 4 as const, prefix: `${a}.${b}.${c}` })),
      fc.tuple(fc.integer({ min: 1, max: 0xffff }), fc.nat(0xffff)).map(([a, b]) => ({ kind: 6 as const, prefix: `2001:db8:${a.toString(16)}:${b.toString(16)}` })),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.uniqueArray(client, { minLength: 1, maxLength: 5, selector: (c) => c.prefix }),
        fc.array(fc.tuple(fc.nat(), fc.nat(0xffff), fc.constantFrom('lower', 'upper', 'expanded', 'mapped')), { minLength: 1, maxLength: 40 }),
        async (clients, picks) => {
          freshWindow();
          const requests = picks.map(([which, host, spelling]) => {
            const chosen = clients[which % clients.length] ?? clients[0];
            if (chosen === undefined) throw new Error('no client');
            // One IPv4 client is one address; the last octet comes from the prefix's own index.
            let address: string;
            if (chosen.kind === 4) {
              const ip = `${chosen.prefix}.${(which % clients.length) + 1}`;
              address = spelling === 'mapped' ? `::ffff:${ip}` : ip;
            } else {
              const full = `${chosen.prefix}:0:0:0:${host.toString(16)}`;
              address = spelling === 'upper' ? full.toUpperCase() : spelling === 'expanded' ? full.split(':').map((g) => g.padStart(4, '0')).join(':') : full;
            }
            return { key: chosen.prefix, address };
          });
          const answers = await Promise.all(requests.map(({ address }) => get('/limited', [['x-forwarded-for', address]])));
          const counts = new Map<string, { sent: number; allowed: number }>();
          requests.forEach(({ key }, index) => {
            const entry = counts.get(key) ?? { sent: 0, allowed: 0 };
            entry.sent += 1;
            if (answers[index]?.status === 200) entry.allowed += 1;
            else expectRefused(answers[index] as RawResponse);
            counts.set(key, entry);
          });
          for (const [key, { sent, allowed }] of counts) expect({ key, allowed }).toEqual({ key, allowed: Math.min(sent, LIMIT) });
        },
      ),
      { numRuns: 20 },
    );
  });

  it('with .throttleBy and a limiter keyed by a header, counts each key apart, and apart from the per-IP limits', async () => {
    // Keys that look like each other, like the counter keys' own separators, or like other subjects.
    const key = fc.oneof(
      fc.constantFrom('a', 'A', 'a|b', 'a%7Cb', 'a%7cb', '%', '|', 'by:a', 'ip:127.0.0.1', '127.0.0.1', 'user:1', 'anonymous', 'route:GET /limited', 'a b', 'a,b'),
      fc.stringMatching(/^[!-~]{1,12}$/u),
    );
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.option(key, { freq: 6 }), { minLength: 1, maxLength: 30 }),
        fc.integer({ min: 0, max: 8 }),
        fc.array(fc.nat(), { maxLength: 40 }),
        async (keys, perIp, ranks) => {
          freshWindow();
          const keyed = keys.map((value) => ({ target: '/keyed', key: value ?? 'anonymous', headers: value === null ? [] : ([['x-api-key', value]] as [string, string][]) }));
          const limited = Array.from({ length: perIp }, () => ({ target: '/limited', key: null, headers: [] as [string, string][] }));
          const requests = shuffled([...keyed, ...limited], ranks);
          const answers = await Promise.all(requests.map(({ target, headers }) => get(target, headers)));
          const perKey = new Map<string, { sent: number; allowed: number }>();
          let ipAllowed = 0;
          requests.forEach((request, index) => {
            const answer = answers[index] as RawResponse;
            if (answer.status === 200) expectAllowed(answer, request.key === null ? LIMIT : KEYED_LIMIT);
            else expectRefused(answer);
            if (request.key === null) {
              if (answer.status === 200) ipAllowed += 1;
              return;
            }
            const entry = perKey.get(request.key) ?? { sent: 0, allowed: 0 };
            entry.sent += 1;
            if (answer.status === 200) entry.allowed += 1;
            perKey.set(request.key, entry);
          });
          for (const [name, { sent, allowed }] of perKey) expect({ key: name, allowed }).toEqual({ key: name, allowed: Math.min(sent, KEYED_LIMIT) });
          expect(ipAllowed).toBe(Math.min(perIp, LIMIT));
        },
      ),
      { numRuns: 25 },
    );
  });
});
