/**
 * Library templates (only macros and constants at their top level) are imported once per
 * process (adapters/views/nunjucks/cached-imports.ts): their macros must still read the page
 * that calls them, render after render, and a file whose exports depend on the page must still
 * run per render. And the autoescape's fast path (fast-escape.ts) gives nunjucks' own output.
 */
import { describe, expect, it } from 'vitest';
import { rendererFor } from './app-views.js';

const LIBRARY = {
  // A library: a macro reading page variables and functions, a constant, a sibling macro.
  'lib.html': [
    '{% set greeting = "Hello" %}',
    '{% set sizes = ["s", "m"] %}',
    '{% macro name_of(n) %}[{{ n }}]{% endmacro %}',
    '{% macro hello(who) %}{{ greeting }} {{ name_of(who) }} {{ old("field") }} {{ user.name }}{% if caller %}{{ caller() }}{% endif %}{% endmacro %}',
    '{% macro grow() %}{% set ignored = sizes.push("xl") %}{{ sizes | length }}{% endmacro %}',
  ].join('\n'),
  // A library importing another: its macros read the page too.
  'outer.html': '{% from "lib.html" import hello %}{% set hello = hello %}',
  // Not a library: its top level reads the page.
  'page-bound.html': '{% set who = user.name %}{% macro hi() %}hi {{ who }}{% endmacro %}',
  // A library by its look, importing that file: it depends on the page as well.
  'wraps-page-bound.html': '{% from "page-bound.html" import hi %}{% set hi = hi %}',
};

const page = (name: string, old: string) => ({ user: { name }, old: (field: string) => (field === 'field' ? old : '') });

describe('imports of library templates', () => {
  it("give macros that read each page's own variables, render after render", async () => {
    const renderer = rendererFor({ ...LIBRARY, 'p.html': '{% from "lib.html" import hello %}{{ hello("x") }}' });
    expect(await renderer.render('p.html', page('Ada', 'one'))).toBe('Hello [x] one Ada');
    expect(await renderer.render('p.html', page('Bob', 'two'))).toBe('Hello [x] two Bob');
  });

  it('work through a library that re-exports them, as `import as`, and with a caller body', async () => {
    const renderer = rendererFor({
      ...LIBRARY,
      'p.html': '{% import "outer.html" as ui %}{{ ui.hello("y") }}|{% from "outer.html" import hello %}{% call hello("z") %}<b>{{ user.name }}</b>{% endcall %}',
    });
    expect(await renderer.render('p.html', page('Ada', 'one'))).toBe('Hello [y] one Ada|Hello [z] one Ada<b>Ada</b>');
    expect(await renderer.render('p.html', page('Bob', 'two'))).toBe('Hello [y] two Bob|Hello [z] two Bob<b>Bob</b>');
  });

  it('still run per render when what they import depends on the page', async () => {
    const renderer = rendererFor({ ...LIBRARY, 'p.html': '{% from "wraps-page-bound.html" import hi %}{{ hi() }}' });
    expect(await renderer.render('p.html', { user: { name: 'Ada' } })).toBe('hi Ada');
    expect(await renderer.render('p.html', { user: { name: 'Bob' } })).toBe('hi Bob');
  });

  it("share no state between requests: a library's constants cannot be changed by a macro", async () => {
    const renderer = rendererFor({ ...LIBRARY, 'p.html': '{% from "lib.html" import grow %}{{ grow() }}' });
    await expect(renderer.render('p.html', {})).rejects.toThrow();
    await expect(renderer.render('p.html', {})).rejects.toThrow();
  });

  it('are run per render while templates are watched (files may change under the library)', async () => {
    const renderer = rendererFor({ ...LIBRARY, 'p.html': '{% from "lib.html" import grow %}{{ grow() }}' }, { watch: true });
    expect(await renderer.render('p.html', {})).toBe('3');
    expect(await renderer.render('p.html', {})).toBe('3');
  });

});

describe('autoescape (its fast path for text with nothing to escape)', () => {
  it('escapes what a page prints as nunjucks does, each of the six characters alone too', async () => {
    const renderer = rendererFor({ 'p.html': '{{ a }}|{{ b }}|{{ c }}|{% for v in each %}{{ v }},{% endfor %}' });
    const html = await renderer.render('p.html', { a: 'plain text', b: `<a href="x" title='y'>&\\</a>`, c: 42, each: ['&', '"', "'", '<', '>', '\\'] });
    expect(html).toBe('plain text|&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;&#92;&lt;/a&gt;|42|&amp;,&quot;,&#39;,&lt;,&gt;,&#92;,');
  });
});

describe('library templates with a macro defined inside a macro', () => {
  it('render as nunjucks renders them (review: the cached import had no addExport and answered 500)', async () => {
    // As without the cache: a nunjucks macro defined in a macro does not see the outer one's
    // arguments (`v` prints nothing), and fw's imports see the page's variables.
    const renderer = rendererFor({
      'nested.html': '{% macro outer(v) %}{% macro inner() %}[{{ v }}|{{ user.name }}]{% endmacro %}{{ inner() }}{% endmacro %}',
      'p.html': '{% from "nested.html" import outer %}{{ outer(user.name) }}',
    });
    expect(await renderer.render('p.html', { user: { name: 'Ada' } })).toBe('[|Ada]');
    expect(await renderer.render('p.html', { user: { name: 'Bob' } })).toBe('[|Bob]');
  });
});
