import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameSiteTarget } from '../../../../domain/http/same-site.js';

const origins = ['https://app.example', 'http://localhost:3000'];

describe('same-site redirect targets', () => {
  it.each([
    ['/dashboard', '/dashboard'],
    ['/orders?page=2#top', '/orders?page=2#top'],
    ['https://app.example/account', '/account'],
    ['http://localhost:3000/x?y=1', '/x?y=1'],
    ['/search/a b', '/search/a%20b'],
    ['//evil.test/path', null],
    ['/\\evil.test', null],
    ['\\\\evil.test', null],
    ['https://evil.test/account', null],
    ['https://app.example.evil.test/', null],
    ['https://user:pw@app.example/', null],
    ['javascript:alert(1)', null],
    ['data:text/html,hi', null],
    ['/path\nSet-Cookie: x=1', null],
    ['/\t/evil.test', null],
    ['relative/path', null],
    [' //evil.test', null],
    ['', null],
    [undefined, null],
    // The outside review's open redirect: an address of this site whose path starts with '//'.
    ['https://app.example//evil.test/', '/evil.test/'],
    ['https://app.example/.//evil.test', '/evil.test'],
    ['https://app.example/a/../..//evil.test?x=1', '/evil.test?x=1'],
    ['https://app.example///evil.test', '/evil.test'],
    ['/.//evil.test', '/evil.test'],
    ['/./evil.test', '/evil.test'],
    ['https://app.example/\\evil.test', null],
    ['https://app.example/%2F%2Fevil.test', '/%2F%2Fevil.test'],
    ['https://app.example/%5Cevil.test', '/%5Cevil.test'],
  ])('%j → %j', (candidate, expected) => {
    expect(sameSiteTarget(candidate, origins)).toBe(expected);
  });

  /** Pieces a hostile Referer or intended URL is made of: slashes, dots, encodings, hosts. */
  const piece = fc.constantFrom('/', '//', '\\', '.', '..', '%2F', '%2f', '%5C', '%5c', '%2E', '%09', '%00', '@', ':', 'evil.test', 'a', '?', '#', '\t', '\n', ' ', 'ａ', '%E3%80%82');
  const hostile = fc.tuple(fc.constantFrom('', ...origins, 'https://evil.test', 'http:', 'https:', '/'), fc.array(piece, { maxLength: 12 })).map(([start, rest]) => start + rest.join(''));

  it('never returns a target that a browser would send to another host (fast-check: hostile pieces, URLs, any text)', () => {
    fc.assert(
      fc.property(fc.oneof(hostile, fc.webUrl(), fc.string(), fc.webPath()), (candidate) => {
        const target = sameSiteTarget(candidate, origins);
        if (target === null) return true;
        // Browsers resolve a Location against the address of the answer being followed.
        return origins.every((origin) => [origin, `${origin}/a/b/`].every((page) => new URL(target, page).origin === origin));
      }),
      { numRuns: 5000 },
    );
  });

  it('keeps every path of this site on this site (fast-check)', () => {
    fc.assert(
      fc.property(fc.webPath(), (path) => {
        const target = sameSiteTarget(`https://app.example${path}`, origins);
        return target !== null && target.startsWith('/') && !target.startsWith('//');
      }),
    );
  });
});
