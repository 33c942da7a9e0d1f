import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';
import { kernelTestApp, layerCalls } from './kernel-app.js';

const dir = useTempDir('fw-kernel-');

describe('the request pipeline over a real socket', () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, TRUSTED_PROXIES: '127.0.0.1', REQUEST_TIMEOUT: '1', UPLOAD_MAX_SIZE: '3MB' },
      build: kernelTestApp,
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());
  beforeEach(() => {
    layerCalls.length = 0;
  });

  it.each(['/', '/health', '/nope', '/boom', '/robots.txt', '/favicon.ico'])('sends the security headers on %s', async (path) => {
    const response = await server.client().get(path);
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-frame-options')).toBe('SAMEORIGIN');
    expect(response.headers.get('referrer-policy')).toBe('strict-origin-when-cross-origin');
    expect(response.headers.get('content-security-policy')).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{24}'/u);
    expect(response.headers.get('strict-transport-security')).toBeNull();
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/u);
  });

  // That csp_nonce() prints the header's nonce is checked in views.test.ts: the built-in pages
  // carry no inline code any more (their look is public/fw/fw.css).
  it('gives every request a fresh nonce', async () => {
    const first = await server.client().get('/');
    const second = await server.client().get('/');
    const nonce = /'nonce-([^']+)'/u.exec(first.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    expect(second.headers.get('content-security-policy')).not.toContain(nonce);
  });

  it('keeps an acceptable X-Request-Id and replaces a bad one', async () => {
    const kept = await server.client().get('/request-id', { headers: { 'x-request-id': 'edge-req.0001_ab' } });
    expect(kept.text).toBe('edge-req.0001_ab');
    expect(kept.headers.get('x-request-id')).toBe('edge-req.0001_ab');
    const replaced = await server.client().get('/request-id', { headers: { 'x-request-id': 'bad id\twith tab' } });
    expect(replaced.text).toMatch(/^[0-9a-f]{32}$/u);
  });

  it('believes X-Forwarded-For only from a trusted proxy', async () => {
    const response = await server.client().get('/ip', { headers: { 'x-forwarded-for': '203.0.113.9, 198.51.100.4' } });
    expect(response.json()).toEqual({ ip: '198.51.100.4' });
    const direct = await server.client().get('/ip');
    expect(direct.json()).toEqual({ ip: '127.0.0.1' });
  });

  it('routes a POST with _method or X-HTTP-Method-Override as that method', async () => {
    const client = server.client();
    expect((await client.post('/items/7', { form: { _method: 'DELETE' } })).text).toBe('deleted 7');
    expect((await client.post('/items/7', { headers: { 'x-http-method-override': 'PUT' } })).text).toBe('replaced 7');
    expect((await client.post('/items/7', { form: { _method: 'GET' } })).status).toBe(405);
  });

  it('runs app layers (first added outermost), then route layers (last added outermost), then the handler', async () => {
    await server.client().get('/layered');
    expect(layerCalls).toEqual([
      'app-first:in',
      'app-second:in',
      'route-outer:in',
      'route-inner:in',
      'handler',
      'route-inner:out',
      'route-outer:out',
      'app-second:out',
      'app-first:out',
    ]);
    layerCalls.length = 0;
    await server.client().get('/after-layers');
    expect(layerCalls).toEqual(['app-first:in', 'app-second:in', 'app-second:out', 'app-first:out']);
  });

  it('answers 404 for a parameter that does not parse, and for no route', async () => {
    expect((await server.client().get('/items/abc')).status).toBe(404);
    expect((await server.client().get('/items/12')).json()).toEqual({ id: 12 });
    const missing = await server.client().get('/no/such/page');
    expect(missing.status).toBe(404);
    expect(missing.text).toContain('Not Found');
  });

  it('answers 405 with Allow when the path exists for other methods', async () => {
    const response = await server.client().request('PATCH', '/items/1');
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD, PUT, DELETE');
  });

  it('matches {*rest} across slashes and decodes it', async () => {
    expect((await server.client().get('/files/a/b%20c/d.txt')).json()).toEqual({ rest: 'a/b c/d.txt' });
  });

  it('serves a domain only on its hosts, with its labels and its own fallback', async () => {
    const tenant = await server.client().get('/', { headers: { host: 'acme.tenants.test' } });
    expect(tenant.text).toBe('tenant acme');
    expect((await server.client().get('/items/1', { headers: { host: 'acme.tenants.test' } })).text).toBe('tenant fallback');
    expect((await server.client().get('/health', { headers: { host: 'acme.tenants.test' } })).status).toBe(200);
  });

  // A plain probe is answered before hapi's lifecycle (health-first.ts), one with a query by
  // hapi's route: both give the same answer, and both are in the access log.
  it.each(['/health', '/health?probe=1'])('answers %s with the status as JSON, never cached, and logs it', async (path) => {
    const before = app.logs.filter((line) => line.message === 'request' && line.fields['path'] === '/health').length;
    const response = await server.client().get(path);
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ status: 'ok' });
    expect(response.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(response.headers.get('cache-control')).toBe('no-store');
    const head = await server.client().request('HEAD', path);
    expect(head.status).toBe(200);
    expect(head.text).toBe('');
    expect(head.headers.get('x-request-id')).toMatch(/^[0-9a-f]{32}$/u);
    expect(app.logs.filter((line) => line.message === 'request' && line.fields['path'] === '/health' && line.fields['status'] === 200).length).toBe(before + 2);
  });

  it('turns an exception into a 500 page without the error, and JSON for API clients', async () => {
    const page = await server.client().get('/boom');
    expect(page.status).toBe(500);
    expect(page.text).not.toContain('secret database password');
    expect(page.text).not.toMatch(/at .*\.ts:\d+/u);
    expect(page.text).toContain(page.headers.get('x-request-id') ?? 'missing');
    const api = await server.client().get('/boom', { headers: { accept: 'application/json' } });
    expect(api.status).toBe(500);
    expect(api.json()).toEqual({ message: 'Server Error' });
    expect(app.logs.some((line) => line.level === 'error' && JSON.stringify(line.fields).includes('secret database password'))).toBe(true);
  });

  it('shows an abort message as it is', async () => {
    const response = await server.client().get('/teapot', { headers: { accept: 'application/json' } });
    expect(response.status).toBe(418);
    expect(response.json()).toEqual({ message: 'I am a teapot, and you may know it.' });
  });

  it('turns a run past REQUEST_TIMEOUT into a 500 page', async () => {
    const started = Date.now();
    const response = await server.client().get('/slow');
    expect(response.status).toBe(500);
    expect(Date.now() - started).toBeLessThan(2500);
  });

  it('refuses a form over 2 MB with 400 and a sentence, and a body over UPLOAD_MAX_SIZE with 413', async () => {
    const form = await server.client().post('/form', { form: { field: 'x'.repeat(2 * 1024 * 1024 + 10) } });
    expect(form.status).toBe(400);
    expect(form.text).toBe('The form is too large.');
    const big = await server.client().post('/json', { json: { field: 'x'.repeat(3 * 1024 * 1024 + 10) } });
    expect(big.status).toBe(413);
    const fine = await server.client().post('/form', { form: { field: 'small' } });
    expect(fine.json()).toEqual({ received: { field: 'small' } });
  });

  it('answers a body that is not what its Content-Type says with a clear 400', async () => {
    const response = await server.client().post('/json', { body: '{not json', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.json()).toEqual({ message: 'Invalid request payload JSON format' });
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('answers malformed percent-encoding with 400, not 500', async () => {
    expect((await server.client().get('/items/%E0%A4%A')).status).toBe(400);
  });

  it('redirects with 303 to a named route', async () => {
    const response = await server.client().get('/to-item');
    expect(response.status).toBe(303);
    expect(response.location).toBe('/items/42');
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await server.client().request('HEAD', '/items/3');
    expect(response.status).toBe(200);
    expect(response.text).toBe('');
  });
});

describe('HSTS', () => {
  it('is sent when APP_URL is https', async () => {
    const app = TestApp.create({ environment: { APP_URL: 'https://app.example' }, build: kernelTestApp });
    const server = await app.serve();
    try {
      const response = await server.client().get('/health');
      expect(response.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    } finally {
      await server.stop();
    }
  });
});
