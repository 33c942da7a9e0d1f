import { describe, expect, it } from 'vitest';
import type { Environment } from 'nunjucks';
import { ViewError } from '../../../ports/view-renderer.js';
import { APP, rendererFor, writeView, writeViews } from './app-views.js';
import { FRAMEWORK_TEMPLATES } from '../../../adapters/views/framework-templates.js';
import { NunjucksViewRenderer } from '../../../adapters/views/nunjucks/nunjucks-view-renderer.js';

/** The ViewError a rejected render gave, for asserting on its fields. */
async function failure(promise: Promise<string>): Promise<ViewError> {
  const error: unknown = await promise.then(
    () => undefined,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(ViewError);
  return error as ViewError;
}

describe('template lookup', () => {
  it("uses the app's file over the built-in one of the same path, and the built-in one otherwise", async () => {
    const renderer = rendererFor({ 'fw/layout.html': '<app-layout>{% block content %}{% endblock %}</app-layout>' });

    const error = await renderer.render('fw/error.html', { ...APP, status: 404, reason: 'Not Found' });
    expect(error).toMatch(/^<app-layout>/);
    expect(error).toContain('Not Found');

    const builtIn = rendererFor({});
    expect(await builtIn.render('fw/error.html', { ...APP, status: 404, reason: 'Not Found' })).toMatch(/^<!doctype html>/);
  });

  it('searches the folders in the order given', async () => {
    const first = writeViews({ 'page.html': 'first' });
    const second = writeViews({ 'page.html': 'second', 'only-second.html': 'from second' });
    const renderer = new NunjucksViewRenderer({ searchPaths: [first, second], debug: false });
    expect(await renderer.render('page.html', {})).toBe('first');
    expect(await renderer.render('only-second.html', {})).toBe('from second');
  });

  it('tells which templates exist', () => {
    const renderer = rendererFor({ 'errors/404.html': 'not here' });
    expect(renderer.has('errors/404.html')).toBe(true);
    expect(renderer.has('errors/500.html')).toBe(false);
    expect(renderer.has('fw/error.html')).toBe(true);
    expect(renderer.has('fw')).toBe(false); // a folder is not a template
  });

  it('never reads outside its folders', async () => {
    const outside = writeViews({ 'secret.html': 'secret' });
    const renderer = rendererFor({});
    const escape = `../${outside.split('/').pop()!}/secret.html`;
    expect(renderer.has(escape)).toBe(false);
    expect((await failure(renderer.render(escape, {}))).code).toBe('view.not-found');
  });

  it('rejects a missing template with a ViewError naming it', async () => {
    const renderer = rendererFor({ 'page.html': '{% include "partials/missing.html" %}' });

    const missing = await failure(renderer.render('nowhere/page.html', {}));
    expect(missing).toMatchObject({ code: 'view.not-found', template: 'nowhere/page.html' });
    expect(missing.message).toContain('nowhere/page.html');

    const included = await failure(renderer.render('page.html', {}));
    expect(included).toMatchObject({ code: 'view.not-found', template: 'partials/missing.html' });
  });

  it('keeps compiled templates cached, and reloads them on every render with watch on', async () => {
    const files = { 'page.html': 'one' };
    const cached = rendererFor(files);
    const root = writeViews(files);
    const watching = new NunjucksViewRenderer({ searchPaths: [root], debug: false, watch: true });
    const cachedRoot = writeViews(files);
    const fixed = new NunjucksViewRenderer({ searchPaths: [cachedRoot], debug: false });
    expect(await cached.render('page.html', {})).toBe('one');
    expect(await watching.render('page.html', {})).toBe('one');
    expect(await fixed.render('page.html', {})).toBe('one');

    writeView(root, 'page.html', 'two');
    writeView(cachedRoot, 'page.html', 'two');
    expect(await watching.render('page.html', {})).toBe('two');
    expect(await fixed.render('page.html', {})).toBe('one');
  });
});

describe('escaping', () => {
  it('escapes variables and leaves template text alone', async () => {
    const renderer = rendererFor({ 'page.html': '<p title="{{ title }}">{{ body }}</p>' });
    const html = await renderer.render('page.html', { title: '"quoted"', body: '<script>alert(1)</script>' });
    expect(html).toBe('<p title="&quot;quoted&quot;">&lt;script&gt;alert(1)&lt;/script&gt;</p>');
  });

  it('prints markup only when marked safe', async () => {
    const renderer = rendererFor({ 'page.html': '{{ trusted | safe }}' });
    expect(await renderer.render('page.html', { trusted: '<b>bold</b>' })).toBe('<b>bold</b>');
  });
});

describe('undefined values', () => {
  const files = {
    'page.html': [
      '{% if missing %}shown{% else %}hidden{% endif %}',
      '[{{ flash.success }}][{{ flash.anything }}]',
      '[{{ nothing | default("fallback") }}][{{ empty }}]',
      '{% for item in missing_list %}{{ item }}{% endfor %}',
    ].join('\n'),
    'typo.html': '<h1>Hi</h1>\n<p>{{ user.nmae }}</p>',
    'bare.html': 'a{{ missing }}b',
    'layout.html': '<main>{% block content %}{% endblock %}</main>\n<footer>{{ footer_text }}</footer>',
    'child.html': '{% extends "layout.html" %}\n{% block content %}ok{% endblock %}',
  };

  it('with debug on, tests on missing variables, flash.<anything>, defaults and null print fine', async () => {
    const renderer = rendererFor(files, { debug: true });
    const html = await renderer.render('page.html', { empty: null, flash: { success: 'Saved' } });
    expect(html).toBe('hidden\n[Saved][]\n[fallback][]\n');
    // Flash may be absent altogether.
    expect(await renderer.render('page.html', { empty: null })).toBe('hidden\n[][]\n[fallback][]\n');
  });

  it('with debug on, printing an undefined variable fails, naming the expression, template and line', async () => {
    const renderer = rendererFor(files, { debug: true });
    const error = await failure(renderer.render('typo.html', { user: { name: 'Ada' } }));
    expect(error).toMatchObject({ code: 'view.undefined-value', template: 'typo.html', line: 2, column: 4 });
    expect(error.message).toBe('undefined value printed by {{ user.nmae }} (typo.html, line 2)');

    expect(await failure(renderer.render('bare.html', {}))).toMatchObject({ code: 'view.undefined-value', line: 1 });
  });

  it('blames the template the undefined value is printed in, not the one rendered', async () => {
    const renderer = rendererFor(files, { debug: true });
    const error = await failure(renderer.render('child.html', {}));
    expect(error).toMatchObject({ code: 'view.undefined-value', template: 'layout.html', line: 2 });
  });

  it('blames an included template, with a message free of nunjucks path prefixes', async () => {
    const renderer = rendererFor({ 'outer.html': 'a\n{% include "inner.html" %}', 'inner.html': 'b\nc\n{{ gone }}' }, { debug: true });
    const error = await failure(renderer.render('outer.html', {}));
    expect(error).toMatchObject({ code: 'view.undefined-value', template: 'inner.html', line: 3 });
    expect(error.message).toBe('undefined value printed by {{ gone }} (inner.html, line 3)');
  });

  it('with debug off, prints undefined values as nothing', async () => {
    const renderer = rendererFor(files, { debug: false });
    expect(await renderer.render('typo.html', { user: {} })).toBe('<h1>Hi</h1>\n<p></p>');
    expect(await renderer.render('bare.html', {})).toBe('ab');
    expect(await renderer.render('child.html', {})).toBe('<main>ok</main>\n<footer></footer>');
  });
});

describe('other render failures', () => {
  it('reports a syntax error with the template and line, also in an included template', async () => {
    const renderer = rendererFor({
      'broken.html': 'line one\n{% if %}\n',
      'outer.html': 'before\n{% include "broken.html" %}',
    });
    const direct = await failure(renderer.render('broken.html', {}));
    expect(direct).toMatchObject({ code: 'view.failed', template: 'broken.html', line: 2 });

    const included = await failure(renderer.render('outer.html', {}));
    expect(included).toMatchObject({ code: 'view.failed', template: 'broken.html', line: 2 });
  });

  it('reports a function that throws with the line calling it', async () => {
    const renderer = rendererFor(
      { 'page.html': 'one\ntwo {{ explode() }}' },
      { globals: { explode: () => { throw new Error('boom'); } } },
    );
    const error = await failure(renderer.render('page.html', {}));
    expect(error).toMatchObject({ code: 'view.failed', template: 'page.html', line: 2 });
    expect(error.message).toBe('boom (page.html, line 2)');
    expect(error.cause).toBeInstanceOf(Error);
  });
});

describe('rendering one block', () => {
  const files = {
    'macros.html': '{% macro badge(text) %}<b class="badge">{{ text }}</b>{% endmacro %}',
    'layout.html': [
      '{% from "macros.html" import badge %}',
      '<html>{{ toasts() }}<main>{% block content %}{% endblock %}</main>',
      '<aside>{% block sidebar %}{{ badge("layout") }}{% endblock %}</aside></html>',
    ].join('\n'),
    'orders.html': [
      '{% extends "layout.html" %}',
      '{% from "macros.html" import badge %}',
      '{% set heading = "Orders of " + shop %}',
      '{% block content %}<h1>{{ heading }}</h1>',
      '<ul>{% block rows %}{% for order in orders %}<li>{{ order.ref }} {{ badge(order.state) }}</li>{% endfor %}{% endblock %}</ul>',
      '{% include "row-count.html" %}{% endblock %}',
      '{% block sidebar %}{{ super() }}+child{% endblock %}',
    ].join('\n'),
    'row-count.html': '<p>{{ orders | length }} orders</p>',
    'standalone.html': '{% import "macros.html" as m %}<div>top {{ toasts() }}</div>{% block card %}{{ m.badge(title) }}{% endblock %}',
  };
  const context = {
    shop: 'Acme',
    orders: [
      { ref: 'A-1', state: 'paid' },
      { ref: 'A-2', state: '<new>' },
    ],
  };

  function counting(): { renderer: NunjucksViewRenderer; calls: () => number } {
    let calls = 0;
    const toasts = (): string => {
      calls += 1;
      return '[toasts]';
    };
    return { renderer: rendererFor(files, { debug: true, globals: { toasts } }), calls: () => calls };
  }

  it('renders a block of a child template with its context, top-level imports and sets', async () => {
    const { renderer, calls } = counting();
    const html = await renderer.render('orders.html', context, { block: 'content' });
    expect(html).toBe(
      '<h1>Orders of Acme</h1>\n<ul><li>A-1 <b class="badge">paid</b></li><li>A-2 <b class="badge">&lt;new&gt;</b></li></ul>\n<p>2 orders</p>',
    );
    // The layout did not run: toasts stay for the next full page.
    expect(calls()).toBe(0);
  });

  it('renders a block nested in another block', async () => {
    const { renderer } = counting();
    expect(await renderer.render('orders.html', context, { block: 'rows' })).toBe(
      '<li>A-1 <b class="badge">paid</b></li><li>A-2 <b class="badge">&lt;new&gt;</b></li>',
    );
  });

  it("renders a child's override of a layout block, super() included, with the layout's imports", async () => {
    const { renderer } = counting();
    expect(await renderer.render('orders.html', context, { block: 'sidebar' })).toBe('<b class="badge">layout</b>+child');
    expect(await renderer.render('layout.html', context, { block: 'sidebar' })).toBe('<b class="badge">layout</b>');
  });

  it('renders a block of a template that extends nothing', async () => {
    const { renderer, calls } = counting();
    expect(await renderer.render('standalone.html', { title: 'Hi' }, { block: 'card' })).toBe('<b class="badge">Hi</b>');
    expect(calls()).toBe(0);
  });

  it('still renders the whole page without a block, and the same template both ways', async () => {
    const { renderer, calls } = counting();
    const page = await renderer.render('orders.html', context);
    expect(page).toContain('<html>[toasts]<main><h1>Orders of Acme</h1>');
    expect(page).toContain('<aside><b class="badge">layout</b>+child</aside></html>');
    expect(calls()).toBe(1);
    expect(await renderer.render('orders.html', context, { block: 'rows' })).not.toContain('<html>');
  });

  it('rejects an unknown block, naming the template', async () => {
    const { renderer } = counting();
    const error = await failure(renderer.render('orders.html', context, { block: 'nope' }));
    expect(error).toMatchObject({ code: 'view.block-not-found', template: 'orders.html' });
    expect(error.message).toContain("no block named 'nope'");
  });

  it('reports an undefined value inside the block with its line', async () => {
    const { renderer } = counting();
    const error = await failure(renderer.render('orders.html', { orders: [{ state: 'paid' }] }, { block: 'rows' }));
    expect(error).toMatchObject({ code: 'view.undefined-value', template: 'orders.html', line: 5 });
    expect(error.message).toContain('{{ order.ref }}');
  });
});

describe('configuration', () => {
  it("runs the configure hook, so an app can add filters and globals (App.templates)", async () => {
    const configure = (env: Environment): void => {
      env.addFilter('shout', (text: unknown) => `${String(text).toUpperCase()}!`);
      env.addGlobal('version', '1.2.3');
    };
    const renderer = rendererFor({ 'page.html': '{{ "hello" | shout }} v{{ version }}' }, { configure });
    expect(await renderer.render('page.html', {})).toBe('HELLO! v1.2.3');
  });

  it('gives every template the globals, and lets the render context override them', async () => {
    const renderer = rendererFor({ 'page.html': '{{ greeting }} {{ who() }}' }, { globals: { greeting: 'Hello', who: () => 'world' } });
    expect(await renderer.render('page.html', {})).toBe('Hello world');
    expect(await renderer.render('page.html', { greeting: 'Hi' })).toBe('Hi world');
  });

  it('finds the framework templates folder', () => {
    const renderer = new NunjucksViewRenderer({ searchPaths: [FRAMEWORK_TEMPLATES], debug: false });
    expect(renderer.has('fw/layout.html')).toBe(true);
  });
});

describe('imported macros', () => {
  const views = {
    'components/greeting.html': '{% macro greeting() %}{{ old("name", "nobody") }} {{ user }}{% endmacro %}{% set shared = user %}',
    'with.html': '{% from "components/greeting.html" import greeting %}{{ greeting() }}',
    'whole.html': '{% import "components/greeting.html" as parts %}{{ parts.greeting() }}|{{ parts.shared }}',
    'without.html': '{% from "components/greeting.html" import greeting without context %}[{{ greeting() }}]',
  };
  const page = { old: (field: string, fallback: string) => (field === 'name' ? 'Ada' : fallback), user: 'ada@example.com' };

  it("see the importing page's variables, so a component reads old() and auth by itself", async () => {
    const renderer = rendererFor(views);
    expect(await renderer.render('with.html', page)).toBe('Ada ada@example.com');
    expect(await renderer.render('whole.html', page)).toBe('Ada ada@example.com|ada@example.com');
  });

  it("do not when the template says 'without context'", async () => {
    const renderer = new NunjucksViewRenderer({ searchPaths: [writeViews(views)], debug: false });
    await expect(renderer.render('without.html', page)).rejects.toThrow();
  });
});

describe("a render's variables", () => {
  const FILES = {
    // A page setting a top-level variable, and including a partial that sets its own.
    'page.html': '{% set count = (count or 0) + 1 %}count={{ count }};{% include "part.html" %};after={{ shade }}',
    'part.html': '{% set shade = "part" %}shade={{ shade }}',
  };

  it("keep a template's top-level {% set %} out of the caller's object, render after render", async () => {
    const renderer = rendererFor(FILES);
    const context: Record<string, unknown> = { shade: 'page' };
    expect(await renderer.render('page.html', context)).toBe('count=1;shade=part;after=page');
    expect(await renderer.render('page.html', context)).toBe('count=1;shade=part;after=page');
    expect(context).toEqual({ shade: 'page' });
  });

  it('hold a `__proto__` key of the caller (data parsed from JSON) as a value, not as their prototype', async () => {
    const renderer = rendererFor({ 'p.html': '{{ polluted | default("no") }}|{{ shade }}' });
    const context = JSON.parse('{"__proto__": {"polluted": "yes"}, "shade": "page"}') as Record<string, unknown>;
    expect(await renderer.render('p.html', context)).toBe('no|page');
  });

  it('are the caller\'s object itself when it was made for that render (`fresh`), still without what an include sets', async () => {
    const renderer = rendererFor(FILES);
    const context: Record<string, unknown> = { shade: 'page' };
    expect(await renderer.render('page.html', context, { fresh: true })).toBe('count=1;shade=part;after=page');
    // The page's own {% set %} landed in it: nunjucks did not copy it. The include's did not.
    expect(context['count']).toBe(1);
    expect(context['shade']).toBe('page');
  });
});
