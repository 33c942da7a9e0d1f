import { describe, expect, it } from 'vitest';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import type { H } from './routing-helpers.js';
import { expectRoutingError, tableOf } from './routing-helpers.js';

const routes = (): Routes<H> => new Routes<H>();

describe('buildRouteTable', () => {
  it('keeps module order, then each module’s own order, and tags each route with its module', () => {
    const table = tableOf(['blog', routes().get('/posts', 'p').get('/posts/{id}', 's')], ['shop', routes().get('/cart', 'c')]);
    expect(table.routes.map((route) => `${route.module} ${route.pattern.source}`)).toEqual([
      'blog /posts',
      'blog /posts/{id}',
      'shop /cart',
    ]);
  });

  it('is frozen', () => {
    const table = tableOf(['app', routes().get('/', 'h').fallback('f')]);
    expect(Object.isFrozen(table)).toBe(true);
    expect(Object.isFrozen(table.routes)).toBe(true);
    expect(Object.isFrozen(table.routes[0])).toBe(true);
    expect(Object.isFrozen(table.fallbacks)).toBe(true);
  });

  it('groups domain routes by domain shape, in first-declared order', () => {
    const table = tableOf(
      ['a', routes().get('/', 'plain').domain('{t}.example.com', routes().get('/', 'x'))],
      ['b', routes().domain('admin.example.com', routes().get('/', 'y')).domain('{tenant}.example.com', routes().get('/z', 'z'))],
    );
    expect(table.plain.routes.map((route) => route.target)).toEqual([{ kind: 'handler', handler: 'plain' }]);
    expect(table.domains.map((scope) => [scope.host.source, scope.routes.length])).toEqual([
      ['{t}.example.com', 2],
      ['admin.example.com', 1],
    ]);
  });

  it.each<[string, [string, Routes<H>][], string[]]>([
    [
      'the same name in two modules',
      [
        ['blog', routes().get('/posts', 'p').name('index')],
        ['shop', routes().get('/products', 'q').name('index')],
      ],
      ["'index'", 'GET /posts', 'module blog', 'GET /products', 'module shop'],
    ],
    [
      'the same name twice in one module',
      [['app', routes().get('/a', 'a').name('x').post('/b', 'b').name('x')]],
      ["'x'", 'GET /a', 'POST /b'],
    ],
    [
      'a group name that equals an outer name',
      [['app', routes().get('/', 'a').name('admin.index').group('/admin', 'admin.', routes().get('/', 'b').name('index'))]],
      ["'admin.index'", 'GET /admin'],
    ],
  ])('throws routing.duplicate-name for %s, naming both routes', (_what, modules, fragments) => {
    expectRoutingError(() => tableOf(...modules), 'routing.duplicate-name', ...fragments);
  });

  it.each<[string, Routes<H>]>([
    ['two GET routes on one path', routes().get('/a', 'x').get('/a', 'y')],
    ['parameters with other names', routes().get('/p/{id}', 'x').get('/p/{slug}', 'y')],
    ['wildcards with other names', routes().get('/f/{*a}', 'x').get('/f/{*b}', 'y')],
    ['a * route and a GET route', routes().get('/a', 'x').route('/a', 'y')],
    ['a redirect over a POST route', routes().post('/a', 'x').redirect('/a', '/b')],
    ['a PATCH route over a resource update', routes().resource('/p', 'p', { update: 'u' }).patch('/p/{id}', 'x')],
    ['a group index over a plain route', routes().get('/admin', 'x').group('/admin', 'admin.', routes().get('/', 'y'))],
    ['the same domain shape', routes().domain('{a}.test', routes().get('/', 'x')).domain('{b}.test', routes().get('/', 'y'))],
  ])('throws routing.duplicate-route for %s', (_what, set) => {
    expectRoutingError(() => tableOf(['app', set]), 'routing.duplicate-route', 'same method and path');
  });

  it('names both clashing routes and their modules', () => {
    expectRoutingError(
      () => tableOf(['blog', routes().get('/a', 'x').name('a')], ['shop', routes().get('/a', 'y')]),
      'routing.duplicate-route',
      "GET /a ('a', module blog)",
      'GET /a (module shop)',
    );
  });

  it.each<[string, Routes<H>]>([
    ['GET and POST on one path', routes().get('/a', 'x').post('/a', 'y')],
    ['a resource (show, update, destroy on one path)', routes().resource('/p', 'p', { show: 's', update: 'u', destroy: 'd' })],
    [
      'one path on two domains',
      routes().get('/', 'x').domain('a.test', routes().get('/', 'y')).domain('b.test', routes().get('/', 'z')),
    ],
    ['a static and a parameter', routes().get('/p/new', 'x').get('/p/{id}', 'y')],
  ])('accepts %s', (_what, set) => {
    expect(() => tableOf(['app', set])).not.toThrow();
  });

  it('throws routing.two-fallbacks for two app fallbacks, naming both modules', () => {
    expectRoutingError(
      () => tableOf(['blog', routes().fallback('a')], ['shop', routes().fallback('b')]),
      'routing.two-fallbacks',
      'blog',
      'shop',
    );
  });

  it('throws routing.two-fallbacks for two fallbacks of one domain in two modules', () => {
    expectRoutingError(
      () =>
        tableOf(
          ['blog', routes().domain('{t}.example.com', routes().fallback('a'))],
          ['shop', routes().domain('{u}.example.com', routes().fallback('b'))],
        ),
      'routing.two-fallbacks',
      '{t}.example.com',
    );
  });

  it('allows one app fallback and one fallback per domain', () => {
    const table = tableOf(
      ['blog', routes().fallback('app')],
      ['shop', routes().domain('a.test', routes().fallback('a')).domain('b.test', routes().fallback('b'))],
    );
    expect(table.plain.fallback?.handler).toBe('app');
    expect(table.domains.map((scope) => scope.fallback?.handler)).toEqual(['a', 'b']);
  });
});
