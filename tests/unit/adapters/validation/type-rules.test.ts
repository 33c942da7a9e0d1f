/** Spec 002, 'Form rules for types' (under Models and migrations), one named test each. */
import { describe, expect, it } from 'vitest';
import { checkbox, integer, list, oneOf, text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { validate } from '../../../../adapters/http/validation/validate.js';
import { object } from 'superstruct';
import { german } from '../../../support/lang.js';
import { formContext } from './support.js';

const form = formSchema({
  struct: object({ name: text(), subscribe: checkbox(), colours: list(), plan: oneOf(['free', 'pro'] as const), seats: integer() }),
  rules: (v) => void v.field('name').min(2),
});

describe('form rules for types', () => {
  it('a checkbox boolean is true for `on` and false when not sent', async () => {
    expect(await validate(form, { name: 'Ada', subscribe: 'on', plan: 'pro', seats: '3' }, formContext())).toMatchObject({ kind: 'valid', value: { subscribe: true } });
    expect(await validate(form, { name: 'Ada', plan: 'pro', seats: '3' }, formContext())).toMatchObject({ kind: 'valid', value: { subscribe: false } });
  });

  it('a list gives an empty list when nothing is chosen', async () => {
    expect(await validate(form, { name: 'Ada', plan: 'free', seats: '1' }, formContext())).toMatchObject({ kind: 'valid', value: { colours: [] } });
  });

  it('an enum value outside its variants is a validation error reported with the others (also one that does not parse)', async () => {
    expect(await validate(form, { name: 'A', plan: 'gold', seats: 'many' }, formContext(), german)).toEqual({
      kind: 'invalid',
      errors: {
        plan: ['Die Auswahl für plan ist ungültig.'],
        seats: ['Das Feld seats muss eine ganze Zahl sein.'],
        name: ['Das Feld name muss mindestens 2 Zeichen lang sein.'],
      },
    });
  });
});
