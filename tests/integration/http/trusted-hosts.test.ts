import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-hosts-');

/** A request without a Host header, which HTTP/1.0 allows and fetch cannot send. */
function withoutHost(port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write('GET / HTTP/1.0\r\n\r\n'));
    let received = '';
    socket.on('data', (chunk: Buffer) => (received += chunk.toString()));
    socket.on('end', () => resolve(received));
    socket.on('error', reject);
  });
}

describe('TRUSTED_HOSTS', () => {
  let server: TestServer;

  beforeAll(async () => {
    const app = TestApp.create({
      environment: {
        DATABASE_URL: `sqlite:${dir()}/db.sqlite`,
        APP_URL: 'http://app.example:3000',
        TRUSTED_HOSTS: 'example.com, *.tenants.test',
      },
    });
    server = await app.serve();
  });
  afterAll(() => server.stop());

  it.each([
    ['example.com', 200],
    ['EXAMPLE.com:8080', 200],
    ['example.com.', 200],
    ['a.tenants.test', 200],
    ['deep.a.tenants.test', 200],
    ['app.example:3000', 200],
    ['tenants.test', 400],
    ['evil.test', 400],
    ['example.com.evil.test', 400],
    ['127.0.0.1', 400],
  ])('Host %s gets %i', async (host, status) => {
    expect((await server.client().get('/', { headers: { host } })).status).toBe(status);
  });

  it('refuses with a page that has the security headers and the request id, or JSON for API clients', async () => {
    const page = await server.client().get('/', { headers: { host: 'evil.test' } });
    expect(page.text).toContain('This site is not served under that host name.');
    expect(page.headers.get('x-content-type-options')).toBe('nosniff');
    expect(page.text).toContain(page.headers.get('x-request-id') ?? 'missing');
    const api = await server.client().get('/', { headers: { host: 'evil.test', accept: 'application/json' } });
    expect(api.json()).toEqual({ message: 'This site is not served under that host name.' });
  });

  it('answers /health whatever the Host', async () => {
    expect((await server.client().get('/health', { headers: { host: 'evil.test' } })).status).toBe(200);
  });

  it('refuses a request without a Host header', async () => {
    const port = Number(new URL(server.url).port);
    expect(await withoutHost(port)).toMatch(/^HTTP\/1\.[01] 400 /u);
  });
});

describe('without TRUSTED_HOSTS', () => {
  it('answers any Host', async () => {
    const server = await TestApp.create({ environment: { DATABASE_URL: `sqlite:${dir()}/any.sqlite` } }).serve();
    try {
      expect((await server.client().get('/', { headers: { host: 'anything.test' } })).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
