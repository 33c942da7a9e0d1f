import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Header, Routes, abort, combine, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestResponse, TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-cors-');

const APP = 'https://app.example';
const ok = () => json({ ok: true });

/** What a browser sends before a request it may not make unasked. */
function preflight(origin: string, method: string, headers?: string): { headers: Record<string, string> } {
  return {
    headers: {
      origin,
      'access-control-request-method': method,
      ...(headers === undefined ? {} : { 'access-control-request-headers': headers }),
    },
  };
}

const from = (origin: string, extra: Record<string, string> = {}) => ({ headers: { origin, ...extra } });

/** The names in Vary, lower case (hapi adds `accept-encoding` to answers it may compress). */
function varyNames(response: TestResponse): string[] {
  return (response.headers.get('vary') ?? '').split(',').map((name) => name.trim().toLowerCase()).filter((name) => name !== '');
}

function expectNoCorsGrant(response: TestResponse): void {
  for (const name of ['allow-origin', 'allow-credentials', 'allow-methods', 'allow-headers', 'max-age', 'expose-headers']) {
    expect(response.headers.get(`access-control-${name}`), name).toBeNull();
  }
}

describe('CORS', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite` },
      build: (options) =>
        createDefaultApp(options).module({
          name: 'cors',
          // A layer wraps every route added before it: each group here is a set of its own.
          routes: new Routes()
            .get('/api/items', ok)
            .post('/api/items', () => json({ created: true }, 201))
            .get('/api/varied', () => combine(json({ ok: true }), Header.make('Vary', 'Accept')))
            .get('/api/forbidden', () => abort(403, 'Not yours.'))
            .cors([APP, 'http://localhost:3000'])
            .get('/after-cors', ok)
            .merge(new Routes().post('/api/hook', ok).withoutCsrf().get('/api/open', ok).cors(['*']))
            // `.cors` before `.throttle`: the 429 still carries the CORS headers.
            .merge(new Routes().get('/api/limited', ok).cors([APP]).throttle(1, 60))
            .merge(
              new Routes()
                .get('/api/me', () => combine(json({ me: true }), Header.make('X-Total-Count', '1')))
                .put('/api/me', ok)
                .corsLayer({ origins: [APP], credentials: true, headers: ['Content-Type', 'X-Custom'], exposedHeaders: ['X-Total-Count'], maxAgeSeconds: 600 }),
            ),
        }),
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  describe('actual requests', () => {
    it('give an allowed origin Access-Control-Allow-Origin, with Vary: Origin and no credentials', async () => {
      const response = await server.client().get('/api/items', from(APP));
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(varyNames(response)).toContain('origin');
    });

    it('serve another origin without the headers (the browser keeps the answer from the page)', async () => {
      const response = await server.client().get('/api/items', from('https://evil.test'));
      expect(response.status).toBe(200);
      expectNoCorsGrant(response);
      expect(varyNames(response)).toContain('origin');
    });

    it('without an Origin still say Vary: Origin, so caches keep the answers apart', async () => {
      const response = await server.client().get('/api/items');
      expectNoCorsGrant(response);
      expect(varyNames(response)).toContain('origin');
    });

    it('answer "*" on a route open to any origin, but never to the null origin', async () => {
      expect((await server.client().get('/api/open', from('https://anyone.test'))).headers.get('access-control-allow-origin')).toBe('*');
      expectNoCorsGrant(await server.client().get('/api/open', from('null')));
    });

    it('add Origin to the Vary the app set', async () => {
      const response = await server.client().get('/api/varied', from(APP));
      expect(varyNames(response).filter((name) => name !== 'accept-encoding')).toEqual(['accept', 'origin']);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    });

    it('carry the headers on error answers, so a script on the origin can read them', async () => {
      const forbidden = await server.client().get('/api/forbidden', from(APP, { accept: 'application/json' }));
      expect(forbidden.status).toBe(403);
      expect(forbidden.json()).toEqual({ message: 'Not yours.' });
      expect(forbidden.headers.get('access-control-allow-origin')).toBe(APP);
      expect(varyNames(forbidden)).toContain('origin');
    });

    it('leave out a route added after .cors()', async () => {
      const response = await server.client().get('/after-cors', from(APP));
      expect(response.status).toBe(200);
      expectNoCorsGrant(response);
      expect(varyNames(response)).not.toContain('origin');
      // And a preflight for it is not answered by CORS: the route table answers the OPTIONS.
      const asked = await server.client().request('OPTIONS', '/after-cors', preflight(APP, 'GET'));
      expect(asked.status).toBe(405);
      expectNoCorsGrant(asked);
    });
  });

  describe('preflights', () => {
    it('answer 204 with the methods, the headers and an hour, and set no cookie', async () => {
      const client = server.client();
      const response = await client.request('OPTIONS', '/api/items', preflight(APP, 'POST', 'content-type,x-csrf-token'));
      expect(response.status).toBe(204);
      expect(response.text).toBe('');
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-methods')).toBe('GET, POST, PUT, PATCH, DELETE, OPTIONS');
      expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type, Authorization, Accept, X-CSRF-Token');
      expect(response.headers.get('access-control-max-age')).toBe('3600');
      expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      expect(varyNames(response)).toContain('origin');
      expect(response.headers.getSetCookie()).toEqual([]);
      expect(client.cookies.size).toBe(0);
      // The framework's headers come along like on every answer.
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.get('x-request-id')).not.toBeNull();
    });

    it('refuse X-XSRF-TOKEN under .cors(): it carries a cookie value other origins must never send', async () => {
      const response = await server.client().request('OPTIONS', '/api/items', preflight(APP, 'POST', 'x-xsrf-token'));
      expect(response.status).toBe(403);
      expectNoCorsGrant(response);
      expect(varyNames(response)).toContain('origin');
      expect(response.text).toContain('header');
    });

    it.each([
      ['an origin not listed', preflight('https://evil.test', 'POST'), 'origin'],
      ['the null origin', preflight('null', 'GET'), 'origin'],
      ['a method outside the list', preflight(APP, 'PROPFIND'), 'method'],
      ['a method no route of the path serves', preflight(APP, 'DELETE'), 'method'],
    ])('refuse %s with 403 and no Allow-* headers', async (_name, options, reason) => {
      const response = await server.client().request('OPTIONS', '/api/items', options);
      expect(response.status).toBe(403);
      expectNoCorsGrant(response);
      expect(response.text).toContain(reason);
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('are not counted by throttles, and a 429 still carries the CORS headers', async () => {
      const client = server.client();
      for (let i = 0; i < 3; i += 1) expect((await client.request('OPTIONS', '/api/limited', preflight(APP, 'GET'))).status).toBe(204);
      const first = await client.get('/api/limited', from(APP));
      expect(first.status).toBe(200);
      expect(first.headers.get('access-control-allow-origin')).toBe(APP);
      const refused = await client.get('/api/limited', from(APP));
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).not.toBeNull();
      expect(refused.headers.get('access-control-allow-origin')).toBe(APP);
      expect(varyNames(refused)).toContain('origin');
    });

    it('an OPTIONS without Access-Control-Request-Method is no preflight: the routes answer it', async () => {
      const response = await server.client().request('OPTIONS', '/api/items', from(APP));
      expect(response.status).toBe(405);
      expect(response.headers.get('allow')).toBe('GET, HEAD, POST');
      expect(response.headers.get('access-control-allow-methods')).toBeNull();
    });
  });

  describe('.corsLayer({ credentials: true })', () => {
    it('echoes the origin with Access-Control-Allow-Credentials and the exposed headers', async () => {
      const response = await server.client().get('/api/me', from(APP));
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(response.headers.get('access-control-expose-headers')).toBe('X-Total-Count');
      expect(varyNames(response)).toContain('origin');
    });

    it('answers its preflight with its own headers and lifetime', async () => {
      const response = await server.client().request('OPTIONS', '/api/me', preflight(APP, 'PUT', 'x-custom'));
      expect(response.status).toBe(204);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(response.headers.get('access-control-allow-credentials')).toBe('true');
      expect(response.headers.get('access-control-allow-headers')).toBe('Content-Type, X-Custom');
      expect(response.headers.get('access-control-max-age')).toBe('600');
      expect((await server.client().request('OPTIONS', '/api/me', preflight(APP, 'PUT', 'authorization'))).status).toBe(403);
    });

    it('refuses the null origin', async () => {
      expectNoCorsGrant(await server.client().get('/api/me', from('null')));
      const asked = await server.client().request('OPTIONS', '/api/me', preflight('null', 'GET'));
      expect(asked.status).toBe(403);
      expectNoCorsGrant(asked);
    });
  });

  describe('CSRF is unchanged by CORS', () => {
    it('a cross-origin POST without the token is refused with a 419 the script can read', async () => {
      const response = await server.client().post('/api/items', { ...from(APP, { accept: 'application/json' }), json: {}, csrf: false });
      expect(response.status).toBe(419);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
      expect(varyNames(response)).toContain('origin');
    });

    it('a route under .withoutCsrf() takes it', async () => {
      const response = await server.client().post('/api/hook', { ...from('https://anyone.test'), json: {}, csrf: false });
      expect(response.status).toBe(200);
      expect(response.headers.get('access-control-allow-origin')).toBe('*');
    });

    it('a Bearer request skips the CSRF check', async () => {
      // Whatever the token proves about the caller is the guards' business; it is no 419.
      const response = await server.client().post('/api/items', { ...from(APP, { authorization: 'Bearer some-token' }), json: {}, csrf: false });
      expect(response.status).not.toBe(419);
      expect(response.headers.get('access-control-allow-origin')).toBe(APP);
    });
  });
});
