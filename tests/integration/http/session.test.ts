import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FixedClock } from '../../../adapters/clock/fixed-clock.js';
import { CookieSealer } from '../../../adapters/http/cookie-sealer.js';
import { CryptoRandomSource } from '../../../adapters/random/crypto-random-source.js';
import { Routes, SetCookie, combine, json, text } from '../../../composition/index.js';
import type { App, AppOptions } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { deriveAppKeys } from '../../../domain/security/app-keys.js';
import { TEST_APP_KEY, useTempDir } from '../../support/databases.js';
import { flipOneCharacter, setCookie } from './cookie-lines.js';

const SESSION = 'fw_session';

/** Handlers that read and write the session, answering what they saw as JSON. */
function sessionApp(options: AppOptions): App {
  const routes = new Routes()
    .get('/count', (ctx) => json({ count: ctx.session.increment('count') }))
    .get('/put', (ctx) => {
      ctx.session.put('name', 'Ada');
      return json({ ok: true });
    })
    .get('/peek', (ctx) => json({ count: ctx.session.get('count') ?? null, name: ctx.session.get('name') ?? null }))
    .get('/flash', (ctx) => {
      ctx.session.flash('message', 'saved');
      ctx.session.flashNow('now', 'only now');
      return json({ message: ctx.session.get('message') ?? null, now: ctx.session.get('now') ?? null });
    })
    .get('/read-flash', (ctx) => json({ message: ctx.session.get('message') ?? null, now: ctx.session.get('now') ?? null }))
    .get('/remember', (ctx) => {
      ctx.session.setLifetime(60 * 24 * 30);
      return text('remembered');
    })
    .get('/big', (ctx) => {
      ctx.session.put('blob', 'x'.repeat(4000));
      return text('stored');
    })
    .get('/prefs', () => combine(text('sealed'), SetCookie.encrypted('prefs', { count: 99 })));
  return createDefaultApp(options).module({ name: 'session-test', routes });
}

const dir = useTempDir('fw-session-');
const clock = new FixedClock('2026-03-01T12:00:00Z');

describe('the cookie session over a real socket', () => {
  let app: TestApp;
  let server: TestServer;

  beforeAll(async () => {
    app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/db.sqlite`, SESSION_LIFETIME: '1', APP_KEY: TEST_APP_KEY },
      build: sessionApp,
      clock,
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it('keeps a counter across requests that carry the cookie', async () => {
    const client = server.client();
    expect((await client.get('/count')).json()).toEqual({ count: 1 });
    expect((await client.get('/count')).json()).toEqual({ count: 2 });
    await client.get('/put');
    expect((await client.get('/count')).json()).toEqual({ count: 3 });
    expect((await client.get('/peek')).json()).toEqual({ count: 3, name: 'Ada' });
  });

  it('gives a new client an empty session', async () => {
    const first = server.client();
    await first.get('/count');
    await first.get('/put');
    const second = server.client();
    expect((await second.get('/peek')).json()).toEqual({ count: null, name: null });
    expect((await second.get('/count')).json()).toEqual({ count: 1 });
  });

  it('shows a flashed value in this request and the next only; flashNow in this one only', async () => {
    const client = server.client();
    expect((await client.get('/flash')).json()).toEqual({ message: 'saved', now: 'only now' });
    expect((await client.get('/read-flash')).json()).toEqual({ message: 'saved', now: null });
    expect((await client.get('/read-flash')).json()).toEqual({ message: null, now: null });
  });

  it('treats a tampered cookie as an empty session, answering 200', async () => {
    const client = server.client();
    await client.get('/count');
    await client.get('/count');
    const sealed = client.cookies.get(SESSION);
    expect(sealed).toBeDefined();
    for (const at of [10, Math.floor((sealed ?? '').length / 2), (sealed ?? '').length - 3]) {
      const tampered = flipOneCharacter(sealed ?? '', at);
      expect(tampered).not.toBe(sealed);
      const response = await server.client().get('/peek', { headers: { cookie: `${SESSION}=${tampered}` } });
      expect(response.status).toBe(200);
      expect(response.json()).toEqual({ count: null, name: null });
      // A fresh session replaces the damaged one.
      expect(setCookie(response, SESSION).value).not.toBe(tampered);
    }
    const garbage = await server.client().get('/peek', { headers: { cookie: `${SESSION}=not-a-sealed-value` } });
    expect(garbage.status).toBe(200);
    expect(garbage.json()).toEqual({ count: null, name: null });
  });

  it('seals the same value with a fresh IV each time, and opens every one', async () => {
    const sealer = new CookieSealer(sealingKeys(), new CryptoRandomSource());
    const sealed = await Promise.all(Array.from({ length: 50 }, () => sealer.seal(SESSION, { count: 1 })));
    const ivs = sealed.map((text) => text.split('*')[3]);
    expect(new Set(ivs).size).toBe(50);
    expect(ivs.every((iv) => Buffer.from(iv ?? '', 'base64url').length === 16)).toBe(true);
    for (const text of sealed) expect(await sealer.unseal(SESSION, text)).toEqual({ count: 1 });
  });

  it('treats a value sealed for another cookie name as an empty session', async () => {
    const client = server.client();
    await client.get('/count');
    await client.get('/count');
    // The very snapshot of this session, sealed with the app's own keys but for another name.
    const sealer = new CookieSealer(sealingKeys(), new CryptoRandomSource());
    const snapshot = await sealer.unseal(SESSION, client.cookies.get(SESSION) ?? '');
    expect(snapshot).toMatchObject({ values: { count: 2 } });
    const foreign = await sealer.seal('prefs', snapshot);
    const response = await server.client().get('/peek', { headers: { cookie: `${SESSION}=${foreign}` } });
    expect(response.status).toBe(200);
    expect(response.json()).toEqual({ count: null, name: null });

    // And a cookie the app itself sealed under another name, moved over.
    const other = server.client();
    await other.get('/prefs');
    const prefs = other.cookies.get('prefs') ?? '';
    expect(prefs).not.toBe('');
    const moved = await server.client().get('/peek', { headers: { cookie: `${SESSION}=${prefs}` } });
    expect(moved.status).toBe(200);
    expect(moved.json()).toEqual({ count: null, name: null });
  });

  it('keeps the session when the browser also sends another fw_session (parent domain, other path)', async () => {
    const client = server.client();
    await client.get('/count');
    await client.get('/count');
    const sealed = client.cookies.get(SESSION) ?? '';
    const other = server.client();
    await other.get('/count');
    const foreign = other.cookies.get(SESSION) ?? '';
    for (const cookie of [`${SESSION}=${sealed}; ${SESSION}=junk`, `${SESSION}=junk; ${SESSION}=${sealed}`, `${SESSION}=${flipOneCharacter(sealed)}; ${SESSION}=${sealed}`]) {
      const response = await server.client().get('/peek', { headers: { cookie } });
      expect(response.status).toBe(200);
      expect(response.json(), cookie.slice(0, 40)).toEqual({ count: 2, name: null });
    }
    // Two sessions that both open: the first one sent wins (the browser sends the most specific first).
    expect((await server.client().get('/peek', { headers: { cookie: `${SESSION}=${foreign}; ${SESSION}=${sealed}` } })).json()).toEqual({ count: 1, name: null });
  });

  it('keeps the session behind a nameless cookie or other odd cookies', async () => {
    const client = server.client();
    await client.get('/count');
    const sealed = client.cookies.get(SESSION) ?? '';
    for (const before of ['abc', 'a="unterminated', '=nameless', 'a=b=c', 'theme=a; theme=b', 'q="x"y']) {
      const response = await server.client().get('/peek', { headers: { cookie: `${before}; ${SESSION}=${sealed}; z=1` } });
      expect(response.status).toBe(200);
      expect(response.json(), before).toEqual({ count: 1, name: null });
    }
  });

  it('ends a session after SESSION_LIFETIME without a visit, checked on the server', async () => {
    const client = server.client();
    await client.get('/count');
    const copy = client.cookies.get(SESSION) ?? '';
    clock.advance(50_000);
    expect((await client.get('/count')).json()).toEqual({ count: 2 });
    clock.advance(11_000);
    // 61 s after the copy was made: the copy is dead although its text is intact.
    const replayed = await server.client().get('/peek', { headers: { cookie: `${SESSION}=${copy}` } });
    expect(replayed.status).toBe(200);
    expect(replayed.json()).toEqual({ count: null, name: null });
    // The live client visited 11 s ago: still alive.
    expect((await client.get('/peek')).json()).toEqual({ count: 2, name: null });
    clock.advance(61_000);
    expect((await client.get('/peek')).json()).toEqual({ count: null, name: null });
  });

  it('restarts the inactivity clock on every visit', async () => {
    const client = server.client();
    await client.get('/count');
    clock.advance(50_000);
    expect((await client.get('/count')).json()).toEqual({ count: 2 });
    clock.advance(50_000);
    // 100 s after the first visit, 50 s after the last one.
    expect((await client.get('/count')).json()).toEqual({ count: 3 });
    clock.advance(60_000);
    // Exactly the lifetime after the last visit is still within it.
    expect((await client.get('/peek')).json()).toEqual({ count: 3, name: null });
  });

  it('makes a remember-me cookie last its lifetime, and a normal one until the browser closes', async () => {
    const client = server.client();
    const normal = setCookie(await client.get('/count'), SESSION);
    expect(normal.attributes.has('max-age')).toBe(false);
    expect(normal.attributes.has('expires')).toBe(false);

    const remembered = setCookie(await client.get('/remember'), SESSION);
    expect(remembered.attributes.get('max-age')).toBe(String(60 * 24 * 30 * 60));
    // Later answers keep the lifetime, and the session outlives SESSION_LIFETIME.
    clock.advance(10 * 60_000);
    const later = await client.get('/peek');
    expect(later.json()).toEqual({ count: 1, name: null });
    expect(setCookie(later, SESSION).attributes.get('max-age')).toBe(String(60 * 24 * 30 * 60));
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ and not Secure over http', async () => {
    const cookie = setCookie(await server.client().get('/peek'), SESSION);
    expect(cookie.attributes.has('httponly')).toBe(true);
    expect(cookie.attributes.get('samesite')).toBe('Lax');
    expect(cookie.attributes.get('path')).toBe('/');
    expect(cookie.attributes.has('secure')).toBe(false);
  });

  it('logs a warning when the session cookie grows past about 3.8 KB', async () => {
    const client = server.client();
    await client.get('/count');
    expect(app.logs.some((line) => line.level === 'warn' && line.message.includes('session cookie'))).toBe(false);
    const response = await client.get('/big');
    expect(response.status).toBe(200);
    const warning = app.logs.find((line) => line.level === 'warn' && line.message.includes('session cookie'));
    expect(warning).toBeDefined();
    expect(warning?.fields['bytes']).toBeGreaterThan(3800);
    expect(warning?.fields['requestId']).toBe(response.headers.get('x-request-id'));
  });
});

describe('the session cookie when APP_URL is https', () => {
  it('is Secure', async () => {
    const app = TestApp.create({ environment: { APP_URL: 'https://app.example' }, build: sessionApp });
    const server = await app.serve();
    try {
      const response = await server.client().get('/count');
      const cookie = setCookie(response, SESSION);
      expect(cookie.attributes.has('secure')).toBe(true);
      expect(cookie.attributes.has('httponly')).toBe(true);
      expect(cookie.attributes.get('samesite')).toBe('Lax');
      expect(cookie.attributes.get('path')).toBe('/');
    } finally {
      await server.stop();
    }
  });
});

function sealingKeys(): { encryption: Buffer; integrity: Buffer } {
  const keys = deriveAppKeys(Buffer.from(TEST_APP_KEY.slice('base64:'.length), 'base64'));
  return { encryption: keys.cookieEncryption, integrity: keys.cookieIntegrity };
}
