import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { matchRoute } from '../../../../../domain/http/routing/match.js';
import type { RouteMatch } from '../../../../../domain/http/routing/match.js';
import type { RouteTable } from '../../../../../domain/http/routing/route-table.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import type { H } from './routing-helpers.js';
import { tableOf } from './routing-helpers.js';

const routes = (): Routes<H> => new Routes<H>();

/** What a match came to, in one comparable value: the handler (or view/redirect) and params. */
type Outcome =
  | { kind: 'matched'; to: string; params: Record<string, string>; domainParams?: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'fallback'; to: string; domainParams?: Record<string, string> }
  | { kind: 'not-found' }
  | { kind: 'bad-path' };

function outcome(result: RouteMatch<H>, withDomain = false): Outcome {
  switch (result.kind) {
    case 'matched': {
      const { target } = result.route;
      const to =
        target.kind === 'handler'
          ? target.handler
          : target.kind === 'view'
            ? `view:${target.template}`
            : `${target.status}:${target.to}`;
      return withDomain
        ? { kind: 'matched', to, params: result.params, domainParams: result.domainParams }
        : { kind: 'matched', to, params: result.params };
    }
    case 'fallback':
      return withDomain
        ? { kind: 'fallback', to: result.fallback.handler, domainParams: result.domainParams }
        : { kind: 'fallback', to: result.fallback.handler };
    case 'method-not-allowed':
    case 'not-found':
    case 'bad-path':
      return result;
  }
}

function run(table: RouteTable<H>, method: string, path: string, host = 'example.com', withDomain = false): Outcome {
  return outcome(matchRoute(table, { method, host, path }), withDomain);
}

const matched = (to: string, params: Record<string, string> = {}): Outcome => ({ kind: 'matched', to, params });

describe('matchRoute: paths and methods', () => {
  const table = tableOf([
    'app',
    routes()
      .get('/', 'home')
      .resource('/products', 'products', {
        index: 'index',
        create: 'create',
        store: 'store',
        show: 'show',
        edit: 'edit',
        update: 'update',
        destroy: 'destroy',
      })
      .get('/files/{*path}', 'files')
      .post('/upload', 'upload')
      .route('/webhook', 'webhook')
      .view('/about', 'pages/about')
      .redirect('/old', '/new')
      .permanentRedirect('/older', '/newer'),
  ]);

  it.each<[string, string, Outcome]>([
    ['GET', '/', matched('home')],
    ['GET', '/products', matched('index')],
    ['POST', '/products', matched('store')],
    ['GET', '/products/new', matched('create')],
    ['GET', '/products/42', matched('show', { id: '42' })],
    ['GET', '/products/42/edit', matched('edit', { id: '42' })],
    ['PUT', '/products/42', matched('update', { id: '42' })],
    ['PATCH', '/products/42', matched('update', { id: '42' })],
    ['DELETE', '/products/42', matched('destroy', { id: '42' })],
    ['get', '/products/42', matched('show', { id: '42' })],
    ['GET', '/products/caf%C3%A9%20au%20lait', matched('show', { id: 'café au lait' })],
    ['GET', '/products/a%2Fb', matched('show', { id: 'a/b' })],
    ['GET', '/products/a+b', matched('show', { id: 'a+b' })],
    ['PUT', '/products/new', matched('update', { id: 'new' })],
    ['GET', '/files/a', matched('files', { path: 'a' })],
    ['GET', '/files/docs/2024/report%20final.pdf', matched('files', { path: 'docs/2024/report final.pdf' })],
    ['GET', '/files/a/', matched('files', { path: 'a/' })],
    ['GET', '/files/a%2Fb/c', matched('files', { path: 'a/b/c' })],
    ['GET', '/about', matched('view:pages/about')],
    ['DELETE', '/old', matched('302:/new')],
    ['GET', '/older', matched('301:/newer')],
    ['POST', '/webhook', matched('webhook')],
    ['OPTIONS', '/webhook', matched('webhook')],
    ['PROPFIND', '/webhook', matched('webhook')],
    ['HEAD', '/products/1', matched('show', { id: '1' })],
    ['HEAD', '/about', matched('view:pages/about')],
    ['HEAD', '/webhook', matched('webhook')],
    ['GET', '/products/', { kind: 'not-found' }],
    ['GET', '/products/1/edit/more', { kind: 'not-found' }],
    ['GET', '/files', { kind: 'not-found' }],
    ['GET', '/files/', { kind: 'not-found' }],
    ['GET', '/nowhere', { kind: 'not-found' }],
    ['GET', '//', { kind: 'not-found' }],
  ])('%s %s', (method, path, expected) => {
    expect(run(table, method, path)).toEqual(expected);
  });

  it.each<[string, string, string[]]>([
    ['POST', '/', ['GET', 'HEAD']],
    ['DELETE', '/products', ['GET', 'HEAD', 'POST']],
    ['POST', '/products/7', ['GET', 'HEAD', 'PUT', 'PATCH', 'DELETE']],
    ['GET', '/upload', ['POST']],
    ['HEAD', '/upload', ['POST']],
    ['PUT', '/files/x', ['GET', 'HEAD']],
  ])('%s %s is method-not-allowed, allowing %j', (method, path, allowed) => {
    expect(run(table, method, path)).toEqual({ kind: 'method-not-allowed', allowed });
  });

  it.each([
    ['/products/%zz'],
    ['/products/%E0%A4%A'],
    ['/products/%'],
    ['/%FF'],
    ['/files/ok/%C3'],
    ['/nowhere/%'],
    ['products'],
    [''],
    ['*'],
  ])('%j is bad-path', (path) => {
    expect(run(table, 'GET', path)).toEqual({ kind: 'bad-path' });
  });
});

describe('matchRoute: priority', () => {
  const declared: [string, string][] = [
    ['/users/me', 'me'],
    ['/users/{id}', 'user'],
    ['/users/{*rest}', 'users-rest'],
    ['/users/{id}/posts', 'user-posts'],
    ['/users/me/{*rest}', 'me-rest'],
    ['/{section}/{id}/posts', 'section-posts'],
    ['/{*all}', 'everything'],
  ];
  const build = (order: [string, string][]): RouteTable<H> =>
    tableOf(['app', order.reduce((set, [path, handler]) => set.get(path, handler), routes())]);

  it.each<[string, Outcome]>([
    ['/users/me', matched('me')],
    ['/users/42', matched('user', { id: '42' })],
    ['/users/42/posts', matched('user-posts', { id: '42' })],
    ['/users/me/posts', matched('me-rest', { rest: 'posts' })],
    ['/users/42/comments', matched('users-rest', { rest: '42/comments' })],
    ['/teams/7/posts', matched('section-posts', { section: 'teams', id: '7' })],
    ['/teams/7', matched('everything', { all: 'teams/7' })],
  ])('%s picks the most specific pattern, whatever the declaration order', (path, expected) => {
    expect(run(build(declared), 'GET', path)).toEqual(expected);
    expect(run(build([...declared].reverse()), 'GET', path)).toEqual(expected);
  });

  it('lets the route declared first win among equally specific patterns', () => {
    const table = tableOf(['app', routes().get('/{a}/x', 'first').get('/{b}/{c}', 'second').get('/y/{d}', 'third')]);
    // '/{a}/x' and '/y/{d}': the first segment decides (static y beats {a}).
    expect(run(table, 'GET', '/y/x')).toEqual(matched('third', { d: 'x' }));
    expect(run(table, 'GET', '/z/x')).toEqual(matched('first', { a: 'z' }));
  });

  it('filters by method before picking, so a less specific route can take another method', () => {
    const table = tableOf(['app', routes().get('/p/new', 'create').put('/p/{id}', 'update')]);
    expect(run(table, 'PUT', '/p/new')).toEqual(matched('update', { id: 'new' }));
    expect(run(table, 'GET', '/p/1')).toEqual({ kind: 'method-not-allowed', allowed: ['PUT'] });
  });

  it('treats a * route as one more candidate: a more specific GET route wins for GET, the * route takes the rest', () => {
    const table = tableOf(['app', routes().route('/hook/{name}', 'any').get('/hook/github', 'github')]);
    expect(run(table, 'GET', '/hook/github')).toEqual(matched('github'));
    expect(run(table, 'POST', '/hook/github')).toEqual(matched('any', { name: 'github' }));
  });
});

describe('matchRoute: fallbacks', () => {
  it('answers with the fallback when no path matches, and not-found without one', () => {
    const withFallback = tableOf(['app', routes().get('/', 'home').fallback('missing')]);
    expect(run(withFallback, 'GET', '/nope')).toEqual({ kind: 'fallback', to: 'missing' });
    expect(run(tableOf(['app', routes().get('/', 'home')]), 'GET', '/nope')).toEqual({ kind: 'not-found' });
  });

  it('does not hide method-not-allowed or bad-path behind the fallback', () => {
    const table = tableOf(['app', routes().get('/', 'home').fallback('missing')]);
    expect(run(table, 'POST', '/')).toEqual({ kind: 'method-not-allowed', allowed: ['GET', 'HEAD'] });
    expect(run(table, 'GET', '/%')).toEqual({ kind: 'bad-path' });
  });

  it('takes the fallback from any module', () => {
    const table = tableOf(['blog', routes().get('/', 'home')], ['errors', routes().fallback('missing')]);
    expect(run(table, 'GET', '/x')).toEqual({ kind: 'fallback', to: 'missing' });
  });
});

describe('matchRoute: hosts', () => {
  const table = tableOf(
    ['site', routes().get('/', 'site-home').get('/pricing', 'pricing').fallback('site-404')],
    [
      'tenants',
      routes()
        .domain('{tenant}.example.com', routes().get('/', 'tenant-home').get('/projects/{id}', 'project').fallback('tenant-404'))
        .domain('admin.example.com', routes().get('/', 'admin-home'))
        .domain('{region}.{tenant}.example.com', routes().get('/', 'regional')),
    ],
  );

  it.each<[string, string, Outcome]>([
    ['acme.example.com', '/', { kind: 'matched', to: 'tenant-home', params: {}, domainParams: { tenant: 'acme' } }],
    ['acme.example.com', '/projects/9', { kind: 'matched', to: 'project', params: { id: '9' }, domainParams: { tenant: 'acme' } }],
    ['Acme.Example.COM', '/', { kind: 'matched', to: 'tenant-home', params: {}, domainParams: { tenant: 'acme' } }],
    ['acme.example.com:8080', '/', { kind: 'matched', to: 'tenant-home', params: {}, domainParams: { tenant: 'acme' } }],
    ['acme.example.com.', '/', { kind: 'matched', to: 'tenant-home', params: {}, domainParams: { tenant: 'acme' } }],
    ['eu.acme.example.com', '/', { kind: 'matched', to: 'regional', params: {}, domainParams: { region: 'eu', tenant: 'acme' } }],
    ['admin.example.com', '/', { kind: 'matched', to: 'admin-home', params: {}, domainParams: {} }],
    ['example.com', '/', { kind: 'matched', to: 'site-home', params: {}, domainParams: {} }],
    ['localhost:3000', '/pricing', { kind: 'matched', to: 'pricing', params: {}, domainParams: {} }],
    ['', '/', { kind: 'matched', to: 'site-home', params: {}, domainParams: {} }],
    ['acme.example.org', '/', { kind: 'matched', to: 'site-home', params: {}, domainParams: {} }],
    // No fall-through: a domain host never reaches the routes without a domain.
    ['acme.example.com', '/pricing', { kind: 'fallback', to: 'tenant-404', domainParams: { tenant: 'acme' } }],
    // A domain without its own fallback does not borrow the app's.
    ['admin.example.com', '/pricing', { kind: 'not-found' }],
    ['admin.example.com', '/projects/1', { kind: 'not-found' }],
    ['example.com', '/projects/1', { kind: 'fallback', to: 'site-404', domainParams: {} }],
  ])('%s %s', (host, path, expected) => {
    expect(run(table, 'GET', path, host, true)).toEqual(expected);
  });

  it('gives each route the parameter names of its own domain pattern', () => {
    const named = tableOf([
      'app',
      routes().domain('{a}.test', routes().get('/x', 'x')).domain('{b}.test', routes().get('/y', 'y').fallback('fb')),
    ]);
    expect(run(named, 'GET', '/x', 'one.test', true)).toEqual({ kind: 'matched', to: 'x', params: {}, domainParams: { a: 'one' } });
    expect(run(named, 'GET', '/y', 'one.test', true)).toEqual({ kind: 'matched', to: 'y', params: {}, domainParams: { b: 'one' } });
    expect(run(named, 'GET', '/z', 'one.test', true)).toEqual({ kind: 'fallback', to: 'fb', domainParams: { b: 'one' } });
  });
});

describe('matchRoute never throws', () => {
  const table = tableOf([
    'app',
    routes()
      .get('/', 'home')
      .get('/a/{x}', 'a')
      .post('/a/{x}/b', 'ab')
      .get('/f/{*rest}', 'f')
      .route('/any/{y}', 'any')
      .fallback('fb')
      .domain('{t}.example.com', routes().get('/{z}', 'z')),
  ]);
  const pathChars = fc.constantFrom('/', '%', 'a', 'b', 'f', '2', 'F', 'E', 'C', '3', '{', '}', ' ', '.', '?', 'é', '\u{1F600}', '\uD800');
  const kinds = ['matched', 'method-not-allowed', 'fallback', 'not-found', 'bad-path'];

  it('for arbitrary paths, methods and hosts, returning one of the union kinds', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: pathChars, maxLength: 30 }), fc.string({ unit: 'binary' }), fc.string().map((s) => `/${s}`)),
        fc.oneof(fc.constantFrom('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'), fc.string()),
        fc.oneof(fc.constantFrom('example.com', 'acme.example.com:80', '[::1]:8080', ''), fc.string()),
        (path, method, host) => {
          const result = matchRoute(table, { method, host, path });
          expect(kinds).toContain(result.kind);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
