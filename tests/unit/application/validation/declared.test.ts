import { describe, expect, it } from 'vitest';
import { validateForm } from '../../../../application/validation/validate-form.js';
import { german } from '../../../support/lang.js';
import { asIs, context, declaredErrorsOf } from './support.js';

describe('the declarative form (the spec attribute form, without decorators)', () => {
  it('reads each key as a call of the chain: true for none, the value for one, a list for several', async () => {
    const errors = await declaredErrorsOf(
      { email: 'nope', password: 'short', age: '12' },
      {
        email: { required: true, email: true, max: 255 },
        password: { required: true, between: [8, 64] },
        age: { integer: true, gte: 18 },
        name: { required: true },
      },
    );
    expect(errors).toEqual({
      email: ['The email field must be a valid email address.'],
      password: ['The password field must be between 8 and 64 characters.'],
      age: ['The age field must be greater than or equal to 18.'],
      name: ['The name field is required.'],
    });
  });

  it('passes valid input', async () => {
    expect(await declaredErrorsOf({ email: 'ada@example.com' }, { email: { required: true, email: true } })).toEqual({});
  });

  it('each: rules for every item, errors on tags.0, tags.1; distinct marks each repeat', async () => {
    const errors = await declaredErrorsOf({ tags: ['ok', 'way too long', 'ok'] }, { tags: { each: { max: 5 }, distinct: true } });
    expect(errors).toEqual({
      'tags.1': ['The tags item 2 field must not be greater than 5 characters.'],
      'tags.2': ['The tags item 3 field has a duplicate value.'],
    });
  });

  it('nested: a group’s fields and each group of a list', async () => {
    const errors = await declaredErrorsOf(
      { address: { city: '' }, lines: [{ qty: 1 }, { qty: 0 }] },
      { address: { nested: { city: { required: true } } }, lines: { nested: { qty: { gte: 1 } } } },
    );
    expect(errors).toEqual({
      'address.city': ['The address city field is required.'],
      'lines.1.qty': ['The lines item 2 qty field must be greater than or equal to 1.'],
    });
  });

  it('label and per-rule messages, in the language of the request', async () => {
    const fields = { nick: { required: true, label: 'Spitzname' }, plan: { required: true, messages: { required: 'Pick a plan.' } } };
    expect(await declaredErrorsOf({}, fields, german)).toEqual({ nick: ['Das Feld Spitzname ist erforderlich.'], plan: ['Pick a plan.'] });
  });

  it('rename: the input name differs from the property; errors use the input name, the value the property', async () => {
    const fields = { emailAddress: { rename: 'email', required: true, email: true } };
    expect(await declaredErrorsOf({ email: 'bad' }, fields)).toEqual({ email: ['The email field must be a valid email address.'] });
    const result = await validateForm({ shape: asIs, fields }, { email: 'ada@example.com' }, context());
    expect(result).toMatchObject({ kind: 'valid', value: { emailAddress: 'ada@example.com' } });
  });

  it('unique with ignoreField serves a create-and-edit form', async () => {
    const fields = { email: { unique: ['users', 'email', { ignoreField: 'id' }] as [string, string, { ignoreField: string }] } };
    expect(await declaredErrorsOf({ email: 'ada@example.com', id: 1 }, fields)).toEqual({});
    expect(await declaredErrorsOf({ email: 'ada@example.com' }, fields)).toEqual({ email: ['The email has already been taken.'] });
  });

  it('refuses a key that names no rule, as a programming error', async () => {
    await expect(declaredErrorsOf({}, { x: { requird: true } as never })).rejects.toThrow("Unknown validation rule 'requird'");
  });

  it('runs together with a rules() function', async () => {
    const result = await validateForm(
      { shape: asIs, fields: { a: { required: true } }, rules: (v) => void v.field('b').required() },
      {},
      context(),
    );
    expect(result).toEqual({ kind: 'invalid', errors: { a: ['The a field is required.'], b: ['The b field is required.'] } });
  });
});
