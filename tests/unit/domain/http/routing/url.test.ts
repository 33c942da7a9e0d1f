import { describe, expect, it } from 'vitest';
import { routeNameIs } from '../../../../../domain/http/routing/route-name.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import type { RoutingErrorCode } from '../../../../../domain/http/routing/routing-error.js';
import { urlFor } from '../../../../../domain/http/routing/url.js';
import type { QueryValue } from '../../../../../domain/http/routing/url.js';
import type { H } from './routing-helpers.js';
import { expectRoutingError, tableOf } from './routing-helpers.js';

const table = tableOf([
  'app',
  new Routes<H>()
    .get('/', 'home')
    .name('home')
    .resource('/products', 'products', { index: 'i', show: 's', edit: 'e' })
    .get('/teams/{team}/members/{member}', 'm')
    .name('teams.member')
    .get('/files/{*path}', 'f')
    .name('files')
    .get('/users/{id}/{*rest}', 'r')
    .name('users.rest')
    .get('/café/user:login/a+b', 'c')
    .name('odd')
    .domain('{tenant}.example.com', new Routes<H>().get('/dashboard/{tab}', 'd').name('tenant.dashboard')),
]);

describe('urlFor', () => {
  it.each<[string, (string | number)[], string]>([
    ['home', [], '/'],
    ['products.index', [], '/products'],
    ['products.show', [42], '/products/42'],
    ['products.show', [-1.5], '/products/-1.5'],
    ['products.edit', ['abc'], '/products/abc/edit'],
    ['teams.member', ['red', 7], '/teams/red/members/7'],
    ['teams.member', [7, 'red'], '/teams/7/members/red'],
    ['products.show', ['a b'], '/products/a%20b'],
    ['products.show', ['a/b'], '/products/a%2Fb'],
    ['products.show', ['café'], '/products/caf%C3%A9'],
    ['products.show', ['日本'], '/products/%E6%97%A5%E6%9C%AC'],
    ['products.show', ['what?'], '/products/what%3F'],
    ['products.show', ['#1'], '/products/%231'],
    ['products.show', ['100%'], '/products/100%25'],
    ['products.show', ['a+b&c=d'], '/products/a%2Bb%26c%3Dd'],
    ['products.show', ['.'], '/products/%2E'],
    ['products.show', ['..'], '/products/%2E%2E'],
    ['products.show', ['...'], '/products/...'],
    ['files', ['docs/2024/report final.pdf'], '/files/docs/2024/report%20final.pdf'],
    ['files', ['a?/b#/c%'], '/files/a%3F/b%23/c%25'],
    ['files', ['../etc'], '/files/%2E%2E/etc'],
    ['files', ['dir/'], '/files/dir/'],
    ['users.rest', [5, 'x/y'], '/users/5/x/y'],
    ['odd', [], '/caf%C3%A9/user:login/a+b'],
    ['tenant.dashboard', ['billing'], '/dashboard/billing'],
  ])('%s with %j is %s', (name, args, expected) => {
    expect(urlFor(table, name, args)).toBe(expected);
  });

  it('takes no arguments by default', () => {
    expect(urlFor(table, 'home')).toBe('/');
  });

  it.each<[string, string, (string | number)[], RoutingErrorCode, string[]]>([
    ['an unknown name', 'products.delete', [], 'routing.unknown-route', ["'products.delete'"]],
    ['a missing argument', 'products.show', [], 'routing.url-arguments', ["'products.show'", '/products/{id}', 'missing {id}']],
    ['the second of two missing', 'teams.member', ['red'], 'routing.url-arguments', ["'teams.member'", 'missing {member}', 'got 1']],
    ['an extra argument', 'products.show', [1, 2], 'routing.url-arguments', ["'products.show'", 'extra 2']],
    ['an argument for a route without blanks', 'home', ['x'], 'routing.url-arguments', ["'home'", 'none', 'extra "x"']],
    ['an empty argument', 'products.show', [''], 'routing.url-arguments', ["'products.show'", 'empty', '{id}']],
    ['an empty wildcard argument', 'files', [''], 'routing.url-arguments', ["'files'", 'empty', '{path}']],
    ['NaN', 'products.show', [Number.NaN], 'routing.url-arguments', ['NaN', '{id}']],
    ['Infinity', 'products.show', [Infinity], 'routing.url-arguments', ['Infinity', '{id}']],
    ['a lone surrogate', 'products.show', ['a\uD800'], 'routing.url-arguments', ['Unicode', '{id}']],
    ['a lone surrogate in a wildcard', 'files', ['a/\uDC00'], 'routing.url-arguments', ['Unicode', '{path}']],
  ])('throws for %s', (_what, name, args, code, fragments) => {
    expectRoutingError(() => urlFor(table, name, args), code, ...fragments);
  });

  it.each<[string, Record<string, QueryValue>, string]>([
    ['one value', { page: 2 }, '/products?page=2'],
    ['keys in insertion order', { sort: 'name', page: 2, dir: 'asc' }, '/products?sort=name&page=2&dir=asc'],
    ['encoded values and keys', { q: 'a b&c=d/é?', 'a key': '#' }, '/products?q=a%20b%26c%3Dd%2F%C3%A9%3F&a%20key=%23'],
    ['an array repeats the key', { tag: ['red', 'blue'], page: 1 }, '/products?tag=red&tag=blue&page=1'],
    ['null and undefined are left out', { a: null, b: undefined, c: 'x' }, '/products?c=x'],
    ['booleans as 1 and 0', { active: true, archived: false }, '/products?active=1&archived=0'],
    ['an empty string is kept', { q: '' }, '/products?q='],
    ['an empty array leaves the key out', { tag: [], page: 1 }, '/products?page=1'],
    ['an empty object gives no ?', {}, '/products'],
    ['only left-out values give no ?', { a: null }, '/products'],
  ])('query: %s', (_what, query, expected) => {
    expect(urlFor(table, 'products.index', [], query)).toBe(expected);
  });

  it('adds the query after the filled path', () => {
    expect(urlFor(table, 'products.show', [3], { tab: 'reviews' })).toBe('/products/3?tab=reviews');
  });

  it.each<[string, Record<string, QueryValue>, string]>([
    ['NaN', { page: Number.NaN }, "'page'"],
    ['a lone surrogate value', { q: '\uD800' }, "'q'"],
    ['a lone surrogate key', { '\uDC00': 'x' }, 'Unicode'],
  ])('throws routing.url-query for %s', (_what, query, fragment) => {
    expectRoutingError(() => urlFor(table, 'products.index', [], query), 'routing.url-query', "'products.index'", fragment);
  });
});

describe('routeNameIs', () => {
  it.each<[string | null, string[], boolean]>([
    ['products.index', ['products.index'], true],
    ['products.index', ['products.*'], true],
    ['products.images.show', ['products.*'], true],
    ['products', ['products.*'], false],
    ['productsx', ['products*'], true],
    ['products.index', ['*.index'], true],
    ['admin.products.index', ['*.index'], true],
    ['products.show', ['*.index'], false],
    ['admin.users.edit', ['admin.*.edit'], true],
    ['admin.edit', ['admin.*.edit'], false],
    ['a.b', ['*'], true],
    ['home', ['*'], true],
    ['home', ['h*m*e'], true],
    ['home', ['h*x*e'], false],
    ['aaa', ['a*a*a*a'], false],
    ['aaaa', ['a*a*a*a'], true],
    ['products.index', ['products.show', 'products.index'], true],
    ['products.index', ['posts.*', 'users.*'], false],
    ['products.index', [], false],
    ['products.index', ['Products.index'], false],
    ['products.index', ['products.inde'], false],
    ['a+b', ['a+b'], true],
    ['a.b', ['a?b'], false],
    [null, ['*'], false],
  ])('%j against %j is %s', (name, patterns, expected) => {
    expect(routeNameIs(name, patterns)).toBe(expected);
  });
});
