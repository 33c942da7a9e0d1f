/**
 * The direct path of nunjucks' Frame.set (adapters/views/nunjucks/fast-frame-set.ts) keeps
 * nunjucks' scoping: the same templates give the same output with it as with the original.
 */
import nunjucks from 'nunjucks';
import { describe, expect, it } from 'vitest';
import { speedUpFrameSet } from '../../../../adapters/views/nunjucks/fast-frame-set.js';

const TEMPLATES: Record<string, string> = {
  'a set inside a loop assigns the outer variable': '{% set n = 0 %}{% for i in [1, 2, 3] %}{% set n = n + i %}{% endfor %}{{ n }}',
  'a loop variable stays in the loop': '{% set i = "outer" %}{% for i in [1] %}{{ i }}{% endfor %}{{ i }}',
  'loop.index and friends (dotted names) still work': '{% for x in ["a", "b"] %}{{ loop.index }}{{ loop.first }}{{ loop.last }}{{ loop.length }}{% endfor %}',
  'nested loops keep their own loop.index': '{% for a in [1, 2] %}{% for b in [7, 8, 9] %}{{ loop.index }}{% endfor %}:{{ loop.index }}/{{ loop.revindex }} {% endfor %}',
  "a macro's set does not leak to the page": '{% macro m(v) %}{% set inner = v %}{{ inner }}{% endmacro %}{% set inner = "page" %}{{ m("macro") }}{{ inner }}',
  'keyword parameters and defaults': '{% macro m(a, b="B", c=none) %}{{ a }}{{ b }}{{ c }}{% endmacro %}{{ m("A") }}{{ m("A", c="C") }}',
  'a set in a caller body stays there': '{% macro w() %}{{ caller() }}{% endmacro %}{% set x = 1 %}{% call w() %}{% set x = 2 %}{{ x }}{% endcall %}{{ x }}',
  'a block set': '{% set t %}<b>{{ 1 + 1 }}</b>{% endset %}{{ t }}',
};

function renderAll(): Record<string, string> {
  const env = new nunjucks.Environment(null, { autoescape: false });
  return Object.fromEntries(Object.entries(TEMPLATES).map(([name, source]) => [name, env.renderString(source, {})]));
}

describe('the direct path of Frame.set', () => {
  it('renders every scoping case as nunjucks itself does', () => {
    const prototype = (nunjucks.runtime as unknown as { Frame: { prototype: { set: unknown } } }).Frame.prototype;
    const current = prototype.set;
    const fast = (current as { fwFast?: true }).fwFast === true;
    if (!fast) speedUpFrameSet();
    const faster = renderAll();
    expect((prototype.set as { fwFast?: true }).fwFast).toBe(true);
    expect(faster).toEqual({
      'a set inside a loop assigns the outer variable': '6',
      'a loop variable stays in the loop': '1outer',
      'loop.index and friends (dotted names) still work': '1truefalse22falsetrue2',
      'nested loops keep their own loop.index': '123:1/2 123:2/1 ',
      "a macro's set does not leak to the page": 'macropage',
      'keyword parameters and defaults': 'ABABC',
      'a set in a caller body stays there': '21',
      'a block set': '<b>2</b>',
    });
  });
});
