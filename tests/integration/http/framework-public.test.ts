import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FRAMEWORK_ROOT } from '../../../composition/app.js';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { useTempDir } from '../../support/databases.js';

const FRAMEWORK_CSS = readFileSync(join(FRAMEWORK_ROOT, 'public', 'fw', 'fw.css'), 'utf8');
const APP_CSS = 'body { color: rebeccapurple; }\n';
const hashOf = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 12);

/** The stylesheet URL the built-in layout links, read from the welcome page. */
async function stylesheetOf(server: TestServer): Promise<string> {
  const page = (await server.client().get('/')).text;
  const href = /<link rel="stylesheet" href="([^"]+)">/u.exec(page)?.[1];
  if (href === undefined) throw new Error('The page links no stylesheet');
  return href;
}

describe("the framework's public folder, after the app's", () => {
  const dir = useTempDir('fw-framework-public-');

  describe('an app without its own stylesheet', () => {
    let server: TestServer;
    beforeAll(async () => {
      // The app has a public/ folder, just not this file: the framework's still answers.
      mkdirSync(join(dir(), 'plain', 'public', 'css'), { recursive: true });
      writeFileSync(join(dir(), 'plain', 'public', 'css', 'app.css'), APP_CSS);
      server = await TestApp.create({ root: join(dir(), 'plain'), environment: { DATABASE_URL: `sqlite:${join(dir(), 'plain.sqlite')}` } }).serve();
    });
    afterAll(() => server.stop());

    it("links fw/fw.css through asset() and serves it for a year under ?v=", async () => {
      const href = await stylesheetOf(server);
      expect(href).toBe(`/fw/fw.css?v=${hashOf(FRAMEWORK_CSS)}`);
      const response = await server.client().get(href);
      expect(response.status).toBe(200);
      expect(response.text).toBe(FRAMEWORK_CSS);
      expect(response.headers.get('content-type')).toMatch(/^text\/css/u);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
      expect(response.headers.getSetCookie()).toEqual([]);
    });

    it('serves the plain URL revalidating, and the app’s own files beside it', async () => {
      const plain = await server.client().get('/fw/fw.css');
      expect(plain.status).toBe(200);
      expect(plain.headers.get('cache-control')).toBe('public, max-age=0, must-revalidate');
      expect((await server.client().get('/css/app.css')).text).toBe(APP_CSS);
    });

    it("serves nothing else of the framework's folder", async () => {
      for (const path of ['/package.json', '/fw/../package.json', '/fw/%2e%2e/package.json', '/fw/%2e%2e/%2e%2e/package.json', '/%2e%2e/templates/fw/layout.html']) {
        const response = await server.client().get(path);
        expect(response.status, path).toBe(404);
        expect(response.text, path).not.toContain('"devDependencies"');
      }
    });
  });

  describe('an app with its own public/fw/fw.css', () => {
    let server: TestServer;
    beforeAll(async () => {
      mkdirSync(join(dir(), 'own', 'public', 'fw'), { recursive: true });
      writeFileSync(join(dir(), 'own', 'public', 'fw', 'fw.css'), APP_CSS);
      server = await TestApp.create({ root: join(dir(), 'own'), environment: { DATABASE_URL: `sqlite:${join(dir(), 'own.sqlite')}` } }).serve();
    });
    afterAll(() => server.stop());

    it("links and serves the app's file instead", async () => {
      const href = await stylesheetOf(server);
      expect(href).toBe(`/fw/fw.css?v=${hashOf(APP_CSS)}`);
      const response = await server.client().get(href);
      expect(response.text).toBe(APP_CSS);
      expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    });
  });
});
