import { describe, expect, it } from 'vitest';
import { routeListRows } from '../../../../../domain/http/routing/route-list.js';
import { Routes } from '../../../../../domain/http/routing/routes.js';
import type { H } from './routing-helpers.js';
import { expectRoutingError, tableOf } from './routing-helpers.js';

describe('Routes.webhook', () => {
  it('adds a POST route wrapped in its own webhook layer only', () => {
    const set = new Routes<H>().get('/before', 'b').webhook('/hooks/github', 'github', 'w').name('hooks.github').post('/after', 'a');
    expect(set.definitions.map((route) => [route.methods, route.pattern.source, route.name, route.layers])).toEqual([
      [['GET'], '/before', null, []],
      [['POST'], '/hooks/github', 'hooks.github', [{ kind: 'webhook', label: 'webhook:github', options: { name: 'github' } }]],
      [['POST'], '/after', null, []],
    ]);
  });

  it('is wrapped by layers added after it, and route:list shows its check first', () => {
    const table = tableOf(['hooks', new Routes<H>().webhook('/hooks/{provider}', 'signed', 'w').throttle(60, 60)]);
    expect(routeListRows(table)).toEqual([{ method: 'POST', path: '/hooks/{provider}', name: '', module: 'hooks', guards: 'webhook:signed, throttle:60/60s', domain: '' }]);
  });

  it.each(['', 'two words', 'a,b'])('refuses the verifier name %j', (name) => {
    expectRoutingError(() => new Routes<H>().webhook('/hooks', name, 'w'), 'routing.layer-argument', 'webhook');
  });

  it('refuses a bad path like any route', () => {
    expectRoutingError(() => new Routes<H>().webhook('hooks', 'github', 'w'), 'routing.bad-pattern');
  });
});
