import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GuardedWebhookTransport } from '../../../adapters/outbound-http/guarded-webhook-transport.js';
import { App } from '../../../composition/app.js';
import { createWelcomeApp } from '../../../composition/default-app.js';
import { TestApp } from '../../../composition/testing.js';
import { TOKENS } from '../../../composition/tokens.js';
import { secretKey, verifyWebhook } from '../../../domain/webhooks/signature.js';
import { useEngines } from '../../support/databases.js';

interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** A webhook receiver on 127.0.0.1: each path answers its own way. */
const received: Received[] = [];
let badAnswers = 400;
let receiver: Server;
let base = '';

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      if (req.url === '/ok') res.writeHead(200).end('thanks');
      else if (req.url === '/down') res.writeHead(503).end('down');
      else if (req.url === '/bad') res.writeHead(badAnswers).end('nope');
      else if (req.url === '/redirect') res.writeHead(302, { location: '/ok' }).end();
      else if (req.url === '/huge') res.writeHead(200).end('x'.repeat(5 * 1024 * 1024));
      else if (req.url === '/slow') setTimeout(() => res.writeHead(200).end(), 5000);
      else res.writeHead(404).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});
afterAll(async () => {
  receiver.closeAllConnections();
  await new Promise((resolve) => receiver.close(resolve));
});

const post = (transport: GuardedWebhookTransport, url: string) => transport.post({ url, headers: { 'content-type': 'application/json', 'x-test': '1' }, body: '{"a":1}' });

describe('GuardedWebhookTransport against a receiver on 127.0.0.1', () => {
  it('posts the body and headers when loopback is allowed (APP_ENV=local)', async () => {
    const before = received.length;
    const result = await post(new GuardedWebhookTransport({ allowLoopback: true }), `${base}/ok`);
    expect(result).toEqual({ kind: 'response', status: 200, responseBody: 'thanks' });
    expect(received[before]).toMatchObject({ path: '/ok', body: '{"a":1}', headers: { 'x-test': '1', 'content-type': 'application/json', 'user-agent': 'fw-webhooks' } });
  });

  it('refuses loopback otherwise, before connecting', async () => {
    const before = received.length;
    for (const url of [`${base}/ok`, `http://[::1]:1/ok`, 'http://127.1.2.3/ok']) {
      const result = await post(new GuardedWebhookTransport(), url);
      expect(result).toMatchObject({ kind: 'refused', message: expect.stringContaining('loopback') as string });
    }
    expect(received.length).toBe(before);
  });

  it('checks every resolved address, and connects to the one it checked (no second lookup to rebind)', async () => {
    const port = new URL(base).port;
    const lookups: string[] = [];
    const rebinding = new GuardedWebhookTransport({
      allowLoopback: true,
      resolve: (hostname) => {
        lookups.push(hostname);
        // A rebinding DNS server: a harmless address first, then the metadata service.
        return Promise.resolve([{ address: lookups.length === 1 ? '127.0.0.1' : '169.254.169.254', family: 4 }]);
      },
    });
    const before = received.length;
    expect(await post(rebinding, `http://hooks.test:${port}/ok`)).toMatchObject({ kind: 'response', status: 200 });
    expect(lookups).toEqual(['hooks.test']);
    expect(received[before]?.headers.host).toBe(`hooks.test:${port}`);

    const mixed = new GuardedWebhookTransport({ resolve: () => Promise.resolve([{ address: '93.184.216.34', family: 4 }, { address: '10.0.0.7', family: 4 }]) });
    expect(await post(mixed, 'https://hooks.test/in')).toMatchObject({ kind: 'refused', message: expect.stringContaining('10.0.0.7 is in 10.0.0.0/8 (private)') as string });
    const failing = new GuardedWebhookTransport({ resolve: () => Promise.reject(new Error('ENOTFOUND hooks.test')) });
    expect(await post(failing, 'https://hooks.test/in')).toMatchObject({ kind: 'network-error', message: expect.stringContaining('DNS lookup of hooks.test failed') as string });
  });

  it('does not follow a redirect: the 302 is the answer', async () => {
    const before = received.length;
    expect(await post(new GuardedWebhookTransport({ allowLoopback: true }), `${base}/redirect`)).toMatchObject({ kind: 'response', status: 302 });
    expect(received.slice(before).map((r) => r.path)).toEqual(['/redirect']);
  });

  it('keeps at most the capped response bytes, and gives up after the timeout', async () => {
    const capped = await post(new GuardedWebhookTransport({ allowLoopback: true, maxResponseBytes: 1000 }), `${base}/huge`);
    expect(capped).toMatchObject({ kind: 'response', status: 200 });
    expect(capped.responseBody).toHaveLength(1000);
    const started = Date.now();
    expect(await post(new GuardedWebhookTransport({ allowLoopback: true, timeoutMs: 300 }), `${base}/slow`)).toEqual({ kind: 'network-error', message: 'timed out after 300 ms' });
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('a closed port is a network error (retried), not a refusal', async () => {
    expect(await post(new GuardedWebhookTransport({ allowLoopback: true }), 'http://127.0.0.1:1/ok')).toMatchObject({ kind: 'network-error' });
  });
});

for (const engine of useEngines()) {
  describe.skipIf(!engine.available)(`webhooks.send on ${engine.name}`, () => {
    let app: TestApp;
    beforeAll(async () => {
      // Queued for real (TestApp's default is sync): the test runs the worker when it chooses.
      app = TestApp.create({ environment: { DATABASE_URL: engine.url(), APP_ENV: 'local', QUEUE_CONNECTION: 'database' }, build: (options) => createWelcomeApp(App.create(options)).outgoingWebhooks() });
      expect((await app.call('migrate')).code).toBe(0);
    });
    afterAll(() => app.close());
    const services = () => app.app.services();

    /** What a worker does: runs the jobs queued on `webhooks` now, then stops. */
    const work = async () => expect((await app.call('queue:work', ['--queue', 'webhooks', '--once'])).code).toBe(0);
    const waitingJobs = async () =>
      (await (await services()).get(TOKENS.jobQueue).counts(new Date(Date.now() + 3600_000))).filter((c) => c.queue === 'webhooks' && c.state !== 'failed').reduce((n, c) => n + c.count, 0);

    it('queues the delivery; a worker sends a signed message the receiver verifies with the endpoint secret', async () => {
      const webhooks = (await services()).get(TOKENS.webhooks);
      const deliveries = (await services()).get(TOKENS.webhookDeliveries);
      const before = received.length;
      const { id } = await webhooks.send(`${base}/ok`, 'invoice.paid', { invoice: 42 });
      expect(await deliveries.find(id)).toMatchObject({ status: 'pending', attempts: 0 });
      expect(received.length).toBe(before);
      expect(await waitingJobs()).toBe(1);
      await work();
      const after = await deliveries.find(id);
      expect(after).toMatchObject({ id, status: 'delivered', attempts: 1, lastStatus: 200, lastResponse: 'thanks' });
      expect(await waitingJobs()).toBe(0);
      const got = received[before];
      expect(JSON.parse(got?.body ?? '')).toEqual({ type: 'invoice.paid', timestamp: expect.any(String) as string, data: { invoice: 42 } });
      const key = secretKey(await webhooks.secretFor(`${base}/ok`));
      const message = { id: String(got?.headers['webhook-id']), timestamp: Number(got?.headers['webhook-timestamp']), body: got?.body ?? '' };
      expect(message.id).toBe(id);
      expect(verifyWebhook(message, String(got?.headers['webhook-signature']), key!, Math.floor(Date.now() / 1000))).toBe(true);
      expect(await webhooks.deliverDue()).toEqual([]);
    });

    it('retries a 503 later with backoff; fails a 400 at once, listed by webhook:failed and sent again by webhook:retry', async () => {
      badAnswers = 400;
      const webhooks = (await services()).get(TOKENS.webhooks);
      const deliveries = (await services()).get(TOKENS.webhookDeliveries);
      const down = await webhooks.send(`${base}/down`, 'invoice.paid', {});
      const bad = await webhooks.send(`${base}/bad`, 'user.deleted', { id: 7 });
      await work();
      const byId = new Map([down.id, bad.id].map((id) => [id, deliveries.find(id)]));
      const retried = await byId.get(down.id);
      expect(retried).toMatchObject({ status: 'pending', attempts: 1, lastStatus: 503, lastError: 'HTTP 503' });
      const wait = (retried?.nextAttemptAt?.getTime() ?? 0) - Date.now();
      expect(wait).toBeGreaterThan(7000);
      expect(wait).toBeLessThanOrEqual(12_000);
      expect(await byId.get(bad.id)).toMatchObject({ status: 'failed', attempts: 1, lastStatus: 400, lastError: 'HTTP 400' });
      // The retry is a job delayed by the webhook's backoff; nothing is due before it.
      expect(await waitingJobs()).toBe(1);
      expect(await webhooks.deliverDue()).toEqual([]);

      const listed = await app.call('webhook:failed');
      expect(listed.stdout).toMatch(new RegExp(`${bad.id}\\s+user\\.deleted\\s+${base}/bad\\s+1\\s+\\S+\\s+HTTP 400`, 'u'));
      expect(listed.stdout).not.toContain(down.id);

      badAnswers = 200;
      expect(await app.call('webhook:retry', [bad.id])).toMatchObject({ code: 0, stdout: `${bad.id} delivered (HTTP 200).` });
      expect((await app.call('webhook:failed')).stdout).toBe('No failed webhook deliveries.');
      expect(await app.call('webhook:retry', [bad.id])).toMatchObject({ code: 1, stderr: expect.stringContaining('is delivered, not failed') as string });
      expect(await app.call('webhook:retry', ['msg_nope'])).toMatchObject({ code: 1, stderr: expect.stringContaining('No webhook delivery has the id "msg_nope"') as string });
    });

    it('refuses a URL that is not http(s)', async () => {
      const webhooks = (await services()).get(TOKENS.webhooks);
      await expect(webhooks.send('file:///etc/passwd', 'x', {})).rejects.toThrow(/Webhook URL refused/u);
    });
  });
}

describe('webhooks outside APP_ENV=local, and without outgoingWebhooks()', () => {
  const [sqlite] = useEngines();
  it('a loopback target fails at once, naming the range; nothing reaches the receiver', async () => {
    // QUEUE_CONNECTION=sync: the attempt runs inside send.
    const app = TestApp.create({
      environment: { DATABASE_URL: sqlite!.url(), APP_ENV: 'production', QUEUE_CONNECTION: 'sync' },
      build: (options) => createWelcomeApp(App.create(options)).outgoingWebhooks(),
    });
    try {
      expect((await app.call('migrate')).code).toBe(0);
      const webhooks = (await app.app.services()).get(TOKENS.webhooks);
      const before = received.length;
      const { id } = await webhooks.send(`${base}/ok`, 'x', {});
      const after = await (await app.app.services()).get(TOKENS.webhookDeliveries).find(id);
      expect(after).toMatchObject({ status: 'failed', lastError: expect.stringContaining('127.0.0.0/8 (loopback)') as string });
      expect(received.length).toBe(before);
    } finally {
      await app.close();
    }
  });

  it('send says how to turn them on', async () => {
    const app = TestApp.create({ build: (options) => createWelcomeApp(App.create(options)) });
    try {
      await expect((await app.app.services()).get(TOKENS.webhooks).send('https://example.com/', 'x', {})).rejects.toThrow(/call app\.outgoingWebhooks\(\)/u);
    } finally {
      await app.close();
    }
  });
});
