/**
 * Macros compiled with their keyword parameters and `{% set %}`s as JavaScript locals
 * (adapters/views/nunjucks/macro-locals-compiler.ts) must print what nunjucks' own code prints.
 * Each template is rendered by fw's renderer and by a plain nunjucks environment over the same
 * files; the cases are nunjucks' scoping corners that locals could get wrong.
 */
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { rendererFor, writeViews } from './app-views.js';

const WRAP = '{% macro wrap() %}({{ caller() }}){% endmacro %}';

const CASES: [string, string, Record<string, unknown>][] = [
  ['a keyword argument given as undefined reads the page variable of that name, as nunjucks frames do',
    '{% macro m(a, hint=none) %}[{{ hint }}]{% endmacro %}{{ m(1, hint=missing.x) }}{{ m(1) }}{{ m(1, hint="given") }}', { hint: 'page' }],
  ['a default reads the keyword parameters before it',
    '{% macro m(a=1, b=a+1) %}{{ a }},{{ b }};{% endmacro %}{{ m() }}{{ m(a=5) }}{{ m(2, 3) }}{{ m(b=9) }}', {}],
  ['a set under an if is seen only when it ran; later sets shadow it',
    "{% macro m(c) %}{% if c %}{% set x = 'in' %}{% endif %}[{{ x }}]{% set x = 'after' %}{{ x }}{% endmacro %}{{ m(true) }}{{ m(false) }}", { x: 'page' }],
  ['a set in a loop is read before it on the next turn, and not after the loop',
    '{% macro m(xs) %}{% for i in xs %}<{{ prev }}>{% set prev = i %}{{ prev }}{% endfor %}|{{ prev }}{% endmacro %}{{ m([1, 2, 3]) }}', { prev: 'p' }],
  ['a loop set changed again under an if is what the next turn reads',
    "{% macro m() %}{% for i in [1, 2, 3] %}<{{ v }}>{% set v = i %}{% if i == 2 %}{% set v = 'two' %}{% endif %}{{ v }}{% endfor %}{% endmacro %}{{ m() }}", { v: 'page' }],
  ["a loop's else does not see a set of the loop body (nested loops reuse the body)",
    '{% macro m(outer) %}{% for o in outer %}{% for i in o %}{% set y = i %}{{ y }}{% else %}[{{ y }}]{% endfor %}{% endfor %}{% endmacro %}{{ m([[1, 2], [], [3], []]) }}', { y: 'page' }],
  ["a call body's sets stay its own, also of the macro's parameters and sets",
    `${WRAP}{% macro m(v='k', w='w') %}{% set s = 'S' %}{% call wrap() %}{% set v = 'c' %}{% set s = 'cs' %}{{ v }}{{ s }}{{ w }}{% endcall %}{{ v }}{{ s }}{{ w }}{% endmacro %}{{ m() }}{{ m(v='given') }}`, {}],
  ["a call body reads the macro's parameters and sets",
    `${WRAP}{% macro m(k='K') %}{% set s = 'S' %}{% call wrap() %}{{ k }}{{ s }}{% endcall %}{% set s = 'T' %}{{ s }}{% endmacro %}{{ m() }}{{ m(k='<b>') }}`, {}],
  ["a call body run by a macro of another file reads the calling macro's keyword parameters and sets",
    "{% from 'wrap.html' import wrap %}{% macro m(k='K') %}{% set s = 'S' %}{% call wrap() %}{{ k }}{{ s }}{% set s = 'in' %}{{ s }}{% endcall %}{{ s }}{% endmacro %}{{ m() }}{{ m(k='<b>') }}", {}],
  ['the loop variable of each turn, over lists and dicts, nested, and kept after its turn',
    "{% macro m(xs) %}{% for x in xs %}{{ loop.index }}{{ loop.index0 }}{{ loop.revindex }}{{ loop.revindex0 }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{% set l = loop %}{% for y in xs %}{{ loop.index }}{% endfor %}{{ loop.index }};{% endfor %}{{ l.index }}{% for k, v in { a: 1, b: 2 } %}{{ loop.index }}{{ k }}{{ v }}{{ loop.last }}{% endfor %}{% for a, b in [[1, 2], [3, 4]] %}{{ loop.revindex }}{{ a }}{{ b }}{% endfor %}{% endmacro %}{{ m([1, 2, 3]) }}", { l: { index: 'page' } }],
  ['member lookups: nested, missing, null, by index, and methods called on their object',
    "{% macro m(o, xs=[1, 2]) %}{{ o.a.b }}|{{ o.missing.x }}|{{ o.n }}|{{ o.n.x }}|{{ xs[1] }}|{{ o.a['b'] }}|{% set _ = xs.push(9) %}{{ xs | join(',') }}|{{ o.f() }}|{{ nothing.x }}|{{ o.list[0].name }}{% endmacro %}{{ m(obj) }}",
    { obj: { a: { b: '<b>' }, n: null, list: [{ name: 'first' }], f(this: { a: { b: string } }) { return this.a.b + '!'; } } }],
  ['calls with as many positional arguments as parameters, fewer, more, and positionals given by keyword',
    "{% macro m(a, b, c='C', d='D') %}{{ a }}{{ b }}{{ c }}{{ d }};{% endmacro %}{{ m(1, 2) }}{{ m(1, 2, d=4) }}{{ m(1) }}{{ m(1, 2, 3, 4) }}{{ m(1, 2, 3, 4, 5) }}{{ m(b=2, a=1) }}{{ m(1, b=2, c=3) }}{{ m() }}", {}],
  ['calls inside a macro: nested in arguments, methods, a macro given as an argument, `this` the page',
    "{% macro twice(v) %}{{ v }}{{ v }}{% endmacro %}{% macro run(fn, v) %}{{ fn(v) }}{% endmacro %}{% macro m() %}{{ f(g(1), g(2)) }}|{{ obj.f() }}|{{ run(twice, 'x') }}|{{ who() }}{% endmacro %}{{ m() }}",
    { f: (a: string, b: string) => `${a}+${b}`, g: (n: number) => `<${n}>`, obj: { name: 'o', f(this: { name: string }) { return this.name; } }, name: 'page', who(this: { ctx?: { name?: string } }) { return this.ctx?.name ?? 'none'; } }],
  ['a set in a loop changes a keyword parameter for after the loop',
    '{% macro m(n=0) %}{% for i in [1, 2] %}{% set n = n + i %}{% endfor %}{{ n }}{% endmacro %}{{ m() }}{{ m(n=10) }}', {}],
  ['a set to undefined reads the page variable',
    '{% macro m() %}{% set z = nothing.here %}[{{ z }}]{% set z = 1 %}{{ z }}{% endmacro %}{{ m() }}', { z: 'page' }],
  ['a block set captures with the parameters',
    "{% macro m(a='A') %}{% set cap %}<i>{{ a }}</i>{% endset %}{{ cap }}{% endmacro %}{{ m() }}{{ m(a='<') }}", {}],
  ['a loop variable named like a parameter shadows it inside the loop only',
    "{% macro m(item='k') %}{% for item in [1, 2] %}{{ item }}{% set item = 'x' %}{{ item }}{% endfor %}{{ item }}{% endmacro %}{{ m() }}", {}],
  ['a set of a positional parameter, and several targets at once',
    "{% macro m(a, b='b') %}{% set a = a ~ '!' %}{% set c, b = 'two' %}{{ a }}{{ b }}{{ c }}{% endmacro %}{{ m('x') }}", {}],
  ['a macro with an include keeps its frame for the included file',
    "{% macro m(k='K') %}{% set s = 'S' %}{% include 'part.html' %}{% endmacro %}{{ m() }}{{ m(k='L') }}", {}],
  ["a keyword parameter named loop leaves each for-loop's own loop variable to the loop",
    "{% macro m(loop='p') %}{{ loop }}{% for a in [1, 2] %}{{ loop.index }}{% endfor %}{{ loop }}{% endmacro %}{{ m() }}{{ m(loop='q') }}", {}],
  ['a caller given as a keyword, and a macro calling itself',
    "{% macro count(n=3) %}{{ n }}{% if n > 0 %}{% set next = n - 1 %}{{ count(n=next) }}{% endif %}{{ n }}{% endmacro %}{{ count() }}", {}],
];

describe('macros with their parameters and sets as locals', () => {
  it.each([['nope', 'undefined or falsey'], ['text', 'not a function']])('fail as nunjucks fails when calling %s', async (callee, reason) => {
    const files = { 'p.html': `{% macro m() %}{{ ${callee}(1) }}{% endmacro %}{{ m() }}` };
    const page = { text: 'a text' };
    const reference = new nunjucks.Environment(new nunjucks.FileSystemLoader(writeViews(files)), { autoescape: true });
    expect(() => reference.render('p.html', page)).toThrow(`Unable to call \`${callee}\`, which is ${reason}`);
    await expect(rendererFor(files).render('p.html', page)).rejects.toThrow(`Unable to call \`${callee}\`, which is ${reason}`);
  });

  it.each(CASES)('print what nunjucks prints: %s', async (_name, template, page) => {
    const files = { 'p.html': template, 'part.html': '<{{ k }}|{{ s }}>', 'wrap.html': WRAP };
    const reference = new nunjucks.Environment(new nunjucks.FileSystemLoader(writeViews(files)), { autoescape: true });
    const expected = reference.render('p.html', page);
    expect(await rendererFor(files).render('p.html', page)).toBe(expected);
  });
});
