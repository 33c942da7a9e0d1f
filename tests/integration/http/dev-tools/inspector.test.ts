import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { useTempDir } from '../../../support/databases.js';
import { BOUND_EMAIL, SECRET_API_TOKEN, SECRET_PASSWORD, SECRET_RECOVERY_CODE, SECRET_RESET_TOKEN, SECRET_VERIFIER, devToolsApp } from './dev-app.js';

const LOCAL_DEBUG = { APP_ENV: 'local', APP_DEBUG: 'true' };

/** The inspector's own part of a page (the layout around it carries the page's CSRF token). */
function inspectorPart(html: string): string {
  const start = html.indexOf('<div class="fw-debug">');
  expect(start, 'the inspector page').toBeGreaterThan(-1);
  return html.slice(start, html.indexOf('</main>'));
}

describe('the request inspector (/_fw/debug), debugging locally', () => {
  const dir = useTempDir('fw-dev-inspector-');
  let server: TestServer;
  beforeAll(async () => {
    server = await TestApp.create({ root: dir(), build: devToolsApp, environment: { ...LOCAL_DEBUG, DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}` } }).serve();
  });
  afterAll(() => server.stop());

  it('shows a request with its status, route, SQL, log line, mail, event and session changes', async () => {
    const client = server.client();
    const probe = await client.get('/probe');
    expect(probe.status).toBe(200);
    const id = probe.headers.get('x-request-id') ?? '';
    expect(id).not.toBe('');

    const list = await client.get('/_fw/debug');
    expect(list.status).toBe(200);
    const rows = inspectorPart(list.text);
    expect(rows).toContain(`href="/_fw/debug/${id}"`);
    expect(rows).toMatch(/GET<\/span> \/probe/u);

    const detail = await client.get(`/_fw/debug/${id}`);
    expect(detail.status).toBe(200);
    const page = inspectorPart(detail.text);
    expect(page).toContain('<dt>Status</dt><dd>200</dd>');
    expect(page).toContain('<dt>Route</dt><dd>probe</dd>');
    // The statement with its placeholder and duration; the value bound to it stays out.
    expect(page).toMatch(/<tr><td>[\d.]+<\/td><td><code class="fw-debug-code">SELECT [^<]* FROM users WHERE email = \? LIMIT 1<\/code><\/td><td>1 \(hidden\)<\/td><\/tr>/u);
    expect(page).not.toContain(BOUND_EMAIL);
    expect(page).toContain('probe ran');
    expect(page).toContain('visible note');
    expect(page).toContain('To ada@example.com: Probe mail');
    expect(page).toContain('<td>ProbeFired</td>');
    expect(page).toContain('probe reason');
    expect(page).toMatch(/<td>added<\/td><td><code>cart_items<\/code><\/td><td><code class="fw-debug-code">3<\/code><\/td>/u);
    expect(page).toMatch(/<td>added<\/td><td><code>api_token<\/code><\/td><td><code class="fw-debug-code">&quot;\[redacted\]&quot;<\/code><\/td>/u);
    // Secrets: the logged password and session token, the event's password, the session's API token.
    const token = /<meta name="csrf-token" content="([^"]+)">/u.exec(detail.text)?.[1] ?? client.csrfToken ?? '';
    expect(token).not.toBe('');
    for (const secret of [SECRET_PASSWORD, SECRET_API_TOKEN, token]) expect(page).not.toContain(secret);
    expect(page).toContain('[redacted]');
  });

  it('keeps a submitted password and the session cookie out of every page', async () => {
    const client = server.client();
    await client.get('/ping');
    const sent = await client.post('/sign-up', { form: { email: 'grace@example.com', password: SECRET_PASSWORD, password_confirmation: SECRET_PASSWORD } });
    expect(sent.status).toBe(200);
    const id = sent.headers.get('x-request-id') ?? '';
    const page = inspectorPart((await client.get(`/_fw/debug/${id}`)).text);
    expect(page).toContain('signing up');
    expect(page).toContain('grace@example.com');
    expect(page).not.toContain(SECRET_PASSWORD);
    const cookie = [...client.cookies.values()].join(';');
    expect(cookie).not.toBe('');
    expect(page).not.toContain(cookie.slice(0, 40));
  });

  it('hides a secret path parameter, two-factor recovery codes and a pending sign-in\'s PKCE values', async () => {
    const client = server.client();
    const reset = await client.get(`/reset/${SECRET_RESET_TOKEN}`);
    expect(reset.status).toBe(200);
    const id = reset.headers.get('x-request-id') ?? '';
    const list = inspectorPart((await client.get('/_fw/debug')).text);
    const page = inspectorPart((await client.get(`/_fw/debug/${id}`)).text);
    for (const shown of [list, page]) {
      expect(shown).toContain('/reset/[redacted]');
      for (const secret of [SECRET_RESET_TOKEN, SECRET_RECOVERY_CODE, SECRET_VERIFIER, 'state-never-shown', 'nonce-never-shown']) expect(shown).not.toContain(secret);
    }
  });

  it('answers only for a loopback name or APP_URL\'s host, so a rebound foreign name cannot read it', async () => {
    const client = server.client();
    await client.get('/ping');
    for (const host of ['attacker.example', 'attacker.example:3000', '10.0.0.5']) {
      const refused = await client.get('/_fw/debug', { headers: { host } });
      expect(refused.status, host).toBe(403);
      expect(refused.text).not.toContain('/ping');
    }
    for (const host of ['localhost:3000', '127.0.0.1', 'app.localhost']) expect((await client.get('/_fw/debug', { headers: { host } })).status, host).toBe(200);
  });

  it('skips /_fw/* addresses', async () => {
    const client = server.client();
    await client.get('/_fw/debug');
    await client.get('/_fw/debug/does-not-exist');
    await client.get('/_fw/ui');
    const rows = inspectorPart((await client.get('/_fw/debug')).text);
    expect(rows).not.toMatch(/<\/span> \/_fw/u);
  });

  it('answers 404 for a request it no longer keeps', async () => {
    expect((await server.client().get('/_fw/debug/01JUNKJUNKJUNKJUNKJUNKJUNK')).status).toBe(404);
  });

  it('keeps the last 100 requests only, newest first', async () => {
    const client = server.client();
    const ids: string[] = [];
    for (let index = 0; index < 105; index++) ids.push((await client.get(`/ping?n=${index}`)).headers.get('x-request-id') ?? '');
    const rows = inspectorPart((await client.get('/_fw/debug')).text);
    const listed = [...rows.matchAll(/href="\/_fw\/debug\/([^"]+)"/gu)].map((match) => match[1]);
    expect(listed).toHaveLength(100);
    expect(listed).toEqual(ids.slice(5).reverse());
    expect((await client.get(`/_fw/debug/${ids[0] ?? ''}`)).status).toBe(404);
  });
});

describe.each([
  ['APP_DEBUG off', { APP_ENV: 'local', APP_DEBUG: 'false' }],
  ['APP_ENV=production', { APP_ENV: 'production', APP_DEBUG: 'true' }],
])('with %s', (_name, environment) => {
  const dir = useTempDir('fw-dev-off-');
  let server: TestServer;
  beforeAll(async () => {
    server = await TestApp.create({ root: dir(), build: devToolsApp, environment: { ...environment, DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}` } }).serve();
  });
  afterAll(() => server.stop());

  it('answers 404 for /_fw/debug, /_fw/live and the live script tag is absent', async () => {
    const client = server.client();
    await client.get('/probe');
    for (const path of ['/_fw/debug', '/_fw/debug/anything', '/_fw/live']) expect((await client.get(path)).status, path).toBe(404);
    const home = await client.get('/');
    expect(home.text).not.toContain('fw/live.js');
    expect(home.text).not.toContain('name="fw-live"');
  });
});
