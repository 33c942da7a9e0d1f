/**
 * The kitchen sink `/_fw/ui`: served only with APP_DEBUG on and APP_ENV=local; the theme and
 * scheme switches; the sections included; old()/error() answering the filled_/invalid_ names.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApp } from '../../../composition/testing.js';
import type { TestServer } from '../../../composition/testing.js';
import { sampleValue } from '../../../adapters/http/dev/ui-sink-routes.js';
import { useTempDir } from '../../support/databases.js';

const dir = useTempDir('fw-ui-sink-');

async function serve(environment: Record<string, string>, root?: string): Promise<TestServer> {
  return TestApp.create({ environment, ...(root === undefined ? {} : { root }) }).serve();
}

describe('/_fw/ui is closed outside local debugging', () => {
  it.each([
    ['APP_DEBUG off, APP_ENV=local', { APP_DEBUG: 'false', APP_ENV: 'local' }],
    ['APP_DEBUG on, APP_ENV=production', { APP_DEBUG: 'true', APP_ENV: 'production' }],
    ['APP_DEBUG on, APP_ENV=testing', { APP_DEBUG: 'true', APP_ENV: 'testing' }],
  ])('answers 404 with %s', async (_name, environment) => {
    const server = await serve(environment);
    try {
      const response = await server.client().get('/_fw/ui');
      expect(response.status).toBe(404);
      expect(response.text).not.toContain('fw-sink');
    } finally {
      await server.stop();
    }
  });
});

describe('/_fw/ui with APP_DEBUG on and APP_ENV=local', () => {
  let server: TestServer;
  beforeAll(async () => {
    // An app section replaces the fields section, to read what old() and error() answer there.
    mkdirSync(join(dir(), 'resources', 'views', 'fw', 'dev', 'ui'), { recursive: true });
    writeFileSync(
      join(dir(), 'resources', 'views', 'fw', 'dev', 'ui', 'fields.html'),
      'FIELDS own=[{{ old("filled_x", "given") }}] old=[{{ old("filled_email") }}] tags=[{{ old("filled_tags") | join(",") }}] plain=[{{ old("plain", "none") }}] error=[{{ error("invalid_name") }}] fine=[{{ error("name") }}]',
    );
    server = await serve({ APP_DEBUG: 'true', APP_ENV: 'local' }, dir());
  });
  afterAll(() => server.stop());

  it('shows the page in the layout, with every area section that exists and the globals section', async () => {
    const response = await server.client().get('/_fw/ui');
    expect(response.status, response.text.replace(/\s+/gu, " ").slice(0, 1500)).toBe(200);
    const page = response.text;
    expect(page).toContain('<body class="fw-page">');
    for (const area of ["frame", "fields", "controls", "actions", "details", "globals"]) expect(page).toContain(`id="fw-sink-${area}"`);
    expect(page).toContain(`id="ui-globals-title"`);
    expect(page).toContain('FIELDS ');
    // The globals section: seo() escaped as code, stacks filled in the head and at the end, once().
    expect(page).toContain('&lt;meta property=&quot;og:image&quot; content=&quot;http://localhost');
    expect(/<head>[\s\S]*<meta name="fw-sink-stack" content="pushed from the globals section">[\s\S]*<\/head>/u.test(page)).toBe(true);
    expect(page).toContain('id="fw-sink-stacked"');
    expect(page.match(/Shown once, in a loop of three\./gu)).toHaveLength(1);
    expect(page).not.toContain('alert(');
    expect(page).not.toContain('onclick');
  });

  it('answers old() with a sample for filled_ names and error() with the message for invalid_ names; others as usual', async () => {
    const page = (await server.client().get('/_fw/ui')).text;
    expect(page).toContain('own=[given] old=[ada@example.com] tags=[tea,cups] plain=[none] error=[This field is required.] fine=[]');
  });

  it.each([
    ['', null, null],
    ['?theme=warm', 'warm', null],
    ['?theme=classic&scheme=dark', 'classic', 'dark'],
    ['?theme=editorial&scheme=light', null, 'light'],
    ['?theme=%22%3E&scheme=evil', null, null],
  ])('switches the theme and scheme on the html element: %s', async (query, theme, scheme) => {
    const page = (await server.client().get(`/_fw/ui${query}`)).text;
    const html = /<html[^>]*>/u.exec(page)?.[0] ?? '';
    expect(html.includes('data-fw-theme'), html).toBe(theme !== null);
    if (theme !== null) expect(html).toContain(`data-fw-theme="${theme}"`);
    expect(html.includes('data-fw-scheme'), html).toBe(scheme !== null);
    if (scheme !== null) expect(html).toContain(`data-fw-scheme="${scheme}"`);
  });

  it('links each theme and scheme, marking the current one', async () => {
    const page = (await server.client().get('/_fw/ui?theme=warm')).text;
    expect(page).toContain('<a href="/_fw/ui?theme=warm" aria-current="true">Warm</a>');
    expect(page).toContain('<a href="/_fw/ui?theme=classic">Classic</a>');
    expect(page).toContain('<a href="/_fw/ui?theme=warm&amp;scheme=dark">Dark</a>');
  });
});

describe('sampleValue', () => {
  it.each([
    ['filled_email', 'ada@example.com'],
    ['filled_start_date', '2026-03-14'],
    ['filled_tags', ['tea', 'cups']],
    ['filled_agree_checkbox', '1'],
    ['filled_name', 'Sample text'],
    ['filled_items[0][qty]', '42'],
  ])('%s', (name, value) => {
    expect(sampleValue(name)).toEqual(value);
  });
});
