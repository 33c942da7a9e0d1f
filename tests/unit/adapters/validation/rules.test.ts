import { describe, expect, it } from 'vitest';
import type { FieldRules, Validator } from '../../../../adapters/http/validation/validator.js';
import { ruleErrors } from './support.js';

type Row = [description: string, input: Record<string, unknown>, chain: (rules: FieldRules) => void, messages: string[]];

/** Runs one chain on field `x` of the input; returns x's messages ([] when it passed). */
async function messagesFor(input: Record<string, unknown>, chain: (rules: FieldRules) => void): Promise<string[]> {
  const errors = await ruleErrors(input, (v: Validator) => chain(v.field('x')));
  return errors['x'] ?? [];
}

const required = 'The x field is required.';

describe('presence rules', () => {
  it.each<Row>([
    ['required: text', { x: 'a' }, (r) => r.required(), []],
    ['required: zero', { x: 0 }, (r) => r.required(), []],
    ['required: false', { x: false }, (r) => r.required(), []],
    ['required: a list', { x: ['a'] }, (r) => r.required(), []],
    ['required: absent', {}, (r) => r.required(), [required]],
    ['required: empty text', { x: '' }, (r) => r.required(), [required]],
    ['required: blank text', { x: ' \n\t' }, (r) => r.required(), [required]],
    ['required: null', { x: null }, (r) => r.required(), [required]],
    ['required: empty list', { x: [] }, (r) => r.required(), [required]],
    ['accepted: on', { x: 'on' }, (r) => r.accepted(), []],
    ['accepted: yes', { x: 'yes' }, (r) => r.accepted(), []],
    ['accepted: true', { x: true }, (r) => r.accepted(), []],
    ['accepted: 1', { x: '1' }, (r) => r.accepted(), []],
    ['accepted: false', { x: false }, (r) => r.accepted(), ['The x field must be accepted.']],
    ['accepted: no', { x: 'no' }, (r) => r.accepted(), ['The x field must be accepted.']],
    ['accepted: absent', {}, (r) => r.accepted(), ['The x field must be accepted.']],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });
});

describe('size rules measure characters of text, numbers by value, lists by items', () => {
  it.each<Row>([
    ['min: text long enough', { x: 'abcd' }, (r) => r.min(4), []],
    ['min: text too short', { x: 'abc' }, (r) => r.min(4), ['The x field must be at least 4 characters.']],
    ['min: one character', { x: '' }, (r) => r.required().min(1), [required]],
    ['min: emoji are one character each', { x: '😀😀😀😀' }, (r) => r.min(4).max(4), []],
    ['min: singular', { x: 'ab' }, (r) => r.min(1).max(1), ['The x field must not be greater than 1 character.']],
    ['min: number', { x: 17 }, (r) => r.min(18), ['The x field must be at least 18.']],
    ['min: number at the bound', { x: 18 }, (r) => r.min(18), []],
    ['min: list', { x: ['a'] }, (r) => r.min(2), ['The x field must have at least 2 items.']],
    ['max: text', { x: 'abcdef' }, (r) => r.max(5), ['The x field must not be greater than 5 characters.']],
    ['max: text at the bound', { x: 'abcde' }, (r) => r.max(5), []],
    ['max: number', { x: 10.5 }, (r) => r.max(10), ['The x field must not be greater than 10.']],
    ['max: list', { x: ['a', 'b', 'c'] }, (r) => r.max(2), ['The x field must not have more than 2 items.']],
    ['max: a value without a size', { x: true }, (r) => r.max(2), ['The x field must not be greater than 2 characters.']],
    ['between: inside', { x: 'abcdefgh' }, (r) => r.between(8, 64), []],
    ['between: text', { x: 'short' }, (r) => r.between(8, 64), ['The x field must be between 8 and 64 characters.']],
    ['between: number', { x: 0 }, (r) => r.between(1, 5), ['The x field must be between 1 and 5.']],
    ['between: an empty list is missing, left to required', { x: [] as string[] }, (r) => r.between(1, 3), []],
    ['between: list too long', { x: ['a', 'b', 'c', 'd'] }, (r) => r.between(1, 3), ['The x field must have between 1 and 3 items.']],
    ['size rules let a missing value pass', {}, (r) => r.min(3).max(1).between(5, 6), []],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });
});

describe('compare rules', () => {
  it.each<Row>([
    ['confirmed: matches x_confirmation', { x: 'secret!', x_confirmation: 'secret!' }, (r) => r.confirmed(), []],
    ['confirmed: differs', { x: 'secret!', x_confirmation: 'Secret!' }, (r) => r.confirmed(), ['The x field confirmation does not match.']],
    ['confirmed: confirmation missing', { x: 'secret!' }, (r) => r.confirmed(), ['The x field confirmation does not match.']],
    ['confirmed: a value given', { x: 'a' }, (r) => r.confirmed('a'), []],
    ['confirmed: a value given differs', { x: 'a' }, (r) => r.confirmed('b'), ['The x field confirmation does not match.']],
    ['same: equal', { x: 'a', other_field: 'a' }, (r) => r.same('other_field'), []],
    ['same: differs', { x: 'a', other_field: 'b' }, (r) => r.same('other_field'), ['The x field must match other field.']],
    ['same: lists compared by content', { x: ['a'], y: ['a'] }, (r) => r.same('y'), []],
    ['different: differs', { x: 'a', old: 'b' }, (r) => r.different('old'), []],
    ['different: equal', { x: 'a', old: 'a' }, (r) => r.different('old'), ['The x field and old must be different.']],
    ['different: nested other field', { x: 'a', address: { city: 'a' } }, (r) => r.different('address.city'), ['The x field and address city must be different.']],
    ['oneOf: among', { x: 'b' }, (r) => r.oneOf(['a', 'b']), []],
    ['oneOf: not among', { x: 'c' }, (r) => r.oneOf(['a', 'b']), ['The selected x is invalid.']],
    ['oneOf: compared exactly', { x: '1' }, (r) => r.oneOf([1, 2]), ['The selected x is invalid.']],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });
});

describe('text rules', () => {
  const invalidEmail = 'The x field must be a valid email address.';
  it.each<Row>([
    ['email: plain', { x: 'ada@example.com' }, (r) => r.email(), []],
    ['email: mixed case', { x: 'Ada@Example.COM' }, (r) => r.email(), []],
    ['email: no at', { x: 'ada.example.com' }, (r) => r.email(), [invalidEmail]],
    ['email: no dot in the domain', { x: 'ada@example' }, (r) => r.email(), [invalidEmail]],
    ['email: a space', { x: 'ada lovelace@example.com' }, (r) => r.email(), [invalidEmail]],
    ['email: not text', { x: 42 }, (r) => r.email(), [invalidEmail]],
    ['matches: found', { x: 'abc123' }, (r) => r.matches(/\d/u), []],
    ['matches: not found', { x: 'abc' }, (r) => r.matches(/\d/u), ['The x field format is invalid.']],
    ['matches: anchored', { x: 'ab-12' }, (r) => r.matches(/^[a-z]{2}-\d{2}$/u), []],
    ['matches: a global pattern answers the same twice', { x: 'a1' }, (r) => r.matches(/\d/gu).matches(/\d/gu), []],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });
});

describe('custom checks and modifiers', () => {
  it.each<Row>([
    ['rule: true', { x: 'a' }, (r) => r.rule(true, 'Never shown.'), []],
    ['rule: false', { x: 'a' }, (r) => r.rule(false, 'Pick a weekday.'), ['Pick a weekday.']],
    ['rule: runs on a missing value', {}, (r) => r.rule(false, 'Say something.'), ['Say something.']],
    ['message replaces the rule before it only', { x: 'ab' }, (r) => r.min(3).message('Too short!').max(1), ['Too short!', 'The x field must not be greater than 1 character.']],
    ['label names the field in every message', { x: 'ab' }, (r) => r.min(3).max(1).label('nickname'), ['The nickname field must be at least 3 characters.', 'The nickname field must not be greater than 1 character.']],
    ['label and message together', {}, (r) => r.label('nickname').required().message('Pick a nickname.'), ['Pick a nickname.']],
    ['all failing rules of a field are listed, in order', { x: 'a' }, (r) => r.email().min(3).matches(/\d/u), ['The x field must be a valid email address.', 'The x field must be at least 3 characters.', 'The x field format is invalid.']],
    ['a failed required ends the chain', {}, (r) => r.required().accepted().rule(false, 'Custom.').email(), [required]],
    ['a passed required does not', { x: 'a' }, (r) => r.required().email().rule(false, 'Custom.'), ['The x field must be a valid email address.', 'Custom.']],
    ['two chains on a field do not repeat a message', {}, (r) => r.required().required(), [required]],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });

  it('refuses modifiers with nothing to modify, as programming errors', async () => {
    await expect(messagesFor({}, (r) => r.message('x'))).rejects.toThrow('message() follows a rule');
    await expect(messagesFor({}, (r) => r.required().ignore(1))).rejects.toThrow('ignore() follows unique()');
  });

  it('judges an explicit value instead of the input when one is given', async () => {
    const errors = await ruleErrors({ x: 'looks fine' }, (v) => {
      v.field('x', 'bad').email();
      v.field('computed', undefined).required();
    });
    expect(errors).toEqual({ x: ['The x field must be a valid email address.'], computed: ['The computed field is required.'] });
  });

  it('reads nested fields by dotted path and keys their errors so', async () => {
    const errors = await ruleErrors({ address: { city: '' }, tags: ['ok', 'x'] }, (v) => {
      v.field('address.city').required();
      v.field('tags.1').min(2);
      v.field('tags.5').required();
    });
    expect(errors).toEqual({
      'address.city': ['The address city field is required.'],
      'tags.1': ['The tags item 2 field must be at least 2 characters.'],
      'tags.5': ['The tags item 6 field is required.'],
    });
  });
});
