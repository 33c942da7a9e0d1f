import fc from 'fast-check';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { Redirect, Routes, View, text } from '../../../../composition/index.js';
import type { App, AppOptions } from '../../../../composition/index.js';
import { createDefaultApp } from '../../../../composition/default-app.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { useTempDir } from '../../../support/databases.js';
import * as flows from '../../../support/flows.js';
import { rawRequest } from './raw-http.js';

/**
 * No Location the framework builds from request input leaves the site (outside review: a
 * same-site Referer whose path began with `//` came back as `Location: //evil.test/`). Every
 * answer's Location, resolved the way a browser resolves it, must stay on APP_URL's origin.
 */
const dir = useTempDir('fw-open-redirect-');

/** An app with a fallback page holding a form: where a `//evil.test` path is a real page. */
function formEverywhereApp(options: AppOptions): App {
  const guarded = new Routes()
    .get('/members', () => text('members only'))
    .get('/{*anything}', () => View.make('fw/home.html'))
    .requireAuth();
  const routes = new Routes().post('/subscribe', () => Redirect.back()).merge(guarded);
  return createDefaultApp(options).module({ name: 'forms', routes });
}

const hostileTails = ['//evil.test/', '/.//evil.test', '///evil.test', '/a/../..//evil.test', '/%2F%2Fevil.test', '/%2e/%2fevil.test', '//evil.test/%2e%2e', '/./evil.test'];

describe('redirects built from request input stay on the site, over a real socket', () => {
  // The guest forms allow 30 posts a minute per client and the login lock 5 per address: the
  // clock moves a minute before each request that could meet either.
  const clock = new FixedClock('2026-05-01T10:00:00Z');
  let testApp: TestApp;
  let server: TestServer;
  let origin = '';
  let attempt = 0;
  const nextMinute = () => clock.advance(61_000);
  const someone = () => `nobody${++attempt}@example.com`;

  beforeAll(async () => {
    testApp = TestApp.create({ root: dir(), clock, environment: { APP_URL: 'http://localhost' }, build: formEverywhereApp });
    server = await testApp.serve();
    origin = new URL(server.url).origin;
  });
  afterAll(() => server.stop());
  beforeEach(nextMinute);

  function expectOnSite(location: string | null, input: string): void {
    expect(location, input).not.toBeNull();
    for (const site of ['http://localhost', origin]) {
      expect(new URL(location ?? '', `${site}/some/page`).origin, `${input} → ${location}`).toBe(site);
    }
  }

  it.each(['http://localhost', 'APP'])('back() after POST /forgot-password and a failed login, with a Referer of this site whose path starts with // (%s)', async (base) => {
    for (const tail of hostileTails) {
      const referer = `${base === 'APP' ? origin : base}${tail}`;
      for (const [path, form] of [
        ['/forgot-password', { email: someone() }],
        ['/login', { email: someone(), password: 'wrong password' }],
        ['/subscribe', { email: someone() }],
      ] as const) {
        nextMinute();
        const client = server.client();
        await client.get('/login');
        const answer = await client.post(path, { form, headers: { referer } });
        expect(answer.status, `${path} ${referer}`).toBe(303);
        expectOnSite(answer.location, `${path} ${referer}`);
      }
    }
  });

  it('back() keeps a normal same-site Referer exactly', async () => {
    const client = server.client();
    await client.get('/login');
    const answer = await client.post('/subscribe', { form: {}, headers: { referer: `${origin}/pricing?plan=pro#form` } });
    expect(answer.location).toBe('/pricing?plan=pro#form');
  });

  it('Redirect.intended after a login never follows a remembered path that reads as another host', async () => {
    let followed = 0;
    for (const target of ['//evil.test/', '/.//evil.test', '///evil.test/x', '/%2F/evil.test', '/a/../..//evil.test']) {
      const email = someone();
      await testApp.createUser({ name: 'Member', email, password: 'member password 1', verified: true });
      // The guest asks for a guarded page at a hostile path, sent raw (a client would tidy it up).
      const browser = server.client();
      await browser.get('/login');
      const cookie = [...browser.cookies].map(([name, value]) => `${name}=${value}`).join('; ');
      const asked = await rawRequest(server.url, { target, headers: [['cookie', cookie]] });
      if (asked.header('location') === '/login') {
        followed += 1;
        for (const line of asked.headers.get('set-cookie') ?? []) {
          const [pair = ''] = line.split(';');
          const at = pair.indexOf('=');
          browser.cookies.set(pair.slice(0, at), pair.slice(at + 1));
        }
      }
      nextMinute();
      const login = await flows.signIn(browser, email, 'member password 1');
      expect(login.status, target).toBe(303);
      expectOnSite(login.location, target);
    }
    // The hostile paths did reach the guard (and were remembered), or this test proves nothing.
    expect(followed).toBeGreaterThanOrEqual(3);
  });

  it('fast-check: any Referer made of slashes, dots, encodings and hosts gives an on-site Location', async () => {
    const piece = fc.constantFrom('/', '//', '.', '..', '%2F', '%5C', '%2e', '@', ':', 'evil.test', 'a', '?', '#');
    await fc.assert(
      fc.asyncProperty(fc.tuple(fc.constantFrom(origin, 'http://localhost', ''), fc.array(piece, { minLength: 1, maxLength: 10 })), async ([start, pieces]) => {
        const referer = start + pieces.join('');
        nextMinute();
        const client = server.client();
        await client.get('/login');
        const answer = await client.post('/subscribe', { form: {}, headers: { referer } });
        expect(answer.status).toBe(303);
        expectOnSite(answer.location, referer);
      }),
      { numRuns: 150 },
    );
  });
});
