import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { Routes, json } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { base64urlText } from './generators.js';
import { rawRequest } from './raw-http.js';

/**
 * Spec 001, 'Signed URLs': an HMAC-SHA256 with APP_KEY over the path and the expiry, so the link
 * carries no other query string; an altered or expired link is 403 (`requireValidSignature`).
 * Links are made through the app (`ctx.urls.signed`, `ctx.urls.signPath`), altered as text, and opened
 * over a real socket with the request target exactly as written.
 */

const APP_URL = 'http://app.example';
const START = '2026-10-01T08:00:00Z';

function signingApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/sign/route', (ctx) => json({ url: ctx.urls.signed('files.show', [String(ctx.query['id'])], Number(ctx.query['ttl'] ?? 600)) }))
    .get('/sign/path', (ctx) => json({ url: ctx.urls.signPath(String(ctx.query['path']), Number(ctx.query['ttl'] ?? 600)) }))
    .get('/docs/{*rest}', (ctx) => {
      ctx.urls.requireValidSignature();
      return json({ rest: ctx.params.string('rest') });
    })
    .group(
      '/files',
      'files.',
      new Routes()
        .get('/{id}', (ctx) => {
          ctx.urls.requireValidSignature();
          return json({ id: ctx.params.string('id') });
        })
        .name('show'),
    );
  return createDefaultApp(options).module({ name: 'signed', routes });
}

// --- Paths worth signing ---------------------------------------------------------------------------

const UNRESERVED = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~';
/** Characters RFC 3986 allows in a path segment besides unreserved ones and escapes. */
const SUB_DELIMS = "!$&'()*+,;=:@";
/** What a path character may be replaced with: anything allowed but `.` (no dot segments) and `%`. */
const REPLACEMENTS = [...`${UNRESERVED}${SUB_DELIMS}`].filter((char) => char !== '.');

const randomHexCase = (escape: string, upper: readonly boolean[]) =>
  [...escape].map((char, index) => (upper[index % upper.length] ? char.toUpperCase() : char.toLowerCase())).join('');

/** `%XX` escapes that decode to UTF-8 text: printable ASCII, or a whole multibyte character. */
const escape = fc
  .tuple(
    fc.oneof(fc.integer({ min: 0x20, max: 0x7e }).map((code) => `%${code.toString(16).padStart(2, '0')}`), fc.constantFrom('é', 'ß', '€', '😀', 'ж').map((char) => encodeURIComponent(char))),
    fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
  )
  .map(([text, upper]) => randomHexCase(text, upper));

const segment = fc
  .array(fc.oneof({ weight: 6, arbitrary: fc.constantFrom(...UNRESERVED, ...SUB_DELIMS) }, { weight: 2, arbitrary: escape }), { minLength: 1, maxLength: 8 })
  .map((units) => units.join(''))
  // Browsers resolve `.` and `..` (also spelled `%2E`) before sending: such paths cannot be signed.
  .filter((text) => !['.', '..'].includes(text.replace(/%2e/giu, '.')));

/** A path under `/docs/`, the route that checks signatures of `ctx.urls.signPath` links. */
const docsPath = fc.array(segment, { minLength: 1, maxLength: 4 }).map((segments) => `/docs/${segments.join('/')}`);

/** A route argument for `ctx.urls.signed`: any text (it is percent-encoded into the path). */
const routeArgument = fc.string({ unit: 'grapheme', minLength: 1, maxLength: 12 }).filter((text) => text !== '.' && text !== '..');

// --- Mutations ------------------------------------------------------------------------------------

interface Link {
  path: string;
  expires: string;
  signature: string;
}

function parse(target: string): Link {
  const match = /^([^?]+)\?expires=(\d+)&signature=([0-9a-f]{64})$/u.exec(target);
  if (match === null) throw new Error(`not a signed link: ${target}`);
  return { path: match[1] ?? '', expires: match[2] ?? '', signature: match[3] ?? '' };
}

const PREFIXES = ['/docs/', '/files/'];

/** The path after its route prefix, in units: a `%XX` escape or one character. */
function units(path: string): { prefix: string; units: string[] } {
  const prefix = PREFIXES.find((candidate) => path.startsWith(candidate)) ?? '/';
  return { prefix, units: path.slice(prefix.length).match(/%[0-9A-Fa-f]{2}|[^%]/gu) ?? [] };
}

/** What a mutation must lead to: the same link (200), or an altered one (403; 400 when the target is broken). */
type Outcome = 'same' | 'altered' | 'altered-or-broken';
interface Mutated {
  target: string;
  outcome: Outcome;
  what: string;
}

type Mutation = (link: Link, target: string) => Mutated | null;

function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

const pick = <T>(items: readonly T[], at: number): T | undefined => (items.length === 0 ? undefined : items[at % items.length]);
const query = (link: Link, params: string) => `${link.path}?${params}`;

const mutationKinds: fc.Arbitrary<Mutation> = fc.oneof(
  // A character of the path replaced by another one (also only its case).
  fc.tuple(fc.nat(), fc.constantFrom(...REPLACEMENTS)).map(([at, replacement]): Mutation => (link) => {
    const { prefix, units: parts } = units(link.path);
    const plain = parts.map((unit, index) => ({ unit, index })).filter(({ unit }) => unit.length === 1 && unit !== '/' && unit !== replacement);
    const chosen = pick(plain, at);
    if (chosen === undefined) return null;
    parts[chosen.index] = replacement;
    return { target: `${prefix}${parts.join('')}?expires=${link.expires}&signature=${link.signature}`, outcome: 'altered', what: `path char ${chosen.unit}→${replacement}` };
  }),
  // A path character percent-encoded (`a` → `%61`, `/` → `%2F`): another link, since nothing is decoded.
  fc.tuple(fc.nat(), fc.boolean()).map(([at, upper]): Mutation => (link) => {
    const { prefix, units: parts } = units(link.path);
    const plain = parts.map((unit, index) => ({ unit, index })).filter(({ unit }) => unit.length === 1);
    const chosen = pick(plain, at);
    if (chosen === undefined) return null;
    const hex = chosen.unit.charCodeAt(0).toString(16).padStart(2, '0');
    parts[chosen.index] = `%${upper ? hex.toUpperCase() : hex}`;
    return { target: `${prefix}${parts.join('')}?expires=${link.expires}&signature=${link.signature}`, outcome: 'altered', what: `encoded ${chosen.unit}` };
  }),
  // An escape of a plain character decoded (`%41` → `A`).
  fc.nat().map((at): Mutation => (link) => {
    const { prefix, units: parts } = units(link.path);
    const decodable = parts
      .map((unit, index) => ({ unit, index, char: unit.length === 3 ? String.fromCharCode(parseInt(unit.slice(1), 16)) : '' }))
      .filter(({ char }) => REPLACEMENTS.includes(char));
    const chosen = pick(decodable, at);
    if (chosen === undefined) return null;
    parts[chosen.index] = chosen.char;
    return { target: `${prefix}${parts.join('')}?expires=${link.expires}&signature=${link.signature}`, outcome: 'altered', what: `decoded ${chosen.unit}` };
  }),
  // The hex digits of an escape in the other case: the same character (RFC 3986 §6.2.2.1), the same link.
  fc.nat().map((at): Mutation => (link) => {
    const { prefix, units: parts } = units(link.path);
    const lettered = parts.map((unit, index) => ({ unit, index })).filter(({ unit }) => unit.length === 3 && /[A-F]/iu.test(unit));
    const chosen = pick(lettered, at);
    if (chosen === undefined) return null;
    parts[chosen.index] = [...chosen.unit].map((char) => (char === char.toUpperCase() ? char.toLowerCase() : char.toUpperCase())).join('');
    return { target: `${prefix}${parts.join('')}?expires=${link.expires}&signature=${link.signature}`, outcome: 'same', what: `escape case ${chosen.unit}` };
  }),
  // Upper-case letters in the signature.
  fc.array(fc.nat(), { minLength: 1, maxLength: 4 }).map((ats): Mutation => (link) => {
    const letters = [...link.signature].map((char, index) => ({ char, index })).filter(({ char }) => /[a-f]/u.test(char));
    if (letters.length === 0) return null;
    const chars = [...link.signature];
    for (const at of ats) {
      const chosen = pick(letters, at);
      if (chosen !== undefined) chars[chosen.index] = chosen.char.toUpperCase();
    }
    return { target: query(link, `expires=${link.expires}&signature=${chars.join('')}`), outcome: 'altered', what: 'signature case' };
  }),
  // One hex digit of the signature changed.
  fc.tuple(fc.nat(), fc.integer({ min: 1, max: 15 })).map(([at, by]): Mutation => (link) => {
    const index = at % link.signature.length;
    const digit = ((parseInt(link.signature[index] ?? '0', 16) + by) % 16).toString(16);
    const signature = `${link.signature.slice(0, index)}${digit}${link.signature.slice(index + 1)}`;
    return { target: query(link, `expires=${link.expires}&signature=${signature}`), outcome: 'altered', what: `signature digit ${index}` };
  }),
  // Another expiry: later, earlier, or the same instant spelled otherwise.
  fc
    .oneof(
      fc.integer({ min: 1, max: 10_000_000 }).map((by) => (expires: string) => String(Number(expires) + by)),
      fc.integer({ min: 1, max: 1_000_000 }).map((by) => (expires: string) => String(Number(expires) - by)),
      fc.constantFrom(
        (expires: string) => `0${expires}`,
        (expires: string) => `${expires}0`,
        (expires: string) => `+${expires}`,
        (expires: string) => `${expires}.0`,
        (expires: string) => `-${expires}`,
        (expires: string) => `${expires}%20`,
        (expires: string) => `%20${expires}`,
        (expires: string) => `${Number(expires).toExponential()}`,
        (expires: string) => `0x${Number(expires).toString(16)}`,
        () => '',
        () => '9'.repeat(40),
      ),
    )
    .map((spell): Mutation => (link) => ({ target: query(link, `expires=${spell(link.expires)}&signature=${link.signature}`), outcome: 'altered', what: 'expiry' })),
  // A parameter added anywhere, also a second `expires` or `signature`, or a bare flag.
  fc
    .tuple(fc.constantFrom('x', 'admin', 'expires', 'signature', 'Expires', 'SIGNATURE', 'expires[]', '', 'page'), fc.oneof(base64urlText({ maxLength: 8 }).map((value) => `=${value}`), fc.constant('')), fc.integer({ min: 0, max: 2 }))
    .map(([name, value, position]): Mutation => (link) => {
      const params = [`expires=${link.expires}`, `signature=${link.signature}`];
      params.splice(position, 0, `${name}${value}`);
      return { target: query(link, params.join('&')), outcome: 'altered', what: `added ${name}${value} at ${position}` };
    }),
  // A parameter removed, the two reordered, the signature sent twice.
  fc.constantFrom<Mutation>(
    (link) => ({ target: query(link, `signature=${link.signature}`), outcome: 'altered', what: 'no expires' }),
    (link) => ({ target: query(link, `expires=${link.expires}`), outcome: 'altered', what: 'no signature' }),
    (link) => ({ target: link.path, outcome: 'altered', what: 'no query' }),
    (link) => ({ target: `${link.path}?`, outcome: 'altered', what: 'empty query' }),
    (link) => ({ target: query(link, `signature=${link.signature}&expires=${link.expires}`), outcome: 'altered', what: 'reordered' }),
    (link) => ({ target: query(link, `expires=${link.expires}&signature=${link.signature}&signature=${link.signature}`), outcome: 'altered', what: 'signature twice' }),
    (link) => ({ target: query(link, `signature=${link.signature}&expires=${link.expires}&signature=${link.signature}`), outcome: 'altered', what: 'signature around' }),
    (link) => ({ target: query(link, `expires=${link.expires}&expires=${link.expires}&signature=${link.signature}`), outcome: 'altered', what: 'expires twice' }),
    (link) => ({ target: query(link, `expires=${link.expires}&signature=${link.signature}&`), outcome: 'altered', what: 'trailing &' }),
    (link) => ({ target: query(link, `&expires=${link.expires}&signature=${link.signature}`), outcome: 'altered', what: 'leading &' }),
    (link) => ({ target: query(link, `expires=${link.expires};signature=${link.signature}`), outcome: 'altered', what: '; separator' }),
    (link) => ({ target: query(link, `expires=${link.expires}&signature=${link.signature}#top`), outcome: 'altered-or-broken', what: 'fragment' }),
  ),
  // Something appended to the path (a new segment only where the route still matches).
  fc.constantFrom('/', 'x', '%20', ';a=1', '~', '//', '%2F').map((suffix): Mutation => (link) =>
    suffix.includes('/') && !link.path.startsWith('/docs/')
      ? null
      : { target: query({ ...link, path: `${link.path}${suffix}` }, `expires=${link.expires}&signature=${link.signature}`), outcome: 'altered', what: `path + ${suffix}` },
  ),
  // The link cut short anywhere after the route's prefix.
  fc.nat().map((at): Mutation => (_link, target) => {
    const { prefix } = units(target);
    const keep = prefix.length + 1 + (at % (target.length - prefix.length - 1));
    const cut = target.slice(0, keep);
    // A cut through a `%XX` escape, or through the bytes of one character, leaves a path the
    // server cannot decode (400).
    const brokenPath = !cut.includes('?') && (/%[0-9A-Fa-f]?$/u.test(cut) || !decodes(cut));
    return { target: cut, outcome: brokenPath ? 'altered-or-broken' : 'altered', what: `cut at ${keep}` };
  }),
);

/** The mutations, printed in a counterexample by what the failed assertion names (`what`), not as source. */
const mutations = mutationKinds.map((mutation) => Object.assign(mutation, { [fc.toStringMethod]: () => '<mutation: see `what` in the assertion>' }));

describe('mutated signed URLs over a real socket (property-based)', () => {
  const clock = new FixedClock(START);
  let server: TestServer;

  beforeAll(async () => {
    server = await TestApp.create({ clock, environment: { APP_URL }, build: signingApp }).serve();
  });
  afterAll(() => server.stop());

  const open = (target: string) => rawRequest(server.url, { target });

  async function signPath(path: string, ttl = 600): Promise<string> {
    const response = await open(`/sign/path?path=${encodeURIComponent(path)}&ttl=${ttl}`);
    expect(response.status, path).toBe(200);
    return response.json<{ url: string }>().url;
  }

  async function signRoute(id: string, ttl = 600): Promise<string> {
    const response = await open(`/sign/route?id=${encodeURIComponent(id)}&ttl=${ttl}`);
    expect(response.status, JSON.stringify(id)).toBe(200);
    const { url } = response.json<{ url: string }>();
    expect(url.startsWith(`${APP_URL}/files/`)).toBe(true);
    return url.slice(APP_URL.length);
  }

  it('opens an untouched link, for any path and any route argument', async () => {
    await fc.assert(
      fc.asyncProperty(fc.oneof(docsPath.map((path) => ({ path })), routeArgument.map((id) => ({ id }))), async (input) => {
        if ('path' in input) {
          const response = await open(await signPath(input.path));
          expect(response.status, input.path).toBe(200);
        } else {
          const response = await open(await signRoute(input.id));
          expect(response.status, JSON.stringify(input.id)).toBe(200);
          // The argument arrives as it was given, through percent-encoding and back.
          expect(response.json()).toEqual({ id: input.id });
        }
      }),
      { numRuns: 60 },
    );
  });

  it('refuses (403) every mutation that changes what was signed, and opens those that do not', async () => {
    const source = fc.oneof(docsPath.map((path) => ({ kind: 'path' as const, value: path })), routeArgument.map((id) => ({ kind: 'route' as const, value: id })));
    await fc.assert(
      fc.asyncProperty(source, mutations, async (input, mutate) => {
        const target = input.kind === 'path' ? await signPath(input.value) : await signRoute(input.value);
        const mutated = mutate(parse(target), target);
        fc.pre(mutated !== null && mutated.target !== target);
        if (mutated === null) return;
        const response = await open(mutated.target);
        const seen = { what: mutated.what, target: mutated.target, status: response.status };
        if (mutated.outcome === 'same') expect(seen).toEqual({ ...seen, status: 200 });
        else if (mutated.outcome === 'altered') expect(seen).toEqual({ ...seen, status: 403 });
        else expect([400, 403], JSON.stringify(seen)).toContain(response.status);
        if (response.status === 403) expect(response.text).toContain('This link is invalid or has expired.');
      }),
      { numRuns: 150 },
    );
  });

  it('opens a link until its expiry and refuses it (403) from then on, also with a forged later expiry', async () => {
    const base = new Date(START).getTime();
    await fc.assert(
      fc.asyncProperty(fc.integer({ min: 1, max: 7200 }), fc.nat({ max: 7300 * 1000 }), fc.boolean(), async (ttl, after, byRoute) => {
        clock.set(START);
        const target = byRoute ? await signRoute('report', ttl) : await signPath('/docs/report.pdf', ttl);
        try {
          clock.set(new Date(base + after));
          const valid = Math.floor(after / 1000) < ttl;
          expect((await open(target)).status, `ttl ${ttl}, ${after} ms later`).toBe(valid ? 200 : 403);
          if (!valid) {
            const link = parse(target);
            const later = query(link, `expires=${Number(link.expires) + 3600}&signature=${link.signature}`);
            expect((await open(later)).status).toBe(403);
          }
        } finally {
          clock.set(START);
        }
      }),
      { numRuns: 60 },
    );
  });
});
