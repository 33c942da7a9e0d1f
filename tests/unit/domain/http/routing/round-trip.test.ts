import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../../../domain/http/routing/match.js';
import { compareSpecificity } from '../../../../../domain/http/routing/path-pattern.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import { urlFor } from '../../../../../domain/http/routing/url.js';
import type { H } from './routing-helpers.js';
import { tableOf } from './routing-helpers.js';

/** One segment of a generated pattern: static text, or a parameter. */
type Part = { kind: 'static'; text: string } | { kind: 'param' };
interface Shape {
  parts: Part[];
  wildcard: boolean;
}

function patternOf(prefix: string, shape: Shape): string {
  let params = 0;
  const segments = shape.parts.map((part) => (part.kind === 'static' ? part.text : `{p${(params += 1)}}`));
  if (shape.wildcard) segments.push('{*rest}');
  return `${prefix}/${segments.join('/')}`.replace(/\/$/u, '') || '/';
}

/** Argument text that stresses the encoding: escapes, slashes, dots, spaces, non-ASCII. */
const tricky = fc.string({ unit: fc.constantFrom('/', '%', '.', ' ', '?', '#', '+', '&', 'a', 'é', '\u{1F600}'), minLength: 1 });
const argument = fc.oneof(fc.string({ unit: 'binary', minLength: 1 }), tricky, fc.integer().map(String));

const part = (staticText: fc.Arbitrary<string>): fc.Arbitrary<Part> =>
  fc.oneof(staticText.map((text): Part => ({ kind: 'static', text })), fc.constant<Part>({ kind: 'param' }));

describe('urlFor and matchRoute round trip', () => {
  it('matches the path urlFor made to the same route, with the arguments as params', () => {
    // Each route starts with its own static segment, so no other route can claim its URLs.
    const shapes = fc.array(
      fc.record({ parts: fc.array(part(fc.stringMatching(/^[a-z0-9-]{1,5}$/u)), { maxLength: 4 }), wildcard: fc.boolean() }),
      { minLength: 1, maxLength: 6 },
    );
    const scenario = shapes.chain((list) =>
      fc.tuple(
        fc.constant(list),
        fc.nat({ max: list.length - 1 }),
        fc.array(argument, { minLength: 5, maxLength: 5 }),
      ),
    );
    fc.assert(
      fc.property(scenario, ([list, pick, args]) => {
        const set = list.reduce(
          (routes, shape, index) => routes.get(patternOf(`/r${index}`, shape), `h${index}`).name(`r${index}`),
          new Routes<H>(),
        );
        const table = tableOf(['app', set]);
        const route = table.routes[pick];
        if (route === undefined) throw new Error('bad pick');
        const used = args.slice(0, route.pattern.blanks.length);
        const path = urlFor(table, `r${pick}`, used);
        const result = matchRoute(table, { method: 'GET', host: 'example.com', path });
        expect(result.kind).toBe('matched');
        if (result.kind !== 'matched') return;
        expect(result.route.name).toBe(`r${pick}`);
        expect(result.params).toEqual(Object.fromEntries(route.pattern.blanks.map((blank, index) => [blank, used[index]])));
      }),
      { numRuns: 500 },
    );
  });

  it('when patterns overlap, matches that route or a more specific one, whose own URL is the same path', () => {
    // Few letters, so statics and arguments collide and overlapping routes compete.
    const letter = fc.constantFrom('a', 'b');
    const shapes = fc.uniqueArray(
      fc.record({ parts: fc.array(part(letter), { maxLength: 3 }), wildcard: fc.boolean() }),
      { minLength: 1, maxLength: 8, selector: (shape) => patternOf('', shape).replace(/\{p\d+\}/gu, '{}') },
    );
    const scenario = shapes.chain((list) =>
      fc.tuple(
        fc.constant(list),
        fc.nat({ max: list.length - 1 }),
        fc.array(letter, { minLength: 4, maxLength: 4 }),
        fc.oneof(letter, fc.constantFrom('a/b', 'b/a/', 'a//b')),
      ),
    );
    fc.assert(
      fc.property(scenario, ([list, pick, args, rest]) => {
        const set = list.reduce(
          (routes, shape, index) => routes.get(patternOf('', shape), `h${index}`).name(`r${index}`),
          new Routes<H>(),
        );
        const table = tableOf(['app', set]);
        const route = table.routes[pick];
        if (route === undefined) throw new Error('bad pick');
        // Slashes only in the wildcard: a plain parameter's '/' is sent as %2F, and a wildcard
        // of a more specific route that takes it decodes it, so its own URL would differ.
        const used = route.pattern.segments.flatMap((segment, index) =>
          segment.kind === 'static' ? [] : [segment.kind === 'wildcard' ? rest : (args[index % args.length] ?? 'a')],
        );
        const path = urlFor(table, `r${pick}`, used);
        const result = matchRoute(table, { method: 'GET', host: 'example.com', path });
        expect(result.kind).toBe('matched');
        if (result.kind !== 'matched') return;
        if (result.route !== route) expect(compareSpecificity(result.route.pattern, route.pattern)).toBeLessThan(0);
        const again = result.route.pattern.blanks.map((blank) => result.params[blank] ?? '');
        expect(urlFor(table, result.route.name ?? '', again)).toBe(path);
      }),
      { numRuns: 500 },
    );
  });
});
