/**
 * stack(name), push(name, once=key), prepend(name) and once(key): stacks filled anywhere in a
 * page (the child's blocks, included files, imported macros) are printed where the layout calls
 * stack(), even in its head, which renders before them.
 */
import { describe, expect, it } from 'vitest';
import { rendererFor } from './app-views.js';

const LAYOUT = [
  '<head>{{ stack("head") }}</head>',
  '<body>{% block content %}{% endblock %}',
  '{{ stack("scripts") }}</body>',
].join('\n');

const files: Record<string, string> = {
  'layout.html': LAYOUT,
  'macros.html': [
    '{% macro chart(id) %}',
    '{% call push("scripts", once="chart-js") %}<script src="/chart.js"></script>{% endcall %}',
    '<canvas id="{{ id }}"></canvas>',
    '{% endmacro %}',
  ].join(''),
  'partial.html': '{% call push("head") %}<link rel="stylesheet" href="/partial.css">{% endcall %}<p>partial</p>',
  'page.html': [
    '{% extends "layout.html" %}',
    '{% from "macros.html" import chart %}',
    '{% block content %}',
    '{% call push("head") %}<meta name="pushed" content="1">{% endcall %}',
    '{% call prepend("head") %}<meta name="first" content="1">{% endcall %}',
    '{{ chart("a") }}{{ chart("b") }}',
    '{% include "partial.html" %}',
    '{{ push("scripts", "<b>escaped</b>") }}',
    '{% endblock %}',
  ].join(''),
  'once.html': '{% for i in [1, 2, 3] %}{% if once("intro") %}[first {{ i }}]{% endif %}{% endfor %}{% if once("other") %}[other]{% endif %}',
  'empty.html': '<head>{{ stack("head") }}</head>',
  'forged.html': '{{ text }}{{ stack("head") }}{% call push("head") %}<i>x</i>{% endcall %}',
};

describe('stacks', () => {
  it('prints in the head what the child, its includes and its imported macros pushed later', async () => {
    const html = await rendererFor(files, { debug: true }).render('page.html', {});
    const head = /<head>(.*)<\/head>/su.exec(html)?.[1];
    // prepend() goes before everything pushed; push() in the order of the page.
    expect(head).toBe('<meta name="first" content="1"><meta name="pushed" content="1"><link rel="stylesheet" href="/partial.css">');
    expect(html).toContain('<canvas id="a"></canvas>');
    expect(html).toContain('<canvas id="b"></canvas>');
    expect(html).toContain('<p>partial</p>');
  });

  it('push(name, once=key) adds a piece once however many macros push it; push(name, text) escapes text', async () => {
    const html = await rendererFor(files, { debug: true }).render('page.html', {});
    const scripts = /<\/p>\n?(.*)<\/body>/su.exec(html)?.[1];
    expect(scripts).toBe('<script src="/chart.js"></script>&lt;b&gt;escaped&lt;/b&gt;');
    expect(html.match(/chart\.js/gu)).toHaveLength(1);
  });

  it('prints nothing for a stack nobody pushed to, and leaves no placeholder', async () => {
    expect(await rendererFor(files).render('empty.html', {})).toBe('<head></head>');
  });

  it('starts empty in every render', async () => {
    const renderer = rendererFor(files, { debug: true });
    await renderer.render('page.html', {});
    const again = await renderer.render('page.html', {});
    expect(again.match(/<meta name="pushed"/gu)).toHaveLength(1);
    expect(again.match(/chart\.js/gu)).toHaveLength(1);
  });

  it('cannot be filled through a visitor\'s text that imitates a placeholder', async () => {
    const html = await rendererFor(files).render('forged.html', { text: '<!--fw-stack:abc:head-->' });
    expect(html).toBe('&lt;!--fw-stack:abc:head--&gt;<i>x</i>');
  });
});

describe('once(key)', () => {
  it('is true the first time a key is asked in a render, false after; each render starts anew', async () => {
    const renderer = rendererFor(files, { debug: true });
    expect(await renderer.render('once.html', {})).toBe('[first 1][other]');
    expect(await renderer.render('once.html', {})).toBe('[first 1][other]');
  });
});
