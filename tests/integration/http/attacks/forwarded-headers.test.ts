import { isIP } from 'node:net';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, json } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { headerText, splitInto } from './generators.js';
import { rawRequest } from './raw-http.js';
import type { RawResponse } from './raw-http.js';

/**
 * Spec 001, 'Request ids, client IPs, hosts': `X-Forwarded-For` / `Forwarded` are believed only
 * from TRUSTED_PROXIES, and then the client is the nearest address that is not a trusted proxy;
 * with TRUSTED_HOSTS set any other host is answered 400, and `/health` answers whatever the
 * host. The test server listens on 127.0.0.1, so the socket's peer is always 127.0.0.1: one app
 * trusts it as a proxy, the other does not.
 */

const TRUSTED_PROXIES = '127.0.0.0/8, 10.0.0.0/8, 2001:db8:ffff::/48';
/** The same ranges without the loopback one the test client connects from. */
const OTHER_PROXIES = '10.0.0.0/8, 2001:db8:ffff::/48';
const LISTED_HOST = 'example.com';

function ipApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/ip', (ctx) => json({ ip: ctx.ip }))
    .get('/public', (ctx) => json({ route: 'public', path: ctx.path }))
    .get('/admin', (ctx) => json({ route: 'admin', path: ctx.path }))
    // A domain TRUSTED_HOSTS does not list (say, an internal tool's): unreachable from outside.
    .domain('{tenant}.internal.test', new Routes().get('/public', (ctx) => json({ route: 'internal', tenant: ctx.domainParams.get('tenant') ?? null })));
  return createDefaultApp(options).module({ name: 'forwarded', routes });
}

// --- Addresses, each with its canonical text and whether it is a trusted proxy's -----------------

interface Hop {
  /** As written in the header. */
  spelling: string;
  /** The canonical address, or null when the entry is no address (the walk stops there). */
  canonical: string | null;
  trusted: boolean;
}

const byte = fc.integer({ min: 0, max: 255 });
const group = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 0xffff }));

function v4(trusted: boolean): fc.Arbitrary<{ canonical: string; octets: number[] }> {
  // 10/8 and 127/8 are trusted; the others are not listed in TRUSTED_PROXIES.
  const first = trusted ? fc.constantFrom(10, 127) : fc.constantFrom(1, 8, 23, 45, 100, 172, 192, 198, 203, 223);
  return fc.tuple(first, byte, byte, byte).map((octets) => ({ canonical: octets.join('.'), octets }));
}

function v6(trusted: boolean): fc.Arbitrary<number[]> {
  const head = trusted
    ? fc.constant([0x2001, 0x0db8, 0xffff])
    : fc.oneof(fc.tuple(fc.constantFrom(0x2a00, 0x2600, 0xfe80), group, group), fc.tuple(fc.constant(0x2001), fc.constant(0x0db9), group));
  return fc.tuple(head, fc.array(group, { minLength: 5, maxLength: 5 })).map(([start, rest]) => [...start, ...rest]);
}

/** RFC 5952 text, from the WHATWG URL parser (an oracle independent of the framework). */
function canonicalV6(groups: readonly number[]): string {
  return new URL(`http://[${groups.map((g) => g.toString(16)).join(':')}]/`).hostname.slice(1, -1);
}

/** Other spellings of one IPv6 address: case, leading zeros, another zero run compressed. */
function v6Spelling(groups: readonly number[]): fc.Arbitrary<string> {
  const canonical = canonicalV6(groups);
  const zeroRuns: [number, number][] = [];
  for (let start = 0; start < 8; start++) {
    if (groups[start] !== 0 || (start > 0 && groups[start - 1] === 0)) continue;
    let end = start;
    while (end < 8 && groups[end] === 0) end++;
    zeroRuns.push([start, end]);
  }
  const compressed = zeroRuns.map(([start, end]) => {
    const left = groups.slice(0, start).map((g) => g.toString(16));
    const right = groups.slice(end).map((g) => g.toString(16));
    return `${left.join(':')}::${right.join(':')}`;
  });
  return fc.constantFrom(
    canonical,
    canonical.toUpperCase(),
    groups.map((g) => g.toString(16).padStart(4, '0')).join(':'),
    groups.map((g) => g.toString(16).toUpperCase()).join(':'),
    ...compressed,
  );
}

function validHop(forXff: boolean): fc.Arbitrary<Hop> {
  const v4Hop = fc.boolean().chain((trusted) =>
    v4(trusted).chain(({ canonical }) =>
      fc
        .constantFrom(canonical, `::ffff:${canonical}`, `::FFFF:${canonical}`, `0:0:0:0:0:ffff:${canonical}`, `[::ffff:${canonical}]`)
        .map((spelling) => ({ spelling, canonical, trusted })),
    ),
  );
  const v6Hop = fc.boolean().chain((trusted) =>
    v6(trusted).chain((groups) =>
      fc
        .tuple(v6Spelling(groups), fc.constantFrom('plain', 'brackets', 'zone'))
        .map(([spelling, dress]) => ({
          spelling: dress === 'brackets' ? `[${spelling}]` : dress === 'zone' && forXff ? `${spelling}%eth0` : spelling,
          canonical: canonicalV6(groups),
          trusted,
        })),
    ),
  );
  return fc.oneof(v4Hop, v6Hop);
}

/** Entries that are no address: obfuscated identifiers, octal and integer IPv4, broken IPv6. */
const NOT_ADDRESSES = ['unknown', '_hidden', '_SEVKISEK', '1.2.3', '256.1.1.1', '010.0.0.1', '0x7f.0.0.1', '2130706433', '1.2.3.4.5', '::g', ':::1', '1::2::3', '12345::1', 'localhost'];

const invalidHop: fc.Arbitrary<Hop> = fc.oneof(
  fc.constantFrom(...NOT_ADDRESSES),
  // `x` is never part of an address, so these stay garbage whatever follows.
  headerText({ maxLength: 20 }).map((text) => `x${text.replace(/[,;"=]/gu, '')}`.trim()),
).map((spelling) => ({ spelling, canonical: null, trusted: false }));

/** The client the spec wants: walk from the nearest hop; stop at the first untrusted or unreadable one. */
function expectedClient(peer: string, hops: readonly Hop[]): string {
  let client = peer;
  for (let index = hops.length - 1; index >= 0; index--) {
    const hop = hops[index];
    if (hop === undefined || hop.canonical === null) break;
    client = hop.canonical;
    if (!hop.trusted) break;
  }
  return client;
}

/** An X-Forwarded-For list, with the odd empty entry and spacing proxies produce. */
function xffText(hops: readonly Hop[], separators: readonly string[]): string {
  return hops.map((hop, index) => (index === 0 ? hop.spelling : `${separators[index % separators.length] ?? ','}${hop.spelling}`)).join('');
}

/** A `Forwarded` element (RFC 7239) for a hop, with other parameters around `for=`. */
function forwardedElement(hop: Hop, style: { quote: boolean; port: boolean; name: string; before: string[]; after: string[] }): string {
  let value: string;
  if (hop.canonical === null) value = hop.spelling.replace(/[,;"=\s]/gu, '') || 'unknown';
  else if (hop.spelling.includes(':')) {
    // IPv6 (and IPv4-mapped) addresses are quoted and bracketed, with or without a port.
    const bare = hop.spelling.replace(/^\[|\]$/gu, '').replace(/%.*$/u, '');
    value = `"[${bare}]${style.port ? ':4711' : ''}"`;
  } else value = style.quote || style.port ? `"${hop.spelling}${style.port ? ':8080' : ''}"` : hop.spelling;
  return [...style.before, `${style.name}=${value}`, ...style.after].join(';');
}

const forwardedStyle = fc.record({
  quote: fc.boolean(),
  port: fc.boolean(),
  name: fc.constantFrom('for', 'For', 'FOR'),
  before: fc.subarray(['proto=https', 'by=10.0.0.2', 'host=example.com']),
  after: fc.subarray(['by="[2001:db8:ffff::1]"', 'proto=http']),
});

describe('X-Forwarded-For, Forwarded and Host from random clients (property-based)', () => {
  let trusting: TestServer;
  let distrusting: TestServer;

  beforeAll(async () => {
    trusting = await TestApp.create({
      environment: { TRUSTED_PROXIES, TRUSTED_HOSTS: `${LISTED_HOST}, *.tenants.test`, APP_URL: 'http://app.example' },
      build: ipApp,
    }).serve();
    // No TRUSTED_HOSTS here: any Host is served, as by default.
    distrusting = await TestApp.create({ environment: { TRUSTED_PROXIES: OTHER_PROXIES, APP_URL: 'http://app.example' }, build: ipApp }).serve();
  });
  afterAll(async () => {
    await trusting.stop();
    await distrusting.stop();
  });

  async function ipSeenBy(server: TestServer, headers: [string, string][]): Promise<RawResponse> {
    return rawRequest(server.url, { target: '/ip', headers: [['host', LISTED_HOST], ...headers] });
  }

  /** Forwarding headers of every kind: valid lists, garbage, both at once, over several lines. */
  const anyForwarding = fc
    .tuple(
      fc.array(fc.oneof({ weight: 3, arbitrary: validHop(true) }, { weight: 1, arbitrary: invalidHop }), { maxLength: 12 }),
      fc.array(fc.oneof({ weight: 3, arbitrary: validHop(false) }, { weight: 1, arbitrary: invalidHop }), { maxLength: 6 }),
      fc.constantFrom('xff', 'forwarded', 'both', 'garbage'),
      fc.integer({ min: 1, max: 3 }),
      forwardedStyle,
      headerText({ maxLength: 200 }),
    )
    .map(([xffHops, forwardedHops, kind, lines, style, garbage]) => {
      const headers: [string, string][] = [];
      if (kind === 'xff' || kind === 'both') for (const run of splitInto(xffHops, lines)) headers.push(['x-forwarded-for', xffText(run, [', '])]);
      if (kind === 'forwarded' || kind === 'both') for (const run of splitInto(forwardedHops, lines)) headers.push(['forwarded', run.map((hop) => forwardedElement(hop, style)).join(', ')]);
      if (kind === 'garbage') headers.push(['x-forwarded-for', garbage], ['forwarded', garbage]);
      return headers.filter(([, value]) => value.trim() !== '');
    });

  it('from an untrusted peer, the client is always the socket address, whatever the headers say', async () => {
    await fc.assert(
      fc.asyncProperty(anyForwarding, async (headers) => {
        const response = await ipSeenBy(distrusting, headers);
        expect(response.status, JSON.stringify(headers)).toBe(200);
        expect(response.json()).toEqual({ ip: '127.0.0.1' });
      }),
      { numRuns: 80 },
    );
  });

  it('from a trusted peer, X-Forwarded-For gives the nearest untrusted address, in canonical form', async () => {
    const separators = fc.array(fc.constantFrom(',', ', ', ' , ', ',,', ',\t'), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(fc.array(validHop(true), { minLength: 1, maxLength: 10 }), separators, fc.integer({ min: 1, max: 3 }), async (hops, between, lines) => {
        // A list split over several header lines is one list (RFC 9110 §5.3).
        const headers = splitInto(hops, lines).map((run): [string, string] => ['x-forwarded-for', xffText(run, between)]);
        const response = await ipSeenBy(trusting, headers);
        expect(response.status).toBe(200);
        expect(response.json<{ ip: string }>().ip, JSON.stringify(headers)).toBe(expectedClient('127.0.0.1', hops));
      }),
      { numRuns: 80 },
    );
  });

  it('from a trusted peer, an unreadable entry ends the walk at the last good address', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 3, arbitrary: validHop(true) }, { weight: 1, arbitrary: invalidHop }), { minLength: 1, maxLength: 10 }),
        async (hops) => {
          const response = await ipSeenBy(trusting, [['x-forwarded-for', xffText(hops, [', '])]]);
          expect(response.status).toBe(200);
          expect(response.json<{ ip: string }>().ip, xffText(hops, [', '])).toBe(expectedClient('127.0.0.1', hops));
        },
      ),
      { numRuns: 60 },
    );
  });

  it('from a trusted peer, Forwarded (RFC 7239) wins over X-Forwarded-For and is walked the same way', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.oneof({ weight: 4, arbitrary: validHop(false) }, { weight: 1, arbitrary: invalidHop }), { minLength: 1, maxLength: 8 }),
        forwardedStyle,
        fc.option(fc.array(validHop(true), { minLength: 1, maxLength: 3 })),
        async (hops, style, decoy) => {
          const forwarded = hops.map((hop) => forwardedElement(hop, style)).join(', ');
          const headers: [string, string][] = [['forwarded', forwarded]];
          if (decoy !== null) headers.push(['x-forwarded-for', xffText(decoy, [', '])]);
          const response = await ipSeenBy(trusting, headers);
          expect(response.status).toBe(200);
          expect(response.json<{ ip: string }>().ip, forwarded).toBe(expectedClient('127.0.0.1', hops));
        },
      ),
      { numRuns: 80 },
    );
  });

  it('from a trusted peer, any forwarding headers give 200 and a real address, never a 500', async () => {
    await fc.assert(
      fc.asyncProperty(anyForwarding, async (headers) => {
        const response = await ipSeenBy(trusting, headers);
        expect(response.status, JSON.stringify(headers)).toBe(200);
        const { ip } = response.json<{ ip: string | null }>();
        expect(isIP(ip ?? ''), String(ip)).not.toBe(0);
      }),
      { numRuns: 60 },
    );
  });

  it('walks huge X-Forwarded-For lists (hundreds of hops) without a 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 200, max: 2500 }),
        fc.option(fc.nat()),
        v4(false),
        async (count, untrustedAt, client) => {
          const hops: Hop[] = Array.from({ length: count }, (_, index) => {
            const canonical = `10.${(index >> 16) & 255}.${(index >> 8) & 255}.${index & 255}`;
            return { spelling: canonical, canonical, trusted: true };
          });
          if (untrustedAt !== null) hops[untrustedAt % count] = { spelling: client.canonical, canonical: client.canonical, trusted: false };
          const header = xffText(hops, [', ']);
          const response = await ipSeenBy(trusting, [['x-forwarded-for', header]]);
          // Past about 16 KB of headers the server refuses before the app (400 or 431).
          if (header.length < 15_000) expect(response.status).toBe(200);
          else expect([200, 400, 431]).toContain(response.status);
          if (response.status === 200) expect(response.json()).toEqual({ ip: expectedClient('127.0.0.1', hops) });
        },
      ),
      { numRuns: 30 },
    );
  });

  // --- Hosts ------------------------------------------------------------------------------------

  const label = fc.stringMatching(/^[a-z0-9](?:[a-z0-9-]{0,10}[a-z0-9])?$/u);
  const randomCase = (text: string) =>
    fc.array(fc.boolean(), { minLength: text.length, maxLength: text.length }).map((upper) => [...text].map((char, index) => (upper[index] ? char.toUpperCase() : char)).join(''));
  const port = fc.oneof(fc.constant(''), fc.constant(':'), fc.integer({ min: 0, max: 65_535 }).map((n) => `:${n}`));

  /** Every spelling of a host TRUSTED_HOSTS or APP_URL lists: any case, a port, the root's trailing dot. */
  const listedHost = fc
    .tuple(
      fc.oneof(fc.constant(LISTED_HOST), fc.constant('app.example'), fc.array(label, { minLength: 1, maxLength: 3 }).map((labels) => `${labels.join('.')}.tenants.test`)),
      fc.boolean(),
      port,
    )
    .chain(([name, dot, suffix]) => randomCase(`${name}${dot ? '.' : ''}`).map((spelled) => `${spelled}${suffix}`));

  /** Hosts TRUSTED_HOSTS does not list, some made to look like listed ones. */
  const unlistedHost = fc.oneof(
    fc.constantFrom(
      'tenants.test',
      'example.com.evil.test',
      'evilexample.com',
      'example.co',
      'example.com..',
      'example.com:80:80',
      'example.com:abc',
      'example.com:123456',
      'user@example.com',
      'example.com@evil.test',
      'evil.test#example.com',
      'evil.test/example.com',
      'example.com/..',
      '.example.com',
      '127.0.0.1',
      '[::1]',
      '[example.com]',
      'a.internal.test',
      '',
    ),
    fc.tuple(fc.array(label, { minLength: 1, maxLength: 3 }), fc.constantFrom('evil.test', 'com', 'internal.test', 'tenants.test.evil'), port).map(([labels, tld, suffix]) => `${labels.join('.')}.${tld}${suffix}`),
    headerText({ maxLength: 40 }).filter((text) => !/example|tenants|app\./iu.test(text)),
  );

  it('serves every spelling of a listed host, and answers 400 to any other host', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(listedHost.map((host) => ({ host, listed: true })), unlistedHost.map((host) => ({ host, listed: false }))), fc.constantFrom('/', '/public', '/nope', '/robots.txt'), async ({ host, listed }, path) => {
        const response = await rawRequest(trusting.url, { target: path, headers: [['host', host]] });
        expect(response.status, `${JSON.stringify(host)} ${path}`).not.toBeGreaterThanOrEqual(500);
        if (listed) expect(response.status, JSON.stringify(host)).not.toBe(400);
        else expect(response.status, JSON.stringify(host)).toBe(400);
      }),
      { numRuns: 80 },
    );
  });

  it('answers /health 200 whatever the Host, with TRUSTED_HOSTS set or not', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(listedHost, unlistedHost), fc.boolean(), fc.constantFrom('/health', '/health?probe=1'), async (host, listing, target) => {
        const response = await rawRequest((listing ? trusting : distrusting).url, { target, headers: [['host', host]] });
        expect(response.status, JSON.stringify(host)).toBe(200);
      }),
      { numRuns: 60 },
    );
  });

  it('never answers 500 to a random Host header, with TRUSTED_HOSTS set or not', async () => {
    await fc.assert(
      fc.asyncProperty(headerText({ maxLength: 60 }), fc.boolean(), fc.constantFrom('/', '/ip', '/public', '/nope'), async (host, listing, path) => {
        const response = await rawRequest((listing ? trusting : distrusting).url, { target: path, headers: [['host', host]] });
        expect(response.status, JSON.stringify(host)).toBeLessThan(500);
      }),
      { numRuns: 60 },
    );
  });

  // The two properties below failed at commit dce0a6f: the router read the path from hapi's
  // `request.url` (built from the Host header) and the host from `request.info.host` (an
  // absolute-form target's authority), while the host check read the Host header.

  it('routes by the request target, never by a path smuggled in the Host header (no TRUSTED_HOSTS)', async () => {
    // A proxy that allows /public and guards /admin forwards the Host as it came.
    const smuggling = fc.oneof(
      fc.tuple(fc.oneof(label, fc.constant(LISTED_HOST)), fc.constantFrom('/admin?', '/admin#', '\\admin?', '/admin?x=', '/admin/..?'), headerText({ maxLength: 10 })).map(([name, path, rest]) => `${name}${path}${rest.replace(/\s/gu, '')}`),
      headerText({ maxLength: 30 }),
    );
    await fc.assert(
      fc.asyncProperty(smuggling, async (host) => {
        const response = await rawRequest(distrusting.url, { target: '/public', headers: [['host', host]] });
        expect(response.status, JSON.stringify(host)).toBeLessThan(500);
        // A Host that is no host may be refused; if the request is served, /public answers it.
        if (response.status !== 400) expect({ host, status: response.status, body: response.text.slice(0, 80) }).toEqual({ host, status: 200, body: JSON.stringify({ route: 'public', path: '/public' }) });
      }),
      { numRuns: 60 },
    );
  });

  it('never serves the routes of an unlisted host named in an absolute-form request target (TRUSTED_HOSTS set)', async () => {
    const unlistedAuthority = fc.oneof(
      fc.array(label, { minLength: 1, maxLength: 2 }).map((labels) => `${labels.join('.')}.internal.test`),
      fc.tuple(label, fc.constantFrom('evil.test', 'internal.test')).map(([name, tld]) => `${name}.${tld}`),
    );
    await fc.assert(
      fc.asyncProperty(unlistedAuthority, listedHost, async (authority, host) => {
        // RFC 9112 §3.2.2: with an absolute-form target the request is for the target's host.
        const response = await rawRequest(trusting.url, { target: `http://${authority}/public`, headers: [['host', host]] });
        expect(response.status, `${authority} (Host: ${host})`).toBeLessThan(500);
        // Refused (400), or at the very least answered as for the listed Host: never by the
        // routes of a domain the host check never saw.
        if (response.status !== 400) expect({ authority, host, body: response.text.slice(0, 80) }).toEqual({ authority, host, body: JSON.stringify({ route: 'public', path: '/public' }) });
      }),
      { numRuns: 40 },
    );
  });
});
