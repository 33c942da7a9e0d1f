import { describe, expect, it } from 'vitest';
import { labelFor } from '../../../../adapters/http/validation/labels.js';

describe('labelFor', () => {
  it.each<[string, Record<string, string>, string]>([
    ['email', {}, 'email'],
    ['password_confirmation', {}, 'password confirmation'],
    ['address.city', {}, 'address city'],
    ['tags.0', {}, 'tags item 1'],
    ['lines.2.unit_price', {}, 'lines item 3 unit price'],
    ['_form', {}, 'form'],
    ['email', { email: 'email address' }, 'email address'],
    ['tags.3', { 'tags.*': 'tag' }, 'tag'],
    ['tags.3', { 'tags.*': 'tag', 'tags.3': 'last tag' }, 'last tag'],
    ['lines.0.unit_price', { 'lines.*.unit_price': 'price' }, 'price'],
  ])('names %j with labels %j as %j', (path, labels, expected) => {
    expect(labelFor(path, labels)).toBe(expected);
  });
});
