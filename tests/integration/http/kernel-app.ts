import { setTimeout as sleep } from 'node:timers/promises';
import { Redirect, Routes, View, abort, json, text } from '../../../composition/index.js';
import type { App, AppOptions, Middleware } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';

/** Calls of the layers, in order, for the test that checks the onion. */
export const layerCalls: string[] = [];

const tag =
  (name: string): Middleware =>
  async (_ctx, next) => {
    layerCalls.push(`${name}:in`);
    const reply = await next();
    layerCalls.push(`${name}:out`);
    return reply;
  };

/** A module that exercises the kernel: every kind of route, reply and failure. */
export function kernelTestApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/ip', (ctx) => json({ ip: ctx.ip }))
    .get('/request-id', (ctx) => text(ctx.requestId))
    .get('/items/{id}', (ctx) => json({ id: ctx.params.int('id') }))
    .name('items.show')
    .delete('/items/{id}', (ctx) => text(`deleted ${ctx.params.string('id')}`))
    .put('/items/{id}', (ctx) => text(`replaced ${ctx.params.string('id')}`))
    .post('/form', (ctx) => json({ received: ctx.body() }))
    .post('/json', (ctx) => json({ received: ctx.body() }))
    .get('/boom', () => {
      throw new Error('secret database password leaked in a stack');
    })
    .get('/teapot', () => abort(418, 'I am a teapot, and you may know it.'))
    .get('/slow', async () => {
      await sleep(3000);
      return text('too late');
    })
    .get('/files/{*rest}', (ctx) => json({ rest: ctx.params.string('rest') }))
    .get('/to-item', () => Redirect.route('items.show', [42]))
    .get('/page', () => View.make('fw/home.html'))
    .get('/layered', () => {
      layerCalls.push('handler');
      return text('layered');
    })
    .routeLayer(tag('route-inner'))
    .routeLayer(tag('route-outer'))
    .get('/after-layers', () => text('not wrapped'))
    .domain('{tenant}.tenants.test', new Routes().get('/', (ctx) => text(`tenant ${ctx.domainParams.get('tenant') ?? ''}`)).fallback(() => text('tenant fallback')));
  return createDefaultApp(options)
    .module({ name: 'kernel-test', routes })
    .layer(tag('app-first'))
    .layer(tag('app-second'));
}
