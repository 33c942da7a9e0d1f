import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MARKER_RECHECK_MS } from '../../../adapters/maintenance/marker-file-switch.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-maintenance-');

describe('maintenance mode (fwx down / up)', () => {
  let server: TestServer;
  let shell: TestApp;
  let root = '';
  const environment = () => ({ DATABASE_URL: `sqlite:${join(root, 'db.sqlite')}`, APP_KEY: `base64:${Buffer.alloc(32, 9).toString('base64')}` });

  beforeAll(async () => {
    root = dir();
    mkdirSync(join(root, 'public', 'css'), { recursive: true });
    writeFileSync(join(root, 'public', 'css', 'app.css'), 'body{}');
    mkdirSync(join(root, 'resources', 'views', 'errors'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'errors', '503.html'), '<h1>Back soon ({{ status }})</h1>');
    server = await TestApp.create({ root, environment: environment() }).serve();
    // Another instance on the same folder, as `fwx down` in another shell would be.
    shell = TestApp.create({ root, environment: environment() });
  });
  afterAll(async () => {
    await shell.close();
    await server.stop();
  });

  it('answers 503 with Retry-After and the app page while down, for every process on the folder', async () => {
    const down = await shell.call('down', ['--secret', 'let-me-in', '--retry', '120']);
    expect(down.code).toBe(0);
    expect(down.stdout).toContain('/let-me-in');
    expect(existsSync(join(root, 'storage', 'framework', 'down'))).toBe(true);

    const page = await server.client().get('/');
    expect(page.status).toBe(503);
    expect(page.headers.get('retry-after')).toBe('120');
    expect(page.text).toBe('<h1>Back soon (503)</h1>');
    const api = await server.client().get('/', { headers: { accept: 'application/json' } });
    expect(api.json()).toEqual({ message: 'Service Unavailable' });
    expect((await server.client().get('/no-such-page')).status).toBe(503);
  });

  it('keeps /health and public files answering', async () => {
    expect((await server.client().get('/health')).status).toBe(200);
    expect((await server.client().get('/css/app.css')).text).toBe('body{}');
  });

  it('lets in the browser that visits /<SECRET>, and nobody with a forged cookie', async () => {
    const browser = server.client();
    const visit = await browser.get('/let-me-in');
    expect(visit.status).toBe(303);
    expect(visit.location).toBe('/');
    expect(browser.cookies.get('fw_maintenance')).toMatch(/^\d+\.[0-9a-f]{64}$/u);
    expect((await browser.get('/')).status).toBe(200);

    const forger = server.client();
    const genuine = browser.cookies.get('fw_maintenance') ?? '';
    // Change the last hex digit, whatever it is.
    forger.cookies.set('fw_maintenance', `${genuine.slice(0, -1)}${genuine.endsWith('0') ? '1' : '0'}`);
    expect((await forger.get('/')).status).toBe(503);
    expect((await server.client().get('/let-me-i')).status).toBe(503);
  });

  it('stays down on a damaged marker, and the old secret no longer opens it', async () => {
    writeFileSync(join(root, 'storage', 'framework', 'down'), '{"secret": "let-me-in", "retry');
    // Written behind fw's back (as another process would): servers look at the marker at most
    // every MARKER_RECHECK_MS, so the change counts from then on.
    await new Promise((resolve) => setTimeout(resolve, MARKER_RECHECK_MS + 50));
    const browser = server.client();
    expect((await browser.get('/let-me-in')).status).toBe(503);
    expect((await browser.get('/')).status).toBe(503);
  });

  it('comes up with fwx up, and says so when it was not down', async () => {
    expect((await shell.call('up')).stdout).toBe('The app is up.');
    expect((await server.client().get('/')).status).toBe(200);
    expect((await shell.call('up')).stdout).toBe('The app was not down.');
  });

  it('refuses a secret that cannot be one path segment', async () => {
    const refused = await shell.call('down', ['--secret', 'a/b']);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/^Error: --secret must be 1 to 200 of/u);
    expect(existsSync(join(root, 'storage', 'framework', 'down'))).toBe(false);
  });
});
