import { describe, expect, it } from 'vitest';
import { extraAttributes, fieldPath } from '../../../../adapters/views/nunjucks/register-ui-fields.js';

describe('fieldPath: a field name as the validation reports its errors', () => {
  it.each([
    ['email', 'email'],
    ['items[0][name]', 'items.0.name'],
    ['tags[]', 'tags'],
    ['address[city]', 'address.city'],
    ['meta[2][value]', 'meta.2.value'],
  ])('%s → %s', (name, path) => expect(fieldPath(name)).toBe(path));
});

describe('extraAttributes: attrs of a kit field', () => {
  it('escapes values, writes true as a bare attribute and leaves out false and none', () => {
    expect(extraAttributes({ 'data-x': 'a"<b>&', autofocus: true, hidden: false, title: null })).toBe(' data-x="a&quot;&lt;b&gt;&amp;" autofocus');
  });
  it.each([['onclick'], ['OnMouseOver'], ['style'], ['STYLE'], ['bad name'], ['"x'], ['a=b']])('refuses %s', (name) => {
    expect(extraAttributes({ [name]: 'x' })).toBe('');
  });
  it('answers nothing for no attrs', () => {
    expect(extraAttributes(null)).toBe('');
    expect(extraAttributes(undefined)).toBe('');
  });
});
