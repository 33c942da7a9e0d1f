import { describe, expect, it } from 'vitest';
import {
  compareSpecificity,
  joinPaths,
  matchPath,
  parsePathPattern,
  splitRequestPath,
} from '../../../../../domain/http/routing/path-pattern.js';
import type { PathSegment } from '../../../../../domain/http/routing/path-pattern.js';
import type { RoutingErrorCode } from '../../../../../domain/http/routing/routing-error.js';
import { expectRoutingError } from './routing-helpers.js';

describe('parsePathPattern', () => {
  it.each<[string, PathSegment[], string[], string]>([
    ['/', [], [], '/'],
    ['/products', [{ kind: 'static', text: 'products' }], [], '/products'],
    [
      '/products/{id}/edit',
      [{ kind: 'static', text: 'products' }, { kind: 'param', name: 'id' }, { kind: 'static', text: 'edit' }],
      ['id'],
      '/products/{}/edit',
    ],
    ['/files/{*rest}', [{ kind: 'static', text: 'files' }, { kind: 'wildcard', name: 'rest' }], ['rest'], '/files/{*}'],
    ['/{a}/{_b2}', [{ kind: 'param', name: 'a' }, { kind: 'param', name: '_b2' }], ['a', '_b2'], '/{}/{}'],
    ['/café/user:login', [{ kind: 'static', text: 'café' }, { kind: 'static', text: 'user:login' }], [], '/café/user:login'],
  ])('%s parses', (source, segments, blanks, shape) => {
    expect(parsePathPattern(source)).toEqual({ source, segments, blanks, shape });
  });

  it.each<[string, string, RoutingErrorCode]>([
    ['', 'empty', 'routing.empty-path'],
    ['products', 'start with /', 'routing.bad-pattern'],
    ['/products/', 'trailing', 'routing.bad-pattern'],
    ['//products', 'empty segment', 'routing.bad-pattern'],
    ['/a//b', 'empty segment', 'routing.bad-pattern'],
    ['/{}', 'identifiers', 'routing.bad-pattern'],
    ['/{1id}', 'identifiers', 'routing.bad-pattern'],
    ['/{a b}', 'identifiers', 'routing.bad-pattern'],
    ['/{id-x}', 'identifiers', 'routing.bad-pattern'],
    ['/{*}', 'identifiers', 'routing.bad-pattern'],
    ['/{**rest}', 'identifiers', 'routing.bad-pattern'],
    ['/{{id}}', 'whole segment', 'routing.bad-pattern'],
    ['/file.{ext}', 'whole segment', 'routing.bad-pattern'],
    ['/{id}x', 'whole segment', 'routing.bad-pattern'],
    ['/a}', 'whole segment', 'routing.bad-pattern'],
    ['/{id', 'whole segment', 'routing.bad-pattern'],
    ['/{*rest}/more', 'last segment', 'routing.bad-pattern'],
    ['/{id}/{id}', 'twice', 'routing.bad-pattern'],
    ['/{id}/{*id}', 'twice', 'routing.bad-pattern'],
    ['/a b', 'whitespace', 'routing.bad-pattern'],
    ['/search?q', '?', 'routing.bad-pattern'],
    ['/a#b', '#', 'routing.bad-pattern'],
    ['/caf%C3%A9', '%', 'routing.bad-pattern'],
    ['/a/../b', 'browsers', 'routing.bad-pattern'],
    ['/./b', 'browsers', 'routing.bad-pattern'],
  ])('%j throws (%s)', (source, fragment, code) => {
    expectRoutingError(() => parsePathPattern(source), code, fragment);
  });
});

describe('joinPaths', () => {
  it.each([
    ['/admin', '/', '/admin'],
    ['/admin', '/users', '/admin/users'],
    ['/', '/users', '/users'],
    ['/', '/', '/'],
  ])('%s + %s = %s', (prefix, path, joined) => {
    expect(joinPaths(prefix, path)).toBe(joined);
  });
});

describe('matchPath', () => {
  const match = (pattern: string, path: string): Record<string, string> | null => {
    const split = splitRequestPath(path);
    if (split === null) throw new Error(`bad test path ${path}`);
    return matchPath(parsePathPattern(pattern), split.raw, split.decoded);
  };

  it.each<[string, string, Record<string, string> | null]>([
    ['/', '/', {}],
    ['/', '/a', null],
    ['/a', '/', null],
    ['/a', '/a/', null],
    ['/a/{id}', '/a/', null],
    ['/a/{id}', '/a/1', { id: '1' }],
    ['/a/{id}', '/a/1/2', null],
    ['/a/{id}', '/a/x%2Fy', { id: 'x/y' }],
    ['/café', '/caf%C3%A9', {}],
    ['/files/{*rest}', '/files', null],
    ['/files/{*rest}', '/files/', null],
    ['/files/{*rest}', '/files/a', { rest: 'a' }],
    ['/files/{*rest}', '/files/a/b%20c/', { rest: 'a/b c/' }],
    ['/files/{*rest}', '/files//', { rest: '/' }],
  ])('%s against %s', (pattern, path, expected) => {
    expect(match(pattern, path)).toEqual(expected);
  });
});

describe('compareSpecificity', () => {
  it.each([
    ['/a/b', '/a/{x}'],
    ['/a/{x}', '/a/{*rest}'],
    ['/a/b', '/a/{*rest}'],
    ['/a/{x}/{*rest}', '/a/{*rest}'],
    ['/a/{x}', '/{y}/b'],
  ])('%s is more specific than %s', (more, less) => {
    expect(compareSpecificity(parsePathPattern(more), parsePathPattern(less))).toBeLessThan(0);
    expect(compareSpecificity(parsePathPattern(less), parsePathPattern(more))).toBeGreaterThan(0);
  });

  it('calls two patterns of the same shape equal', () => {
    expect(compareSpecificity(parsePathPattern('/p/{id}'), parsePathPattern('/p/{slug}'))).toBe(0);
  });
});
