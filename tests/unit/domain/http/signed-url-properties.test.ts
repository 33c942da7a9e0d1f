import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { signPath, signUrl, verifySignedPath, verifySignedUrl } from '../../../../domain/http/signed-urls/signed-url.js';

const key = Buffer.alloc(32, 7);

const PATH_CHARS = "abcXYZ019-._~!$&'()*+,;=:@";
const pathChar = fc.constantFrom(...PATH_CHARS);
const escape = fc.integer({ min: 0, max: 255 }).map((byte) => `%${byte.toString(16).padStart(2, '0').toUpperCase()}`);
const segment = fc
  .array(fc.oneof({ weight: 4, arbitrary: pathChar }, { weight: 1, arbitrary: escape }), { minLength: 1, maxLength: 6 })
  .map((parts) => parts.join(''))
  .filter((text) => !['.', '..'].includes(text.replace(/%2E/gu, '.')));
/** Paths `signPath` accepts: segments of path characters and escapes, maybe a trailing slash. */
const signablePath = fc
  .tuple(fc.array(segment, { minLength: 1, maxLength: 4 }), fc.boolean())
  .map(([segments, trailing]) => `/${segments.join('/')}${trailing ? '/' : ''}`);

const expiry = fc.integer({ min: 1, max: 2 ** 40 });
const anyChar = fc.oneof(
  fc.integer({ min: 0x20, max: 0x7e }).map((code) => String.fromCharCode(code)),
  fc.constantFrom('é', '\n', '\u0000', '%'),
);

/** Escapes differ only in hex case: the one change the verifier accepts, by RFC 3986. */
const sameLink = (a: string, b: string) => a.replace(/%[0-9a-f]{2}/giu, (e) => e.toUpperCase()) === b;

type Mutation =
  | { kind: 'flip'; index: number; char: string }
  | { kind: 'upper-signature' }
  | { kind: 'add-param'; where: 'start' | 'middle' | 'end'; param: string }
  | { kind: 'remove-param'; which: 0 | 1 }
  | { kind: 'reorder' }
  | { kind: 'encode'; index: number }
  | { kind: 'decode'; index: number };

const mutation: fc.Arbitrary<Mutation> = fc.oneof(
  fc.record({ kind: fc.constant('flip' as const), index: fc.nat(), char: anyChar }),
  fc.constant({ kind: 'upper-signature' as const }),
  fc.record({
    kind: fc.constant('add-param' as const),
    where: fc.constantFrom('start' as const, 'middle' as const, 'end' as const),
    param: fc.constantFrom('x=1', 'expires=1', 'signature=0', '', 'download'),
  }),
  fc.record({ kind: fc.constant('remove-param' as const), which: fc.constantFrom(0 as const, 1 as const) }),
  fc.constant({ kind: 'reorder' as const }),
  fc.record({ kind: fc.constant('encode' as const), index: fc.nat() }),
  fc.record({ kind: fc.constant('decode' as const), index: fc.nat() }),
);

/** The mutated link, or null when the mutation does not apply to this link. */
function mutate(link: string, m: Mutation): string | null {
  const mark = link.indexOf('?');
  const path = link.slice(0, mark);
  const [expires = '', signature = ''] = link.slice(mark + 1).split('&');
  switch (m.kind) {
    case 'flip': {
      const index = m.index % link.length;
      return link[index] === m.char ? null : `${link.slice(0, index)}${m.char}${link.slice(index + 1)}`;
    }
    case 'upper-signature':
      return signature === signature.toUpperCase() ? null : `${path}?${expires}&${signature.toUpperCase()}`;
    case 'add-param':
      if (m.where === 'start') return `${path}?${m.param}&${expires}&${signature}`;
      if (m.where === 'middle') return `${path}?${expires}&${m.param}&${signature}`;
      return `${path}?${expires}&${signature}&${m.param}`;
    case 'remove-param':
      return `${path}?${m.which === 0 ? signature : expires}`;
    case 'reorder':
      return `${path}?${signature}&${expires}`;
    case 'encode': {
      // Any character outside an escape, `/` included, written as its escape.
      const plain = [...path].flatMap((char, index) => (char === '%' || path[index - 1] === '%' || path[index - 2] === '%' ? [] : [index]));
      const index = plain[m.index % Math.max(plain.length, 1)];
      if (index === undefined) return null;
      const code = path.charCodeAt(index).toString(16).toUpperCase().padStart(2, '0');
      return `${path.slice(0, index)}%${code}${path.slice(index + 1)}?${expires}&${signature}`;
    }
    case 'decode': {
      const escapes = [...path.matchAll(/%[0-9A-F]{2}/gu)];
      const found = escapes[m.index % Math.max(escapes.length, 1)];
      if (found === undefined) return null;
      const char = String.fromCharCode(parseInt(found[0].slice(1), 16));
      return `${path.slice(0, found.index)}${char}${path.slice(found.index + 3)}?${expires}&${signature}`;
    }
  }
}

describe('signed URL properties', () => {
  it('accepts any signable path signed and verified before it expires', () => {
    fc.assert(
      fc.property(signablePath, expiry, fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), (path, expiresAt, fraction) => {
        const now = Math.min(expiresAt * fraction, expiresAt - 0.001);
        const link = signPath(path, { expiresAt, key });
        expect(verifySignedPath(link, { now, key })).toEqual({ kind: 'valid' });
        expect(verifySignedPath(link, { now: expiresAt, key })).toEqual({ kind: 'invalid', reason: 'expired' });
        expect(verifySignedUrl(signUrl('https://app.example', path, { expiresAt, key }), { now, key })).toBe(true);
      }),
    );
  });

  it('refuses every altered link: a flipped character, case, added, removed or reordered parameters, an escape added or decoded', () => {
    fc.assert(
      fc.property(signablePath, expiry, mutation, (path, expiresAt, m) => {
        const link = signPath(path, { expiresAt, key });
        const altered = mutate(link, m);
        fc.pre(altered !== null && !sameLink(altered, link));
        const verdict = verifySignedPath(altered, { now: 0, key });
        expect(verdict.kind).toBe('invalid');
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a link verified with any other key', () => {
    fc.assert(
      fc.property(signablePath, expiry, fc.uint8Array({ minLength: 32, maxLength: 64 }), (path, expiresAt, other) => {
        fc.pre(!Buffer.from(other).equals(key));
        const link = signPath(path, { expiresAt, key });
        expect(verifySignedPath(link, { now: 0, key: Buffer.from(other) })).toEqual({ kind: 'invalid', reason: 'tampered' });
      }),
    );
  });
});
