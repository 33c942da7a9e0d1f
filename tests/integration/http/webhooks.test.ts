import { createHmac } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Routes, hmacSha256Webhook, json } from '../../../composition/index.js';
import { createDefaultApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-webhooks-');
const SECRET = 'whsec-test-secret';

const sign = (body: string | Buffer): string => `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`;
const signed = (body: string, type = 'application/json') => ({
  body,
  csrf: false,
  headers: { 'content-type': type, 'x-hub-signature-256': sign(body) },
});

function webhookApp(file: string) {
  return TestApp.create({
    environment: { DATABASE_URL: `sqlite:${dir()}/${file}.sqlite`, UPLOAD_MAX_SIZE: '4KB' },
    build: (options) =>
      createDefaultApp(options)
        .webhook('github', hmacSha256Webhook({ header: 'X-Hub-Signature-256', prefix: 'sha256=', secret: SECRET }))
        .module({
          name: 'hooks',
          routes: new Routes()
            .webhook('/webhooks/github', 'github', (ctx) => json({ body: ctx.body(), bytes: ctx.rawBody()?.length ?? null }))
            .name('webhooks.github')
            .webhook('/hooks/{provider}', 'github', (ctx) => json({ provider: ctx.params.string('provider'), body: ctx.body() }))
            // Shares hapi's raw-body path with the webhook above: still an ordinary form route.
            .post('/hooks/settings', (ctx) => json({ body: ctx.body(), raw: ctx.rawBody() }))
            .post('/plain', (ctx) => json({ body: ctx.body(), raw: ctx.rawBody() })),
        }),
  });
}

describe('Routes.webhook', () => {
  let server: TestServer;

  beforeAll(async () => {
    server = await webhookApp('app').serve();
  });
  afterAll(() => server.stop());

  it('lets a correctly signed POST through without a CSRF token, and the handler sees the parsed body', async () => {
    const payload = JSON.stringify({ action: 'opened', number: 7 });
    const answer = await server.client().post('/webhooks/github', signed(payload));
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ body: { action: 'opened', number: 7 }, bytes: Buffer.byteLength(payload) });
    // Its caller keeps no cookies: no session is started for it.
    expect(answer.headers.getSetCookie()).toEqual([]);
  });

  it('parses a signed form, and matches parameters', async () => {
    const answer = await server.client().post('/hooks/gitlab', signed('a=1&b=two&b=three', 'application/x-www-form-urlencoded'));
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ provider: 'gitlab', body: { a: '1', b: ['two', 'three'] } });
  });

  it('refuses a missing, wrong or malformed signature with 403', async () => {
    const body = JSON.stringify({ action: 'opened' });
    const client = server.client();
    const missing = await client.post('/webhooks/github', { body, csrf: false, headers: { 'content-type': 'application/json' } });
    expect(missing.status).toBe(403);
    expect(missing.json()).toEqual({ message: 'The webhook signature is invalid.' });
    for (const signature of [sign('other'), sign(body).replace('sha256=', 'sha1='), sign(body).slice(0, -1), `${sign(body)}0`, sign(body).toUpperCase(), '']) {
      const answer = await client.post('/webhooks/github', { body, csrf: false, headers: { 'content-type': 'application/json', 'x-hub-signature-256': signature } });
      expect(answer.status, signature).toBe(403);
    }
  });

  it('refuses an altered body with 403', async () => {
    const original = JSON.stringify({ amount: 10 });
    const request = signed(original);
    const answer = await server.client().post('/webhooks/github', { ...request, body: JSON.stringify({ amount: 1000 }) });
    expect(answer.status).toBe(403);
    // Even a change that parses to the same value: the bytes are what was signed.
    const spaced = await server.client().post('/webhooks/github', { ...request, body: JSON.stringify({ amount: 10 }, null, 1) });
    expect(spaced.status).toBe(403);
  });

  it('checks the signature before reading the body: a signed bad JSON body is 400 only when the handler reads it', async () => {
    expect((await server.client().post('/webhooks/github', { body: '{oops', csrf: false, headers: { 'content-type': 'application/json' } })).status).toBe(403);
    expect((await server.client().post('/webhooks/github', signed('{oops'))).status).toBe(400);
    expect((await server.client().post('/webhooks/github', signed('{"__proto__": {"admin": true}}'))).status).toBe(400);
  });

  it('refuses a signed body nested deeper than BODY_MAX_DEPTH with 400 when the handler reads it', async () => {
    const deep = `${'['.repeat(500)}1${']'.repeat(500)}`;
    const answer = await server.client().post('/webhooks/github', signed(deep));
    expect(answer.status).toBe(400);
    expect(answer.text).toContain('The request body is nested too deeply.');
    expect((await server.client().post('/webhooks/github', signed(`${'['.repeat(32)}1${']'.repeat(32)}`))).status).toBe(200);
  });

  it('checks a gzipped body against its uncompressed bytes, as senders sign it', async () => {
    const payload = JSON.stringify({ zipped: true });
    const answer = await server.client().post('/webhooks/github', {
      body: gzipSync(payload),
      csrf: false,
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip', 'x-hub-signature-256': sign(payload) },
    });
    expect(answer.status).toBe(200);
    expect(answer.json()).toEqual({ body: { zipped: true }, bytes: Buffer.byteLength(payload) });
  });

  it('applies UPLOAD_MAX_SIZE to webhook bodies', async () => {
    const big = JSON.stringify({ blob: 'x'.repeat(5000) });
    expect((await server.client().post('/webhooks/github', signed(big))).status).toBe(413);
  });

  it('leaves other routes as they were: CSRF needed, body parsed, no raw body', async () => {
    const client = server.client();
    expect((await client.post('/plain', { form: { a: '1' }, csrf: false })).status).toBe(419);
    expect((await client.post('/plain', { form: { a: '1' } })).json()).toEqual({ body: { a: '1' }, raw: null });
    // A form route on a path hapi sends through the raw-body route is parsed all the same.
    expect((await client.post('/hooks/settings', { form: { a: '1' }, csrf: false })).status).toBe(419);
    const settings = await client.post('/hooks/settings', { form: { a: '1' } });
    expect(settings.status).toBe(200);
    expect(settings.json<{ body: unknown }>().body).toEqual({ a: '1' });
  });

  it('answers 405 to other methods on a webhook path', async () => {
    const answer = await server.client().get('/webhooks/github');
    expect(answer.status).toBe(405);
    expect(answer.headers.get('allow')).toBe('POST');
  });
});

describe('webhooks at start-up and in route:list', () => {
  it('lists a webhook route with its check as the guard', async () => {
    const app = webhookApp('list');
    const listed = await app.call('route:list', ['--json']);
    const rows = JSON.parse(listed.stdout) as Array<{ method: string; path: string; guards: string }>;
    expect(rows.find((row) => row.path === '/webhooks/github')).toMatchObject({ method: 'POST', guards: 'webhook:github' });
    await app.close();
  });

  it('refuses to start when the app registers no App.webhook for a webhook route, naming the route', async () => {
    const app = TestApp.create({
      environment: { DATABASE_URL: `sqlite:${dir()}/unknown.sqlite` },
      build: (options) => createDefaultApp(options).module({ name: 'x', routes: new Routes().webhook('/webhooks/stripe', 'stripe', () => json({})).name('webhooks.stripe') }),
    });
    await expect(app.serve()).rejects.toThrow("The route POST /webhooks/stripe ('webhooks.stripe', module x) is a webhook 'stripe', but the app registers no App.webhook('stripe', …)");
    await app.close();
  });
});
