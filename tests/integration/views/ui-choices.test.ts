/**
 * The inputs of radio, checkbox_list and toggle_buttons drawn by fw_choices (ui-choices.ts)
 * must be what the template's own loop draws. Each page is rendered twice: as shipped, and with
 * fw_choices answering none so `_choices` in templates/fw/ui/fields.html loops itself.
 */
import { describe, expect, it } from 'vitest';
import { choiceInputs } from '../../../adapters/views/nunjucks/ui-choices.js';
import { APP, rendererFor } from './app-views.js';

const SHAPES: [string, string][] = [
  ['a list of texts', "['de', 'fr', '<it>']"],
  ['a list of numbers', '[1, 2, 3.5]'],
  ['value/label pairs, labels with & and <', "[['de', 'Germany & co'], ['fr', '<France>'], [3, 'Three'], [4, 5]]"],
  ['value/label objects, one without a label', "[{ value: 'de', label: 'Germany' }, { value: 'fr' }, { value: 7, label: 8 }]"],
  ['a dict', "{ de: 'Germany', 'f\"r': 'France & co' }"],
  ['a safe label', "[['de', 'Ger<b>many</b>' | safe], ['fr', 'France']]"],
  ['odd shapes the template draws (null label, nested list)', "[{ value: 'de', label: none }, ['fr', ['x']]]"],
];

const STATES = [
  "value='fr'",
  "value=['de', 'fr', '3', '7']",
  "value='de', readonly=true",
  "value='de', readonly=true, disabled=true",
  "value='fr', required=true, hint='Pick one', id='my-id'",
  "value='de', bag='other'",
];

function page(options: string, state: string): string {
  return "{% from 'fw/ui.html' import radio, checkbox_list, toggle_buttons %}" +
    `{{ radio('country', 'Country', options=${options}, ${state}) }}` +
    `{{ checkbox_list('places[]', 'Places', options=${options}, ${state}) }}` +
    `{{ toggle_buttons('size', 'Size', options=${options}, ${state}) }}` +
    `{{ toggle_buttons('sizes', 'Sizes', options=${options}, multiple=true, ${state}) }}`;
}

const globals = {
  ...APP,
  old: (field: string, fallback: unknown = '') => ({ country: 'it', size: '2' } as Record<string, unknown>)[field] ?? fallback,
  has_old: () => true,
  error: (field: string, bag = 'default') => (bag === 'default' && field === 'country' ? 'Pick a <country>.' : null),
  errors_in: () => ({}),
};

describe('fw_choices draws the inputs of a group as the template loop does', () => {
  it.each(SHAPES)('%s, in every state', async (_name, options) => {
    for (const state of STATES) {
      const files = { 'p.html': page(options, state) };
      let drawn = 0;
      const shipped = rendererFor(files, { configure: (env) => env.addGlobal('fw_choices', (...args: Parameters<typeof choiceInputs>) => {
        const html = choiceInputs(...args);
        if (html !== null) drawn++;
        return html;
      }) });
      const looped = rendererFor(files, { configure: (env) => env.addGlobal('fw_choices', () => null) });
      const expected = await looped.render('p.html', globals);
      expect(expected).toContain('<input type=');
      expect(await shipped.render('p.html', globals), state).toBe(expected);
      // The odd shapes are the template's; every other shape is drawn by fw_choices.
      expect(drawn, state).toBe(_name.startsWith('odd') ? 0 : 4);
    }
  });
});
