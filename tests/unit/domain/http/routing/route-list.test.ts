import { describe, expect, it } from 'vitest';
import { routeListHasDomains, routeListRows } from '../../../../../domain/http/routing/route-list.js';
import type { RouteListRow } from '../../../../../domain/http/routing/route-list.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import type { H } from './routing-helpers.js';
import { tableOf } from './routing-helpers.js';

const routes = (): Routes<H> => new Routes<H>();

const row = (method: string, path: string, name: string, module: string, guards = '', domain = ''): RouteListRow => ({
  method,
  path,
  name,
  module,
  guards,
  domain,
});

describe('routeListRows', () => {
  it('lists every route in declaration order with its method, name, module and guards', () => {
    const table = tableOf(
      [
        'shop',
        routes()
          .get('/', 'home')
          .name('home')
          .resource('/products', 'products', { index: 'i', store: 's', update: 'u', destroy: 'd' })
          .requireAuth()
          .throttle(60, 60)
          .routeLayer({ timing: true })
          .get('/public', 'p')
          .cors(['*'])
          .etag(),
      ],
      [
        'hooks',
        routes()
          .route('/hook', 'h')
          .withoutCsrf()
          .redirect('/old', '/new')
          .view('/about', 'about')
          .name('about')
          .requireGate('x')
          .requireRole('admin')
          .requirePermission('p.q')
          .requireAbility('o:w')
          .requireVerified()
          .requirePasswordConfirmed()
          .guestOnly()
          .throttleBy('api'),
      ],
    );
    const many = 'gate:x, role:admin, permission:p.q, ability:o:w, verified, password.confirm, guest, throttle:api';
    expect(routeListRows(table)).toEqual([
      row('GET|HEAD', '/', 'home', 'shop', 'auth, throttle:60/60s, cors, etag'),
      row('GET|HEAD', '/products', 'products.index', 'shop', 'auth, throttle:60/60s, cors, etag'),
      row('POST', '/products', 'products.store', 'shop', 'auth, throttle:60/60s, cors, etag'),
      row('PUT|PATCH', '/products/{id}', 'products.update', 'shop', 'auth, throttle:60/60s, cors, etag'),
      row('DELETE', '/products/{id}', 'products.destroy', 'shop', 'auth, throttle:60/60s, cors, etag'),
      row('GET|HEAD', '/public', '', 'shop', 'cors, etag'),
      row('*', '/hook', '', 'hooks', `csrf:off, ${many}`),
      row('*', '/old', '', 'hooks', many),
      row('GET|HEAD', '/about', 'about', 'hooks', many),
    ]);
  });

  it('lists the guards of a group’s inner routes before the outer ones', () => {
    const table = tableOf(['admin', routes().group('/admin', 'admin.', routes().get('/', 'd').requireRole('admin')).requireAuth()]);
    expect(routeListRows(table)).toEqual([row('GET|HEAD', '/admin', '', 'admin', 'role:admin, auth')]);
  });

  it('shows the domain pattern as written', () => {
    const table = tableOf(['app', routes().get('/', 'a').domain('{Tenant}.Example.com', routes().get('/', 'b').name('t'))]);
    expect(routeListRows(table)).toEqual([row('GET|HEAD', '/', '', 'app'), row('GET|HEAD', '/', 't', 'app', '', '{Tenant}.Example.com')]);
  });
});

describe('routeListHasDomains', () => {
  it.each<[string, Routes<H>, boolean]>([
    ['no domain', routes().get('/', 'a'), false],
    ['one domain route', routes().get('/', 'a').domain('a.test', routes().get('/', 'b')), true],
    ['no routes', routes(), false],
  ])('%s: %s', (_what, set, expected) => {
    expect(routeListHasDomains(tableOf(['app', set]))).toBe(expected);
  });
});
