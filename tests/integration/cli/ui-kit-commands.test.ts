/**
 * `fwx ui:publish [--force]` and `fwx make:component <name> [--ui]` in a temporary app: the files
 * they write, and those files rendered by the app's kernel (where old(), error(), t(), can(),
 * auth and csrf_field() are real).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createDefaultApp } from '../../../composition/default-app.js';
import { Redirect, Routes, View } from '../../../composition/index.js';
import { TestApp } from '../../../composition/testing.js';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { publishedKit } from '../../../adapters/cli/generators/ui-kit-sources.js';
import { useTempDir } from '../../support/databases.js';
import { testLogin } from '../../support/flows.js';

const dir = useTempDir('fw-ui-kit-cmd-');

function appIn(root: string): TestApp {
  mkdirSync(join(root, 'resources', 'views'), { recursive: true });
  writeFileSync(
    join(root, 'resources', 'views', 'note-page.html'),
    '{% from "components/order-note.html" import order_note %}{{ order_note(action="/notes", name="note", label="Note", ability="add-note") }}',
  );
  writeFileSync(join(root, 'resources', 'views', 'kit-page.html'), '{% import "components/ui.html" as kit %}KIT[{{ kit | length if kit is mapping else "" }}]');
  return TestApp.create({
    root,
    environment: { APP_ENV: 'local', APP_DEBUG: 'true' },
    build: (options) =>
      createDefaultApp(options)
        .module({
          name: 'components-test',
          routes: new Routes()
            .get('/notes', () => View.make('note-page.html'))
            .post('/notes', (ctx) => {
              ctx.session.flashInput({ note: 'too short' });
              ctx.session.flashErrors({ note: ['The note must be at least 20 characters.'] });
              return Redirect.to('/notes');
            })
            .get('/kit', () => View.make('kit-page.html'))
            .post('/test-login/{id}', testLogin),
        })
        .gate('add-note', (user) => user.email === 'ada@example.com'),
  });
}

describe('ui:publish', () => {
  it('writes the kit as one file without the areas\' imports of each other, and refuses to overwrite it without --force', async () => {
    const root = join(dir(), 'publish');
    const app = appIn(root);
    const first = await app.call('ui:publish');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain('Created resources/views/components/ui.html');
    const kit = join(root, 'resources', 'views', 'components', 'ui.html');
    const text = readFileSync(kit, 'utf8');
    expect(text).toMatch(/^\{#- The fw UI kit /u);
    expect(text).not.toMatch(/\{%-?\s*from\s+["']fw\/ui\//u);
    for (const area of ['frame', 'fields', 'controls', 'details', 'actions']) {
      expect(text).toContain(`{#- ===== ${area} ===== -#}`);
      // Every macro of each area file is in the published kit.
      const source = readFileSync(join(FRAMEWORK_TEMPLATES, 'fw', 'ui', `${area}.html`), 'utf8');
      for (const match of source.matchAll(/\{%-?\s*macro\s+(\w+)/gu)) expect(text).toContain(`macro ${match[1] ?? ''}`);
    }

    writeFileSync(kit, '{# my changes #}');
    const again = await app.call('ui:publish');
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain('resources/views/components/ui.html exists already');
    expect(again.stderr).toContain('--force');
    expect(readFileSync(kit, 'utf8')).toBe('{# my changes #}');

    const forced = await app.call('ui:publish', ['--force']);
    expect(forced.code, forced.stderr).toBe(0);
    expect(forced.stdout).toContain('Replaced resources/views/components/ui.html');
    expect(readFileSync(kit, 'utf8')).toBe(text);

    // The published file is a template the app's views import.
    const server = await app.serve();
    try {
      const page = await server.client().get('/kit');
      expect(page.status, page.text).toBe(200);
      expect(page.text).toMatch(/^KIT\[/u);
    } finally {
      await server.stop();
    }
  });

  it('strips only the exact cross-area import lines, and refuses areas that define the same macro', () => {
    const kit = publishedKit(
      [
        { area: 'frame', source: '{% macro icon(name) %}<svg></svg>{% endmacro %}' },
        { area: 'controls', source: '{% from "fw/ui/frame.html" import icon %}\n{% macro button(label) %}{{ icon("x") }}{{ label }}{% endmacro %}\n{% from "elsewhere.html" import y %}' },
      ],
      '1.0.0',
    );
    expect(kit).not.toContain('fw/ui/frame.html');
    expect(kit).toContain('{% from "elsewhere.html" import y %}');
    expect(kit).toContain('{% macro button(label) %}');
    expect(() => publishedKit([{ area: 'frame', source: '{% macro icon() %}{% endmacro %}' }, { area: 'controls', source: '{%- macro icon() %}{% endmacro %}' }], '1')).toThrow(
      /icon \(frame and controls\)/u,
    );
  });
});

describe('make:component', () => {
  it('writes components/<name>.html, a macro using old(), error(), t(), can(), auth and csrf_field(), that renders in a page', async () => {
    const root = join(dir(), 'component');
    const app = appIn(root);
    const made = await app.call('make:component', ['OrderNote']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('Created resources/views/components/order-note.html');
    const source = readFileSync(join(root, 'resources', 'views', 'components', 'order-note.html'), 'utf8');
    for (const used of ['old(', 'error(', 't(', 'can(', 'auth.', 'csrf_field()']) expect(source).toContain(used);
    expect(existsSync(join(root, 'resources', 'views', 'components', 'ui.html'))).toBe(false);

    const server = await app.serve();
    try {
      const guest = server.client();
      const page = (await guest.get('/notes')).text;
      expect(page).toContain('<form class="order-note" method="post" action="/notes">');
      expect(page).toMatch(/<input type="hidden" name="_token" value="[^"]{20,}">/u);
      expect(page).toContain('<label for="order-note-note">Note</label>');
      // A guest cannot: the field is disabled and the button left out.
      expect(page).toContain('disabled>');
      expect(page).not.toContain('<button');

      const user = await app.createUser({ email: 'ada@example.com', name: 'Ada', password: 'correct horse battery' });
      const ada = server.client();
      expect((await ada.post(`/test-login/${user.id}`)).status).toBe(200);
      const allowed = (await ada.get('/notes')).text;
      expect(allowed).toContain('<p class="order-note-user">Ada</p>');
      expect(allowed).toContain('<button class="fw-button" type="submit">Save</button>');
      await ada.post('/notes');
      const failed = (await ada.get('/notes')).text;
      expect(failed).toContain('value="too short" aria-invalid="true" aria-describedby="order-note-note-error">');
      expect(failed).toContain('<p class="fw-field-error" id="order-note-note-error">The note must be at least 20 characters.</p>');
    } finally {
      await server.stop();
    }

    const twice = await app.call('make:component', ['order-note']);
    expect(twice.code).not.toBe(0);
    expect(twice.stderr).toContain('exists already');
  });

  it('--ui publishes the kit too; a bad name is refused', async () => {
    const root = join(dir(), 'with-ui');
    const app = appIn(root);
    const made = await app.call('make:component', ['order-note', '--ui']);
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain('Created resources/views/components/order-note.html');
    expect(made.stdout).toContain('Created resources/views/components/ui.html');
    expect(existsSync(join(root, 'resources', 'views', 'components', 'ui.html'))).toBe(true);
    const bad = await app.call('make:component', ['../evil']);
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('must start with a letter');
  });
});
