import { describe, expect, it } from 'vitest';
import type { RouteDefinition } from '../../../../../domain/http/routing/route.js';
import type { RouteLayer } from '../../../../../domain/http/routing/route-layer.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import { corsLayerPolicy, corsPolicy } from '../../../../../domain/http/cors/cors.js';
import type { RoutingErrorCode } from '../../../../../domain/http/routing/routing-error.js';
import type { H } from './routing-helpers.js';
import { expectRoutingError } from './routing-helpers.js';

const routes = (): Routes<H> => new Routes<H>();

/** `METHODS path name` per route, the way a reader would write the expected table. */
function summary(set: Routes<H>): string[] {
  return set.definitions.map((route) => `${route.methods.join('|')} ${route.pattern.source} ${route.name ?? '-'}`);
}

function only(set: Routes<H>, path: string): RouteDefinition<H> {
  const found = set.definitions.filter((route) => route.pattern.source === path);
  if (found.length !== 1) throw new Error(`expected one route at ${path}, found ${found.length}`);
  return found[0] as RouteDefinition<H>;
}

const labels = (route: RouteDefinition<H>): (string | null)[] => route.layers.map((layer) => layer.label);

describe('Routes: the spec panics and the other definition mistakes throw', () => {
  const inner = (): Routes<H> => routes().get('/', 'index').name('index');
  it.each<[string, () => unknown, RoutingErrorCode, string]>([
    ['group prefix without a leading /', () => routes().group('admin', 'admin.', inner()), 'routing.group-prefix', "'admin'"],
    ['group prefix ending with /', () => routes().group('/admin/', 'admin.', inner()), 'routing.group-prefix', "'/admin/'"],
    ['group prefix /', () => routes().group('/', 'admin.', inner()), 'routing.group-prefix', "'/'"],
    ['empty group prefix', () => routes().group('', 'admin.', inner()), 'routing.group-prefix', "''"],
    ['group prefix that is a bad pattern', () => routes().group('/{x', 'admin.', inner()), 'routing.bad-pattern', '{x'],
    ['name prefix without the final dot', () => routes().group('/admin', 'admin', inner()), 'routing.group-name-prefix', "'admin'"],
    ['empty name prefix', () => routes().group('/admin', '', inner()), 'routing.group-name-prefix', "''"],
    ['name prefix that is only a dot', () => routes().group('/admin', '.', inner()), 'routing.group-name-prefix', "'.'"],
    ["group index written as ''", () => routes().group('/admin', 'admin.', routes().get('', 'i')), 'routing.empty-path', "'/'"],
    [
      '.domain inside a group',
      () => routes().group('/admin', 'admin.', routes().domain('{t}.example.com', inner())),
      'routing.group-domain',
      'domain',
    ],
    [
      '.fallback inside a group',
      () => routes().group('/admin', 'admin.', inner().fallback('fb')),
      'routing.group-fallback',
      '/admin',
    ],
    ['merge of two sets with a fallback', () => routes().fallback('a').merge(routes().fallback('b')), 'routing.two-fallbacks', '.merge'],
    ['a second .fallback', () => routes().fallback('a').fallback('b'), 'routing.two-fallbacks', 'two fallbacks'],
    [
      'two fallbacks for one domain',
      () => routes().domain('{t}.example.com', routes().fallback('a')).domain('{x}.example.com', routes().fallback('b')),
      'routing.two-fallbacks',
      '{x}.example.com',
    ],
    [
      'merge of two fallbacks for one domain',
      () => routes().domain('a.test', routes().fallback('a')).merge(routes().domain('a.test', routes().fallback('b'))),
      'routing.two-fallbacks',
      'a.test',
    ],
    [
      'a domain inside a domain',
      () => routes().domain('a.test', routes().domain('b.test', inner())),
      'routing.nested-domain',
      'b.test',
    ],
    [
      'a domain fallback inside a domain',
      () => routes().domain('a.test', routes().domain('b.test', routes().fallback('f'))),
      'routing.nested-domain',
      'b.test',
    ],
    ['a bad domain pattern', () => routes().domain('a..test', inner()), 'routing.bad-domain', 'a..test'],
    ['.name with no route before it', () => routes().name('home'), 'routing.no-route-to-name', "'home'"],
    ['.name on a named route', () => routes().get('/', 'h').name('home').name('start'), 'routing.already-named', "'home'"],
    [
      '.name after a resource (its routes are named)',
      () => routes().resource('/p', 'p', { index: 'i' }).name('x'),
      'routing.already-named',
      'p.index',
    ],
    ['a name with a space', () => routes().get('/', 'h').name('products show'), 'routing.bad-name', 'products show'],
    ['a name with a double dot', () => routes().get('/', 'h').name('a..b'), 'routing.bad-name', 'a..b'],
    ['a name with a star', () => routes().get('/', 'h').name('products.*'), 'routing.bad-name', 'products.*'],
    ['an empty name', () => routes().get('/', 'h').name(''), 'routing.bad-name', "''"],
    ['a path without a leading /', () => routes().get('products', 'h'), 'routing.bad-pattern', 'start with /'],
    ['a bad parameter', () => routes().post('/p/{1}', 'h'), 'routing.bad-pattern', '{1}'],
    ['a wildcard before the end', () => routes().put('/p/{*rest}/x', 'h'), 'routing.bad-pattern', 'last'],
    ['a layer with no route before it', () => routes().requireAuth().get('/', 'h'), 'routing.layer-without-routes', 'auth'],
    ['throttle max 0', () => routes().get('/', 'h').throttle(0, 60), 'routing.throttle', 'max'],
    ['throttle max -1', () => routes().get('/', 'h').throttle(-1, 60), 'routing.throttle', 'max'],
    ['throttle max 1.5', () => routes().get('/', 'h').throttle(1.5, 60), 'routing.throttle', 'max'],
    ['throttle max NaN', () => routes().get('/', 'h').throttle(Number.NaN, 60), 'routing.throttle', 'max'],
    ['throttle max Infinity', () => routes().get('/', 'h').throttle(Infinity, 60), 'routing.throttle', 'max'],
    ['throttle per 0', () => routes().get('/', 'h').throttle(60, 0), 'routing.throttle', 'perSeconds'],
    ['throttle per 0.5', () => routes().get('/', 'h').throttle(60, 0.5), 'routing.throttle', 'perSeconds'],
    ['an empty gate name', () => routes().get('/', 'h').requireGate(''), 'routing.layer-argument', 'gate'],
    ['a role name with a space', () => routes().get('/', 'h').requireRole('super admin'), 'routing.layer-argument', 'role'],
    ['an empty limiter name', () => routes().get('/', 'h').throttleBy(''), 'routing.layer-argument', 'throttle-by'],
    ['cors without origins', () => routes().get('/', 'h').cors([]), 'routing.layer-argument', 'cors'],
    ['cors with an empty origin', () => routes().get('/', 'h').cors(['']), 'routing.layer-argument', 'cors'],
    ['cors with a path in an origin', () => routes().get('/', 'h').cors(['https://a.test/x']), 'routing.layer-argument', 'https://a.test/x'],
    ['corsLayer with credentials and *', () => routes().get('/', 'h').corsLayer({ origins: ['*'], credentials: true }), 'routing.layer-argument', '"*"'],
    ['corsLayer with credentials and null', () => routes().get('/', 'h').corsLayer({ origins: ['null'], credentials: true }), 'routing.layer-argument', '"null"'],
    ['corsLayer with a bad header', () => routes().get('/', 'h').corsLayer({ origins: ['*'], headers: ['X Y'] }), 'routing.layer-argument', 'X Y'],
    ['a layer entry without a name', () => routes().get('/', 'h').layer({ kind: 'extension', name: '', label: null, value: 1 }), 'routing.layer-argument', 'name'],
    ['a layer entry with an empty label', () => routes().get('/', 'h').layer({ kind: 'extension', name: 'x', label: '', value: 1 }), 'routing.layer-argument', 'label'],
    [
      'a built-in layer given to .layer()',
      () => routes().get('/', 'h').layer({ kind: 'auth', label: 'auth' } as never),
      'routing.layer-argument',
      "'extension'",
    ],
    ['a resource without actions', () => routes().resource('/p', 'p', {}), 'routing.resource-actions', 'no actions'],
    [
      'a resource with an unknown action',
      () => routes().resource('/p', 'p', { index: 'i', remove: 'r' } as never),
      'routing.resource-actions',
      'remove',
    ],
    ['a resource with a bad name', () => routes().resource('/p', 'p.', { index: 'i' }), 'routing.bad-name', "'p.'"],
    ['a resource path with {id} already', () => routes().resource('/p/{id}/q', 'q', { show: 's' }), 'routing.bad-pattern', 'twice'],
    ['a view without a template', () => routes().view('/about', ' '), 'routing.bad-target', '/about'],
    ['a redirect without a target', () => routes().redirect('/old', ''), 'routing.bad-target', '/old'],
  ])('%s throws', (_what, action, code, fragment) => {
    expectRoutingError(action, code, fragment);
  });
});

describe('Routes: methods and targets', () => {
  it('adds one route per call, with its method and target', () => {
    const set = routes()
      .get('/a', 'get')
      .post('/a', 'post')
      .put('/a', 'put')
      .patch('/a', 'patch')
      .delete('/a', 'delete')
      .route('/any', 'any')
      .view('/about', 'pages/about')
      .redirect('/old', '/new')
      .permanentRedirect('/older', 'https://example.com/');
    expect(set.definitions.map((route) => [route.methods, route.target])).toEqual([
      [['GET'], { kind: 'handler', handler: 'get' }],
      [['POST'], { kind: 'handler', handler: 'post' }],
      [['PUT'], { kind: 'handler', handler: 'put' }],
      [['PATCH'], { kind: 'handler', handler: 'patch' }],
      [['DELETE'], { kind: 'handler', handler: 'delete' }],
      [['*'], { kind: 'handler', handler: 'any' }],
      [['GET'], { kind: 'view', template: 'pages/about' }],
      [['*'], { kind: 'redirect', to: '/new', status: 302 }],
      [['*'], { kind: 'redirect', to: 'https://example.com/', status: 301 }],
    ]);
  });

  it('is immutable: a call returns a new set and leaves the old one as it was', () => {
    const empty = routes();
    const one = empty.get('/', 'h');
    const named = one.name('home');
    expect(empty.definitions).toEqual([]);
    expect(one.definitions[0]?.name).toBeNull();
    expect(named.definitions[0]?.name).toBe('home');
    expect(Object.isFrozen(named.definitions)).toBe(true);
    expect(Object.isFrozen(named.definitions[0])).toBe(true);
  });
});

describe('Routes.name', () => {
  it('names only the route added just before', () => {
    const set = routes().get('/a', 'a').get('/b', 'b').name('b').get('/c', 'c').name('c.show').get('/d', 'd');
    expect(summary(set)).toEqual(['GET /a -', 'GET /b b', 'GET /c c.show', 'GET /d -']);
  });

  it.each(['home', 'products.show', 'admin.users.index', 'two-factor.challenge', 'v2_api.x'])('accepts %j', (name) => {
    expect(routes().get('/', 'h').name(name).definitions[0]?.name).toBe(name);
  });
});

describe('Routes.resource', () => {
  const all = { index: 'i', create: 'c', store: 's', show: 'sh', edit: 'e', update: 'u', destroy: 'd' };

  it('gives the seven routes of the spec for all actions', () => {
    expect(summary(routes().resource('/products', 'products', all))).toEqual([
      'GET /products products.index',
      'GET /products/new products.create',
      'POST /products products.store',
      'GET /products/{id} products.show',
      'GET /products/{id}/edit products.edit',
      'PUT|PATCH /products/{id} products.update',
      'DELETE /products/{id} products.destroy',
    ]);
  });

  it('hands each action its own handler', () => {
    const handlers = routes()
      .resource('/products', 'products', all)
      .definitions.map((route) => (route.target.kind === 'handler' ? route.target.handler : null));
    expect(handlers).toEqual(['i', 'c', 's', 'sh', 'e', 'u', 'd']);
  });

  it.each<[string, Record<string, H>, string[]]>([
    ['index and show', { show: 'sh', index: 'i' }, ['GET /photos photos.index', 'GET /photos/{id} photos.show']],
    ['only update', { update: 'u' }, ['PUT|PATCH /photos/{id} photos.update']],
    ['store and destroy', { destroy: 'd', store: 's' }, ['POST /photos photos.store', 'DELETE /photos/{id} photos.destroy']],
  ])('with %s gives only those routes, in the table order', (_what, actions, expected) => {
    expect(summary(routes().resource('/photos', 'photos', actions))).toEqual(expected);
  });

  it('takes its path and name stem from the first two arguments, also nested', () => {
    expect(summary(routes().resource('/shops/{shop}/items', 'shop.items', { index: 'i', edit: 'e' }))).toEqual([
      'GET /shops/{shop}/items shop.items.index',
      'GET /shops/{shop}/items/{id}/edit shop.items.edit',
    ]);
  });

  it('inside a group gains both prefixes', () => {
    const set = routes().group('/admin', 'admin.', routes().resource('/users', 'users', { index: 'i', show: 's' }));
    expect(summary(set)).toEqual(['GET /admin/users admin.users.index', 'GET /admin/users/{id} admin.users.show']);
  });
});

describe('Routes.group', () => {
  it("turns the inner index route '/' into the prefix path and prefixes the names", () => {
    const inner = routes().get('/', 'dash').name('dashboard').get('/users', 'users').name('users').post('/users', 'create');
    expect(summary(routes().get('/', 'home').name('home').group('/admin', 'admin.', inner))).toEqual([
      'GET / home',
      'GET /admin admin.dashboard',
      'GET /admin/users admin.users',
      'POST /admin/users -',
    ]);
  });

  it('nests', () => {
    const set = routes().group('/a', 'a.', routes().group('/b', 'b.', routes().get('/', 'x').name('x')));
    expect(summary(set)).toEqual(['GET /a/b a.b.x']);
  });

  it('accepts a prefix with a parameter', () => {
    const set = routes().group('/teams/{team}', 'teams.', routes().get('/members', 'm').name('members'));
    expect(summary(set)).toEqual(['GET /teams/{team}/members teams.members']);
  });

  it('keeps the layers of the inner routes; an outer layer added later wraps outside them', () => {
    const inner = routes().get('/', 'dash').requireAuth().get('/public', 'pub');
    const set = routes().group('/admin', 'admin.', inner).requireRole('admin');
    expect(labels(only(set, '/admin'))).toEqual(['role:admin', 'auth']);
    expect(labels(only(set, '/admin/public'))).toEqual(['role:admin']);
  });
});

describe('Routes.merge', () => {
  it('appends the other set, keeping its names and layers', () => {
    const other = routes().get('/b', 'b').name('b').etag();
    const set = routes().get('/a', 'a').name('a').merge(other);
    expect(summary(set)).toEqual(['GET /a a', 'GET /b b']);
    expect(labels(only(set, '/b'))).toEqual(['etag']);
    expect(labels(only(set, '/a'))).toEqual([]);
  });

  it('keeps the one fallback either side has', () => {
    expect(routes().merge(routes().fallback('f')).fallbacks).toEqual([{ handler: 'f', domain: null }]);
    expect(routes().fallback('f').merge(routes().get('/', 'h')).fallbacks).toEqual([{ handler: 'f', domain: null }]);
  });

  it('allows an app fallback next to a domain fallback', () => {
    const set = routes().fallback('app').merge(routes().domain('{t}.example.com', routes().fallback('tenant')));
    expect(set.fallbacks.map((fallback) => [fallback.handler, fallback.domain?.source ?? null])).toEqual([
      ['app', null],
      ['tenant', '{t}.example.com'],
    ]);
  });
});

describe('Routes.domain', () => {
  it('gives the inner routes and fallback the domain, leaving the others without one', () => {
    const set = routes()
      .get('/', 'home')
      .domain('{tenant}.example.com', routes().get('/', 'tenant-home').name('tenant.home').fallback('tenant-404'));
    expect(set.definitions.map((route) => route.domain?.source ?? null)).toEqual([null, '{tenant}.example.com']);
    expect(set.fallbacks).toEqual([{ handler: 'tenant-404', domain: set.definitions[1]?.domain }]);
  });

  it('may hold a group', () => {
    const set = routes().domain('admin.example.com', routes().group('/users', 'users.', routes().get('/', 'i').name('index')));
    expect(summary(set)).toEqual(['GET /users users.index']);
    expect(set.definitions[0]?.domain?.source).toBe('admin.example.com');
  });
});

describe('Routes layers', () => {
  it('wrap only the routes added before them', () => {
    const set = routes().get('/private', 'p').requireAuth().get('/public', 'q');
    expect(labels(only(set, '/private'))).toEqual(['auth']);
    expect(labels(only(set, '/public'))).toEqual([]);
  });

  it('are stored outermost first: the one added last wraps the others', () => {
    const set = routes().get('/a', 'a').requireAuth().get('/b', 'b').throttle(60, 60).requireVerified();
    expect(labels(only(set, '/a'))).toEqual(['verified', 'throttle:60/60s', 'auth']);
    expect(labels(only(set, '/b'))).toEqual(['verified', 'throttle:60/60s']);
  });

  it.each<[string, (set: Routes<H>) => Routes<H>, RouteLayer]>([
    ['requireAuth', (set) => set.requireAuth(), { kind: 'auth', label: 'auth' }],
    ['requireVerified', (set) => set.requireVerified(), { kind: 'verified', label: 'verified' }],
    ['guestOnly', (set) => set.guestOnly(), { kind: 'guest', label: 'guest' }],
    ['requireGate', (set) => set.requireGate('edit-post'), { kind: 'gate', label: 'gate:edit-post', options: { name: 'edit-post' } }],
    ['requireRole', (set) => set.requireRole('admin'), { kind: 'role', label: 'role:admin', options: { name: 'admin' } }],
    [
      'requirePermission',
      (set) => set.requirePermission('posts.delete'),
      { kind: 'permission', label: 'permission:posts.delete', options: { name: 'posts.delete' } },
    ],
    [
      'requireAbility',
      (set) => set.requireAbility('orders:write'),
      { kind: 'ability', label: 'ability:orders:write', options: { name: 'orders:write' } },
    ],
    ['requirePasswordConfirmed', (set) => set.requirePasswordConfirmed(), { kind: 'password-confirmed', label: 'password.confirm' }],
    ['throttle', (set) => set.throttle(5, 1), { kind: 'throttle', label: 'throttle:5/1s', options: { max: 5, perSeconds: 1 } }],
    ['throttleBy', (set) => set.throttleBy('uploads'), { kind: 'throttle-by', label: 'throttle:uploads', options: { name: 'uploads' } }],
    [
      'cors',
      (set) => set.cors(['https://a.test', 'https://b.test']),
      { kind: 'cors', label: 'cors', options: { policy: corsPolicy(['https://a.test', 'https://b.test']) } },
    ],
    [
      'corsLayer',
      (set) => set.corsLayer({ origins: ['https://a.test'], credentials: true }),
      { kind: 'cors', label: 'cors', options: { policy: corsLayerPolicy({ origins: ['https://a.test'], credentials: true }) } },
    ],
    ['etag', (set) => set.etag(), { kind: 'etag', label: 'etag' }],
    ['withoutCsrf', (set) => set.withoutCsrf(), { kind: 'csrf-off', label: 'csrf:off' }],
    ['routeLayer', (set) => set.routeLayer({ name: 'timing' }), { kind: 'middleware', label: null, layer: { name: 'timing' } }],
    [
      'layer',
      (set) => set.layer({ kind: 'extension', name: 'cache', label: 'cache:60', value: { seconds: 60 } }),
      { kind: 'extension', name: 'cache', label: 'cache:60', value: { seconds: 60 } },
    ],
  ])('%s records its layer as data', (_what, add, expected) => {
    expect(add(routes().get('/', 'h')).definitions[0]?.layers).toEqual([expected]);
  });

  it('copies the cors origins, so changing the array later changes nothing', () => {
    const origins = ['https://a.test'];
    const set = routes().get('/', 'h').cors(origins);
    origins.push('https://evil.test');
    const layer = set.definitions[0]?.layers[0];
    expect(layer?.kind === 'cors' ? layer.options : null).toEqual({ policy: corsPolicy(['https://a.test']) });
  });

  it('wrap routes added by group, merge, resource and domain when added after them', () => {
    const set = routes()
      .group('/g', 'g.', routes().get('/', 'g'))
      .merge(routes().get('/m', 'm'))
      .resource('/r', 'r', { index: 'r' })
      .domain('d.test', routes().get('/d', 'd'))
      .requireAuth();
    expect(set.definitions.map(labels)).toEqual([['auth'], ['auth'], ['auth'], ['auth']]);
  });

  it('do not touch fallbacks', () => {
    const set = routes().fallback('f').get('/', 'h').requireAuth();
    expect(set.fallbacks).toEqual([{ handler: 'f', domain: null }]);
  });
});
