import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { InMemoryTokenVerifier, Routes, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-csrf-');

const tokens = new InMemoryTokenVerifier();

function csrfApp(xsrfCookie: boolean) {
  return TestApp.create({
    environment: { DATABASE_URL: `sqlite:${dir()}/${xsrfCookie ? 'xsrf' : 'plain'}.sqlite` },
    build: (options) => {
      const app = createDefaultApp(options).tokenVerifier(tokens).module({
        name: 'csrf',
        // withoutCsrf() wraps the routes added before it: the webhook only.
        routes: new Routes()
          .post('/webhook', () => json({ received: true }))
          .withoutCsrf()
          .post('/save', () => json({ saved: true }))
          .put('/items/{id}', (ctx) => json({ replaced: ctx.params.int('id') }))
          .post('/after-exemption', () => json({ saved: true }))
          // A route's traits are shared by all its requests: a handler that tries to change them fails.
          .get('/change-traits', (ctx) => {
            const traits = (ctx as unknown as { traits: { csrfExempt: boolean } }).traits;
            try {
              traits.csrfExempt = true;
            } catch {
              return json({ changed: false });
            }
            return json({ changed: traits.csrfExempt });
          }),
      });
      return xsrfCookie ? app.xsrfCookie() : app;
    },
  });
}

describe('CSRF', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = csrfApp(false);
    server = await app.serve();
    const user = await app.createUser({ name: 'Api', email: 'api@example.com', password: 'correct horse battery' });
    tokens.add('api-token', { userId: user.id });
  });
  afterAll(() => server.stop());

  it('answers 419 to a POST without the token: a page that says so, or JSON', async () => {
    const page = await server.client().post('/save', { csrf: false });
    expect(page.status).toBe(419);
    expect(page.text).toContain('The page expired. Go back, reload it and try again.');
    const api = await server.client().post('/save', { csrf: false, headers: { accept: 'application/json' } });
    expect(api.status).toBe(419);
    expect(api.json()).toEqual({ message: 'The page expired. Go back, reload it and try again.' });
  });

  it("a request cannot switch on its route's CSRF exemption for the next ones", async () => {
    expect((await server.client().get('/change-traits')).json()).toEqual({ changed: false });
    expect((await server.client().post('/save', { csrf: false })).status).toBe(419);
  });

  it('accepts the token from the _token field and from X-CSRF-Token, and refuses a wrong one', async () => {
    const client = server.client();
    await client.get('/');
    const token = client.csrfToken ?? '';
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect((await client.post('/save', { form: { _token: token } })).json()).toEqual({ saved: true });
    expect((await client.post('/save', { csrf: false, headers: { 'x-csrf-token': token } })).status).toBe(200);
    expect((await client.post('/save', { csrf: false, headers: { 'x-csrf-token': `${token.slice(0, -1)}x` } })).status).toBe(419);
    expect((await client.post('/save', { form: { _token: 'wrong' }, headers: { 'x-csrf-token': token } })).status).toBe(419);
  });

  it("refuses another visitor's token", async () => {
    const victim = server.client();
    await victim.get('/');
    const attacker = server.client();
    await attacker.get('/');
    expect((await attacker.post('/save', { csrf: false, headers: { 'x-csrf-token': victim.csrfToken ?? '' } })).status).toBe(419);
  });

  it('checks the method a form overrides to, and never a GET', async () => {
    expect((await server.client().post('/items/3', { csrf: false, form: { _method: 'PUT' } })).status).toBe(419);
    expect((await server.client().post('/items/3', { form: { _method: 'PUT' } })).json()).toEqual({ replaced: 3 });
    expect((await server.client().get('/')).status).toBe(200);
  });

  it('exempts only routes added before withoutCsrf()', async () => {
    expect((await server.client().post('/webhook', { csrf: false })).json()).toEqual({ received: true });
    expect((await server.client().post('/after-exemption', { csrf: false })).status).toBe(419);
  });

  it('lets Bearer requests through: a cross-site form cannot set Authorization', async () => {
    expect((await server.client().post('/save', { csrf: false, headers: { authorization: 'Bearer api-token' } })).status).toBe(200);
  });

  it('answers 401 JSON, not 419, to a Bearer token that signs in nobody', async () => {
    const answer = await server.client().post('/save', { csrf: false, headers: { authorization: 'Bearer forged-token' } });
    expect(answer.status).toBe(401);
    expect(answer.json()).toEqual({ message: 'Unauthenticated.' });
    expect(answer.headers.get('www-authenticate')).toBe('Bearer');
  });

  it('ignores X-XSRF-TOKEN unless the app sends the XSRF-TOKEN cookie', async () => {
    const client = server.client();
    await client.get('/');
    expect(client.cookies.has('XSRF-TOKEN')).toBe(false);
    expect((await client.post('/save', { csrf: false, headers: { 'x-xsrf-token': client.csrfToken ?? '' } })).status).toBe(419);
  });
});

describe('CSRF with App.xsrfCookie()', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await csrfApp(true).serve();
  });
  afterAll(() => server.stop());

  it('sends the token in a cookie scripts can read, and accepts it back in X-XSRF-TOKEN', async () => {
    const client = server.client();
    const page = await client.get('/');
    const line = page.headers.getSetCookie().find((cookie) => cookie.startsWith('XSRF-TOKEN='));
    expect(line).toBeDefined();
    expect(line).not.toMatch(/HttpOnly/iu);
    const cookie = client.cookies.get('XSRF-TOKEN') ?? '';
    expect(cookie).toBe(client.csrfToken);
    expect((await client.post('/save', { csrf: false, headers: { 'x-xsrf-token': cookie } })).json()).toEqual({ saved: true });
  });
});
