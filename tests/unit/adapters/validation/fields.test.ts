import { object, optional } from 'superstruct';
import type { Struct } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { checkbox, integer, list, number, oneOf, optionalText, text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { validate } from '../../../../adapters/http/validation/validate.js';
import { formContext } from './support.js';

const ABSENT = Symbol('absent');

/** Validates `{ f: <sent> }` (or `{}` for ABSENT) against `{ f: struct }`. */
async function parse(struct: Struct<unknown, unknown>, sent: unknown) {
  const input = sent === ABSENT ? {} : { f: sent };
  const result = await validate(formSchema({ struct: object({ f: struct }) }), input, formContext());
  if (result.kind === 'forbidden') throw new Error('forbidden');
  return result.kind === 'valid' ? { value: result.value.f } : { errors: result.errors };
}

const fails = (message: string) => ({ errors: { f: [message] } });
const REQUIRED = fails('The f field is required.');

describe('checkbox()', () => {
  it.each<[unknown, unknown]>([
    ['on', { value: true }],
    ['1', { value: true }],
    ['true', { value: true }],
    [' ON ', { value: true }],
    [true, { value: true }],
    [1, { value: true }],
    [ABSENT, { value: false }],
    [null, { value: false }],
    ['', { value: false }],
    ['0', { value: false }],
    ['false', { value: false }],
    ['off', { value: false }],
    [false, { value: false }],
    [['0', 'on'], { value: true }],
    [['0'], { value: false }],
    ['maybe', fails('The f field must be true or false.')],
    [2, fails('The f field must be true or false.')],
  ])('reads %j as %j', async (sent, expected) => {
    expect(await parse(checkbox() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });
});

describe('integer()', () => {
  it.each<[unknown, unknown]>([
    ['42', { value: 42 }],
    [' -7 ', { value: -7 }],
    ['+3', { value: 3 }],
    ['007', { value: 7 }],
    [12, { value: 12 }],
    ['', REQUIRED],
    ['   ', REQUIRED],
    [ABSENT, REQUIRED],
    [null, REQUIRED],
    ['4.5', fails('The f field must be a whole number.')],
    ['1e3', fails('The f field must be a whole number.')],
    ['0x10', fails('The f field must be a whole number.')],
    ['abc', fails('The f field must be a whole number.')],
    ['99999999999999999999', fails('The f field must be a whole number.')],
    [4.5, fails('The f field must be a whole number.')],
  ])('reads %j as %j', async (sent, expected) => {
    expect(await parse(integer() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    ['', { value: undefined }],
    [ABSENT, { value: undefined }],
    ['5', { value: 5 }],
    ['x', fails('The f field must be a whole number.')],
  ])('optional(integer()) reads %j as %j', async (sent, expected) => {
    expect(await parse(optional(integer()) as Struct<unknown, unknown>, sent)).toEqual(expected);
  });
});

describe('number()', () => {
  it.each<[unknown, unknown]>([
    ['3.25', { value: 3.25 }],
    ['-1e3', { value: -1000 }],
    ['.5', { value: 0.5 }],
    ['10', { value: 10 }],
    [2.5, { value: 2.5 }],
    ['', REQUIRED],
    [ABSENT, REQUIRED],
    ['1,5', fails('The f field must be a number.')],
    ['Infinity', fails('The f field must be a number.')],
    ['NaN', fails('The f field must be a number.')],
    ['0x10', fails('The f field must be a number.')],
    ['twelve', fails('The f field must be a number.')],
  ])('reads %j as %j', async (sent, expected) => {
    expect(await parse(number() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });
});

describe('text() and optionalText()', () => {
  it.each<[unknown, unknown]>([
    ['Ada', { value: 'Ada' }],
    ['  Ada Lovelace \n', { value: 'Ada Lovelace' }],
    ['', REQUIRED],
    [' \t ', REQUIRED],
    [ABSENT, REQUIRED],
    [null, REQUIRED],
    [5, fails('The f field must be text.')],
    [['a', 'b'], fails('The f field must be text.')],
  ])('text() reads %j as %j', async (sent, expected) => {
    expect(await parse(text() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    ['  spaced  ', { value: '  spaced  ' }],
    ['', REQUIRED],
  ])('text({ trim: false }) keeps %j as %j', async (sent, expected) => {
    expect(await parse(text({ trim: false }) as Struct<unknown, unknown>, sent)).toEqual(expected);
  });

  it.each<[unknown, unknown]>([
    [' Ada ', { value: 'Ada' }],
    ['', { value: undefined }],
    ['  ', { value: undefined }],
    [ABSENT, { value: undefined }],
    [7, fails('The f field must be text.')],
  ])('optionalText() reads %j as %j', async (sent, expected) => {
    expect(await parse(optionalText() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });
});

describe('list()', () => {
  it.each<[unknown, unknown]>([
    [ABSENT, { value: [] }],
    ['', { value: [] }],
    ['red', { value: ['red'] }],
    [['red', 'blue'], { value: ['red', 'blue'] }],
    [[], { value: [] }],
    [5, fails('The f field must be a list.')],
  ])('list() reads %j as %j', async (sent, expected) => {
    expect(await parse(list() as Struct<unknown, unknown>, sent)).toEqual(expected);
  });

  it('coerces and checks every item, reporting each bad one by its index', async () => {
    expect(await parse(list(integer()) as Struct<unknown, unknown>, ['1', ' 2 '])).toEqual({ value: [1, 2] });
    expect(await parse(list(integer()) as Struct<unknown, unknown>, ['1', 'x', '3', '4.5'])).toEqual({
      errors: {
        'f.1': ['The f item 2 field must be a whole number.'],
        'f.3': ['The f item 4 field must be a whole number.'],
      },
    });
  });
});

describe('oneOf()', () => {
  const colours = oneOf(['red', 'green']) as Struct<unknown, unknown>;
  const ratings = oneOf([1, 2, 3]) as Struct<unknown, unknown>;

  it.each<[Struct<unknown, unknown>, unknown, unknown]>([
    [colours, 'red', { value: 'red' }],
    [colours, ' green ', { value: 'green' }],
    [colours, 'blue', fails('The selected f is invalid.')],
    [colours, 'RED', fails('The selected f is invalid.')],
    [colours, '', REQUIRED],
    [colours, ABSENT, REQUIRED],
    [ratings, '2', { value: 2 }],
    [ratings, 3, { value: 3 }],
    [ratings, '4', fails('The selected f is invalid.')],
  ])('%#: reads %j as %j', async (struct, sent, expected) => {
    expect(await parse(struct, sent)).toEqual(expected);
  });
});
