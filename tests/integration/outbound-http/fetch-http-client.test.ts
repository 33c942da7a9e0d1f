import { createServer } from 'node:http';
import type { IncomingHttpHeaders, Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchHttpClient } from '../../../adapters/outbound-http/fetch-http-client.js';

/** A loopback server: /echo answers the request's headers and body, /redirect redirects, /hang never answers. */
let server: Server;
let base: string;

beforeAll(async () => {
  server = createServer((request, response) => {
    if (request.url === '/redirect') {
      response.writeHead(302, { location: '/echo' }).end();
    } else if (request.url === '/echo') {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString()));
      request.on('end', () => response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ method: request.method, headers: request.headers, body })));
    }
    // /hang: no answer.
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

interface Echo {
  method: string;
  headers: IncomingHttpHeaders;
  body: string;
}

describe('FetchHttpClient', () => {
  it("sends 'User-Agent: fw' unless the caller set one", async () => {
    const http = new FetchHttpClient();
    const plain = (await (await http.fetch(`${base}/echo`)).json()) as Echo;
    const own = (await (await http.fetch(`${base}/echo`, { headers: { 'User-Agent': 'mine' } })).json()) as Echo;
    expect([plain.headers['user-agent'], own.headers['user-agent']]).toEqual(['fw', 'mine']);
  });

  it('sends the method and a form body', async () => {
    const echo = (await (await new FetchHttpClient().fetch(`${base}/echo`, { method: 'POST', body: new URLSearchParams({ code: 'c' }) })).json()) as Echo;
    expect([echo.method, echo.body, echo.headers['content-type']]).toEqual(['POST', 'code=c', 'application/x-www-form-urlencoded;charset=UTF-8']);
  });

  it('does not follow a redirect unless asked', async () => {
    const http = new FetchHttpClient();
    const manual = await http.fetch(`${base}/redirect`);
    expect([manual.status, manual.headers.get('location')]).toEqual([302, '/echo']);
    expect((await http.fetch(`${base}/redirect`, { redirect: 'follow' })).status).toBe(200);
  });

  it('gives up on a server that does not answer within the timeout', async () => {
    const started = Date.now();
    await expect(new FetchHttpClient({ timeoutMs: 150 }).fetch(`${base}/hang`)).rejects.toMatchObject({ name: 'TimeoutError' });
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("stops when the caller's signal aborts, before the timeout", async () => {
    const controller = new AbortController();
    const pending = new FetchHttpClient({ timeoutMs: 10_000 }).fetch(`${base}/hang`, { signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('refuses a timeout that is not a positive whole number of milliseconds', () => {
    expect(() => new FetchHttpClient({ timeoutMs: 0 })).toThrow(TypeError);
  });
});
