/**
 * Spec 002's type rule: a checkbox boolean is true for `on` and false when not sent with
 * `Valid<T>` only; `Form<T>` (the unvalidated body, `ctx.form`) refuses `on`. One table, both readings.
 */
import { describe, expect, it } from 'vitest';
import { object, optional } from 'superstruct';
import { readShape } from '../../../../application/validation/read-shape.js';
import { checkbox, text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { superstructShape } from '../../../../adapters/http/validation/superstruct-shape.js';
import { validate } from '../../../../adapters/http/validation/validate.js';
import { english, german } from '../../../support/lang.js';
import { formContext } from './support.js';

const struct = object({ name: text(), remember: checkbox() });
const NOT_BOOLEAN = 'The remember field must be true or false.';
const REQUIRED = 'The remember field is required.';

/** What is sent for `remember` (absent: not sent), what `ctx.valid` makes of it, what `ctx.form` does. */
const TABLE: readonly { sent: string; value: unknown; valid: boolean; form: boolean | string }[] = [
  { sent: "'on' (a ticked checkbox)", value: 'on', valid: true, form: NOT_BOOLEAN },
  { sent: 'nothing (an unticked checkbox)', value: undefined, valid: false, form: REQUIRED },
  { sent: "'true'", value: 'true', valid: true, form: true },
  { sent: "'false'", value: 'false', valid: false, form: false },
  { sent: 'JSON true', value: true, valid: true, form: true },
  { sent: 'JSON false', value: false, valid: false, form: false },
  { sent: "'1'", value: '1', valid: true, form: NOT_BOOLEAN },
  { sent: "'off'", value: 'off', valid: false, form: NOT_BOOLEAN },
  { sent: "hidden '0' then '1'", value: ['0', '1'], valid: true, form: NOT_BOOLEAN },
  { sent: "'yes'", value: 'yes', valid: false, form: NOT_BOOLEAN },
];

function input(value: unknown): Record<string, unknown> {
  return value === undefined ? { name: 'Ada' } : { name: 'Ada', remember: value };
}

describe('a checkbox boolean: Valid<T> reads the browser, Form<T> refuses `on`', () => {
  it.each(TABLE)('sent $sent: ctx.valid gives $valid, ctx.form gives $form', async ({ value, valid, form }) => {
    const validated = await validate(formSchema({ struct }), input(value), formContext());
    if (value === 'yes') expect(validated).toEqual({ kind: 'invalid', errors: { remember: [NOT_BOOLEAN] } });
    else expect(validated).toEqual({ kind: 'valid', value: { name: 'Ada', remember: valid } });

    const read = readShape(superstructShape(struct, { unvalidated: true }), input(value), english);
    if (typeof form === 'boolean') expect(read).toEqual({ kind: 'read', value: { name: 'Ada', remember: form } });
    else expect(read).toEqual({ kind: 'unfit', errors: { remember: [form] } });
  });

  it('an optional checkbox not sent is undefined in Form<T>, not false', () => {
    const read = readShape(superstructShape(object({ remember: optional(checkbox()) }), { unvalidated: true }), {}, english);
    expect(read).toEqual({ kind: 'read', value: {} });
  });

  it('the refusal is in the request’s language, with every field that does not fit', () => {
    const read = readShape(superstructShape(struct, { unvalidated: true }), { remember: 'on' }, german);
    expect(read).toEqual({ kind: 'unfit', errors: { name: ['Das Feld name ist erforderlich.'], remember: ['Das Feld remember muss wahr oder falsch sein.'] } });
  });

  it('reading a body as Form<T> leaves the same body’s meaning for Valid<T> untouched', async () => {
    const body = { name: 'Ada', remember: 'on' };
    expect(readShape(superstructShape(struct, { unvalidated: true }), body, english).kind).toBe('unfit');
    expect(await validate(formSchema({ struct }), body, formContext())).toEqual({ kind: 'valid', value: { name: 'Ada', remember: true } });
    expect(body).toEqual({ name: 'Ada', remember: 'on' });
  });
});
