import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { Routes, json } from '../../../../composition/index.js';
import type { App, AppOptions, RequestContext } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { anotherAppKey, base64urlText, headerText, splitInto } from './generators.js';
import { rawRequest, setCookieValues } from './raw-http.js';
import type { RawResponse } from './raw-http.js';

/**
 * Spec 001, Authentication 2 and 4: the cookie session is encrypted and signed with a key made
 * from APP_KEY, and tampering gives nothing on read. Identity here is what a session reveals:
 * the marker `owner=alice` stored in it, and its CSRF token. Every forged, damaged or foreign
 * cookie must give a fresh, empty session (a new token), never the marker, never a 500.
 */

const SESSION = 'fw_session';
const MARKER = 'alice';
/**
 * The parts of a sealed value (@hapi/iron): `Fe26.2*<key id>*<salt>*<iv>*<encrypted>*<expiry>*
 * <hmac salt>*<hmac>`. With keys derived from APP_KEY (Buffers) both salts are written empty.
 */
const HMAC_SALT_PART = 6;

const whoami = (ctx: RequestContext) => json({ owner: ctx.session.get('owner') ?? null, token: ctx.session.token() });

function markerApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/mark', (ctx) => {
      ctx.session.put('owner', MARKER);
      return json({ token: ctx.session.token() });
    })
    .get('/mark-big', (ctx) => {
      ctx.session.put('owner', MARKER);
      // Sealed, this session is well over the 4 KB browsers keep.
      ctx.session.put('blob', 'x'.repeat(4000));
      return json({ token: ctx.session.token() });
    })
    .get('/whoami', whoami)
    .post('/whoami', whoami);
  return createDefaultApp(options).module({ name: 'marker', routes });
}

interface Minted {
  cookie: string;
  token: string;
}

/** A session marked `owner=alice` on `url`, as its cookie and CSRF token. */
async function mint(url: string, path: string): Promise<Minted> {
  const response = await rawRequest(url, { target: path });
  expect(response.status).toBe(200);
  const [cookie] = setCookieValues(response, SESSION);
  expect(cookie).toBeDefined();
  return { cookie: cookie ?? '', token: response.json<{ token: string }>().token };
}

describe('tampered session cookies over a real socket (property-based)', () => {
  const clock = new FixedClock('2026-09-01T12:00:00Z');
  let server: TestServer;
  let other: TestServer;
  /** A session of this app: the only cookie that may reveal the marker. */
  let real: Minted;
  /** Another session of this app, sealed at over 4 KB. */
  let big: Minted;
  /** A session marked the same way by an app with another APP_KEY. */
  let foreign: Minted;

  beforeAll(async () => {
    server = await TestApp.create({ clock, environment: { SESSION_DRIVER: 'cookie' }, build: markerApp }).serve();
    other = await TestApp.create({ clock, environment: { SESSION_DRIVER: 'cookie', APP_KEY: anotherAppKey() }, build: markerApp }).serve();
    real = await mint(server.url, '/mark');
    big = await mint(server.url, '/mark-big');
    foreign = await mint(other.url, '/mark');
    expect(big.cookie.length).toBeGreaterThan(4096);
  });
  afterAll(async () => {
    await server.stop();
    await other.stop();
  });

  const knownTokens = () => new Set([real.token, big.token, foreign.token]);

  /** Asks who the session is, with these Cookie header lines (one line each). */
  async function ask(cookieLines: readonly string[], method: 'GET' | 'POST' = 'GET', csrfToken?: string): Promise<RawResponse> {
    const headers: [string, string][] = cookieLines.map((line) => ['cookie', line]);
    if (csrfToken !== undefined) headers.push(['x-csrf-token', csrfToken]);
    return rawRequest(server.url, { method, target: '/whoami', headers });
  }

  /** The answer of a request whose cookies hold no session of this app: an empty, new one. */
  function expectFreshSession(response: RawResponse, sent: string): void {
    expect(response.status, sent.slice(0, 120)).toBe(200);
    expect(response.text).not.toContain(MARKER);
    const body = response.json<{ owner: string | null; token: string }>();
    expect(body.owner).toBeNull();
    expect(knownTokens().has(body.token)).toBe(false);
    const issued = setCookieValues(response, SESSION);
    expect(issued).toHaveLength(1);
    expect(issued[0]).not.toBe(sent);
  }

  function expectReal(response: RawResponse, session: Minted): void {
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ owner: MARKER, token: session.token });
  }

  it('opens the untouched cookies, also the one over 4 KB (the server has no 4 KB limit)', async () => {
    expectReal(await ask([`${SESSION}=${real.cookie}`]), real);
    expectReal(await ask([`${SESSION}=${big.cookie}`]), big);
    // The foreign app's own cookie works there, so what it lacks here is only the key.
    const there = await rawRequest(other.url, { target: '/whoami', headers: [['cookie', `${SESSION}=${foreign.cookie}`]] });
    expect(there.json()).toEqual({ owner: MARKER, token: foreign.token });
  });

  it('gives a fresh session to a cookie with flipped bits at random positions', async () => {
    const flips = fc.array(fc.record({ at: fc.nat(), bit: fc.integer({ min: 0, max: 6 }) }), { minLength: 1, maxLength: 4 });
    await fc.assert(
      fc.asyncProperty(fc.boolean(), flips, async (useBig, changes) => {
        const original = useBig ? big.cookie : real.cookie;
        const chars = [...original];
        for (const { at, bit } of changes) {
          const index = at % chars.length;
          const code = (chars[index] ?? 'A').charCodeAt(0) ^ (1 << bit);
          // Only what a header may carry: visible ASCII (`;`, `,`, `"` and `=` included).
          if (code >= 0x21 && code <= 0x7e) chars[index] = String.fromCharCode(code);
        }
        const tampered = chars.join('');
        fc.pre(tampered !== original);
        expectFreshSession(await ask([`${SESSION}=${tampered}`]), tampered);
      }),
      { numRuns: 60 },
    );
  });

  it('gives a fresh session to a truncated cookie, cut at either end', async () => {
    await fc.assert(
      fc.asyncProperty(fc.boolean(), fc.boolean(), fc.nat(), async (useBig, fromEnd, cut) => {
        const original = useBig ? big.cookie : real.cookie;
        const keep = cut % original.length;
        const truncated = fromEnd ? original.slice(0, keep) : original.slice(original.length - keep);
        expectFreshSession(await ask([`${SESSION}=${truncated}`]), truncated);
      }),
      { numRuns: 40 },
    );
  });

  it('gives a fresh session to a cookie written in another base64 alphabet or with padding', async () => {
    const swap = fc.oneof(
      fc.record({ kind: fc.constant('case' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('standard' as const), at: fc.nat() }),
      fc.record({ kind: fc.constant('padding' as const), at: fc.nat(), padding: fc.constantFrom('=', '==') }),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(swap, { minLength: 1, maxLength: 3 }), async (swaps) => {
        let text = real.cookie;
        for (const change of swaps) {
          if (change.kind === 'case') {
            const letters = [...text.matchAll(/[A-Za-z]/gu)].map((match) => match.index);
            const index = letters[change.at % letters.length] ?? 0;
            const char = text[index] ?? '';
            const swapped = char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase();
            text = `${text.slice(0, index)}${swapped}${text.slice(index + 1)}`;
          } else if (change.kind === 'standard') {
            // base64url's `-` and `_` in the standard alphabet's spelling.
            const marks = [...text.matchAll(/[-_]/gu)].map((match) => match.index);
            if (marks.length === 0) continue;
            const index = marks[change.at % marks.length] ?? 0;
            text = `${text.slice(0, index)}${text[index] === '-' ? '+' : '/'}${text.slice(index + 1)}`;
          } else {
            // Padding at the end of one of the sealed value's `*`-separated parts, except the
            // HMAC salt's (the 7th): that one has a test of its own below.
            const ends = [...[...text.matchAll(/\*/gu)].map((match) => match.index), text.length].filter((_, part) => part !== HMAC_SALT_PART);
            const index = ends[change.at % ends.length] ?? text.length;
            text = `${text.slice(0, index)}${change.padding}${text.slice(index)}`;
          }
        }
        fc.pre(text !== real.cookie);
        expectFreshSession(await ask([`${SESSION}=${text}`]), text);
      }),
      { numRuns: 40 },
    );
  });

  it('gives a fresh session to a cookie sealed by an app with another APP_KEY', async () => {
    const response = await ask([`${SESSION}=${foreign.cookie}`]);
    expectFreshSession(response, foreign.cookie);
    expect(response.json<{ token: string }>().token).not.toBe(foreign.token);
  });

  // Fails at the time of writing: see the report. iron authenticates parts 0–5 only; the HMAC
  // salt (part 6) feeds key derivation from a password, which Buffer keys skip, so whatever is
  // written there is never checked, and the altered cookie opens the session.
  it('gives a fresh session to a cookie whose HMAC-salt part was filled in', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(base64urlText({ minLength: 1, maxLength: 64 }), fc.constantFrom('=', '==', '0', 'AAAA')), async (filler) => {
        const parts = real.cookie.split('*');
        expect(parts).toHaveLength(8);
        expect(parts[HMAC_SALT_PART]).toBe('');
        parts[HMAC_SALT_PART] = filler;
        const tampered = parts.join('*');
        expectFreshSession(await ask([`${SESSION}=${tampered}`]), tampered);
      }),
      { numRuns: 20 },
    );
  });

  it('with several fw_session values in one request, opens the first genuine one and only that', async () => {
    type Entry = { kind: 'real' | 'big' | 'foreign' | 'tampered' | 'junk' | 'empty' | 'other'; value: string };
    const entry: fc.Arbitrary<Entry> = fc.oneof(
      fc.constant<Entry>({ kind: 'real', value: '' }),
      fc.constant<Entry>({ kind: 'big', value: '' }),
      fc.constant<Entry>({ kind: 'foreign', value: '' }),
      fc.nat().map<Entry>((at) => ({ kind: 'tampered', value: String(at) })),
      base64urlText({ maxLength: 60 }).map<Entry>((value) => ({ kind: 'junk', value })),
      fc.constant<Entry>({ kind: 'empty', value: '' }),
      // Cookies that are not the session: another name, a longer name, a nameless one.
      fc.constantFrom('theme=dark', `${SESSION}_old=1`, `x${SESSION}=1`, 'abc', '=nameless', 'a="unterminated').map<Entry>((value) => ({ kind: 'other', value })),
    );
    const sessionValue = (item: Entry): string | null => {
      switch (item.kind) {
        case 'real':
          return real.cookie;
        case 'big':
          return big.cookie;
        case 'foreign':
          return foreign.cookie;
        case 'tampered': {
          const at = 10 + (Number(item.value) % (real.cookie.length - 10));
          return `${real.cookie.slice(0, at)}${real.cookie[at] === 'A' ? 'B' : 'A'}${real.cookie.slice(at + 1)}`;
        }
        case 'junk':
          return item.value;
        case 'empty':
          return '';
        case 'other':
          return null;
      }
    };
    await fc.assert(
      fc.asyncProperty(
        // A browser sends one name a few times at most; the framework reads the first four.
        // The big cookie at most once, so the header stays under the 16 KB node reads.
        fc
          .array(entry, { minLength: 1, maxLength: 6 })
          .filter((items) => items.filter((item) => item.kind !== 'other').length <= 4 && items.filter((item) => item.kind === 'big').length <= 1),
        fc.integer({ min: 1, max: 3 }),
        fc.boolean(),
        async (items, lines, post) => {
          const pairs = items.map((item) => {
            const value = sessionValue(item);
            return value === null ? item.value : `${SESSION}=${value}`;
          });
          const cookieLines = splitInto(pairs, lines).map((run) => run.join('; '));
          // The victim's token rides along: it must not help without the victim's cookie.
          const response = await ask(cookieLines, post ? 'POST' : 'GET', post ? real.token : undefined);
          const genuine = items.find((item) => item.kind === 'real' || item.kind === 'big');
          if (genuine !== undefined) {
            const session = genuine.kind === 'real' ? real : big;
            if (post && session === big) {
              // The token of the session that opened is the one that counts.
              expect(response.status).toBe(419);
              expect(response.text).not.toContain(MARKER);
            } else expectReal(response, session);
          } else if (post) {
            expect(response.status, cookieLines.join(' | ').slice(0, 160)).toBe(419);
            expect(response.text).not.toContain(MARKER);
          } else {
            expectFreshSession(response, cookieLines.join('; '));
          }
        },
      ),
      { numRuns: 80 },
    );
  });

  it('gives a fresh session to a forged cookie over 4 KB, and still opens the real one sent after it', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 4097, max: 9000 }), fc.boolean(), fc.boolean(), async (length, ironShaped, withReal) => {
        const filler = 'A'.repeat(length);
        const forged = ironShaped ? `Fe26.2*k1*${filler}*${filler.slice(0, 22)}**${filler.slice(0, 43)}*${filler.slice(0, 43)}`.slice(0, length) : filler;
        const response = await ask(withReal ? [`${SESSION}=${forged}; ${SESSION}=${real.cookie}`] : [`${SESSION}=${forged}`]);
        if (withReal) expectReal(response, real);
        else expectFreshSession(response, forged);
      }),
      { numRuns: 30 },
    );
  });

  it('never answers 500 to a Cookie header past what the server reads (over 16 KB)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 9000, max: 40_000 }), async (length) => {
        const response = await ask([`${SESSION}=${'B'.repeat(length)}`]);
        // Headers over the server's limit are refused before the app (400 or 431); below it, a fresh session.
        expect([200, 400, 431]).toContain(response.status);
        expect(response.text).not.toContain(MARKER);
        if (response.status === 200) expect(response.json<{ owner: unknown }>().owner).toBeNull();
      }),
      { numRuns: 20 },
    );
  });

  it('gives a fresh session to random Cookie headers, random fw_session values and random iron-shaped values', async () => {
    const ironShaped = fc
      .tuple(
        fc.constantFrom('Fe26.2', 'Fe26.1', 'Fe26.2 ', ''),
        fc.constantFrom('k1', 'k2', '', 'k1k1'),
        base64urlText({ maxLength: 44 }),
        base64urlText({ maxLength: 24 }),
        base64urlText({ maxLength: 200 }),
        fc.oneof(fc.constant(''), fc.nat().map(String), headerText({ maxLength: 8 })),
        base64urlText({ maxLength: 44 }),
        base64urlText({ maxLength: 44 }),
      )
      .map((parts) => parts.join('*'));
    const cookieHeader = fc.oneof(
      headerText({ minLength: 1, maxLength: 300 }),
      headerText({ maxLength: 300 }).map((value) => `${SESSION}=${value}`),
      ironShaped.map((value) => `${SESSION}=${value}`),
    );
    await fc.assert(
      fc.asyncProperty(cookieHeader, async (header) => {
        expectFreshSession(await ask([header]), header);
      }),
      { numRuns: 60 },
    );
  });

  it('turns a tampered cookie into a new session that then lives on its own', async () => {
    await fc.assert(
      fc.asyncProperty(fc.nat(), async (at) => {
        const index = at % real.cookie.length;
        const tampered = `${real.cookie.slice(0, index)}${real.cookie[index] === 'z' ? 'y' : 'z'}${real.cookie.slice(index + 1)}`;
        const first = await ask([`${SESSION}=${tampered}`]);
        expectFreshSession(first, tampered);
        const [fresh = ''] = setCookieValues(first, SESSION);
        const { token } = first.json<{ token: string }>();
        // The replacement is a genuine session: the same token again, still without the marker.
        expect((await ask([`${SESSION}=${fresh}`])).json()).toEqual({ owner: null, token });
        // And the original cookie is untouched by all this.
        expectReal(await ask([`${SESSION}=${real.cookie}`]), real);
      }),
      { numRuns: 20 },
    );
  });
});
