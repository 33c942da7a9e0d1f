import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDefaultApp, Routes } from '../../../../composition/index.js';
import { TestApp } from '../../../../composition/testing.js';
import type { TestServer } from '../../../../composition/testing.js';
import { useTempDir } from '../../../support/databases.js';
import { openEventStream } from './sse.js';

const PAGE = (words: string) => `{% extends "fw/layout.html" %}{% block content %}<p id="words">${words}</p>{% endblock %}`;

describe.each(['hapi', 'fetch'])('live reload (/_fw/live) on the %s transport, debugging locally', (transport) => {
  const dir = useTempDir('fw-dev-live-');
  let server: TestServer;
  let root: string;
  beforeAll(async () => {
    root = join(dir(), 'app');
    mkdirSync(join(root, 'resources', 'views'), { recursive: true });
    mkdirSync(join(root, 'public', 'css'), { recursive: true });
    writeFileSync(join(root, 'resources', 'views', 'page.html'), PAGE('first words'));
    writeFileSync(join(root, 'public', 'css', 'app.css'), 'p { color: black; }\n');
    server = await TestApp.create({
      root,
      build: (options) => createDefaultApp(options).module({ name: 'pages', routes: new Routes().view('/page', 'page.html') }),
      environment: { APP_ENV: 'local', APP_DEBUG: 'true', HTTP_TRANSPORT: transport, DATABASE_URL: `sqlite:${join(dir(), 'app.sqlite')}` },
    }).serve();
  });
  afterAll(() => server.stop());

  it('adds the live script to pages with the CSP nonce, and serves it', async () => {
    const page = await server.client().get('/page');
    const nonce = /'nonce-([^']+)'/u.exec(page.headers.get('content-security-policy') ?? '')?.[1];
    expect(nonce).toBeDefined();
    const src = /<script type="module" src="(\/fw\/live\.js\?v=[0-9a-f]{12})" nonce="([^"]+)"><\/script>/u.exec(page.text);
    expect(src?.[2]).toBe(nonce);
    expect(page.text).toMatch(/<meta name="fw-live" content="[0-9a-f-]{36}">/u);
    const script = await server.client().get(src?.[1] ?? '');
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/u);
    expect(script.text).toContain("new EventSource('/_fw/live')");
  });

  it('streams hello, then reload when a template changes; the page shows the new text without a restart', async () => {
    const stream = await openEventStream(`${server.url}/_fw/live`);
    try {
      expect(stream.response.status).toBe(200);
      expect(stream.response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
      expect(stream.response.headers.get('cache-control')).toBe('no-store');
      expect(stream.response.headers.get('content-encoding')).toBeNull();
      await stream.waitFor(/event: hello\ndata: \{"boot":"[0-9a-f-]{36}"\}\n\n/u);
      writeFileSync(join(root, 'resources', 'views', 'page.html'), PAGE('second words'));
      const text = await stream.waitFor(/event: reload\ndata: .*page\.html/u);
      expect(text).toContain('"paths":["views/page.html"]');
      expect((await server.client().get('/page')).text).toContain('<p id="words">second words</p>');
    } finally {
      await stream.close();
    }
  });

  it('sends reload when a public file or stylesheet changes', async () => {
    const stream = await openEventStream(`${server.url}/_fw/live`);
    try {
      await stream.waitFor(/event: hello/u);
      writeFileSync(join(root, 'public', 'css', 'app.css'), 'p { color: rebeccapurple; }\n');
      await stream.waitFor(/event: reload\ndata: \{"paths":\["css\/app\.css"\]\}/u);
    } finally {
      await stream.close();
    }
  });
});

describe('a stopping server with live-reload streams open', () => {
  const dir = useTempDir('fw-dev-stop-');

  it.each(['hapi', 'fetch'])('ends the streams and stops at once on %s (no wait for its 10 s timeout)', async (transport) => {
    const server = await TestApp.create({ root: dir(), environment: { APP_ENV: 'local', APP_DEBUG: 'true', HTTP_TRANSPORT: transport, DATABASE_URL: `sqlite:${join(dir(), `${transport}.sqlite`)}` } }).serve();
    const streams = [await openEventStream(`${server.url}/_fw/live`), await openEventStream(`${server.url}/_fw/live`)];
    for (const stream of streams) await stream.waitFor(/event: hello/u);
    const started = performance.now();
    await server.stop();
    const took = performance.now() - started;
    await Promise.all(streams.map((stream) => stream.ended));
    expect(took).toBeLessThan(2000);
  });
});
