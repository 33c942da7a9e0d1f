import { object, optional, refine, string } from 'superstruct';
import { describe, expect, it } from 'vitest';
import { checkbox, integer, list, oneOf, optionalText, text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { validate } from '../../../../adapters/http/validation/validate.js';
import { Lang } from '../../../../domain/lang/lang.js';
import { errorsOf, formContext } from './support.js';

const signup = formSchema({
  struct: object({ name: text(), age: integer(), email: text(), newsletter: checkbox(), plan: oneOf(['free', 'pro']) }),
  rules(v) {
    v.field('email').required().email();
    v.field('age').min(18);
  },
});

describe('validate: every field at once', () => {
  it('reports a number that does not parse, a missing field and a failed rule together', async () => {
    const errors = await errorsOf(signup, { age: 'twelve', email: 'not-an-address', plan: 'free' });
    expect(errors).toEqual({
      name: ['The name field is required.'],
      age: ['The age field must be a whole number.'],
      email: ['The email field must be a valid email address.'],
    });
  });

  it('reports an enum value that is not a variant with the others, not as a refusal', async () => {
    const errors = await errorsOf(signup, { name: 'Ada', age: '17', email: 'ada@example.com', plan: 'gold' });
    expect(errors).toEqual({ age: ['The age field must be at least 18.'], plan: ['The selected plan is invalid.'] });
  });

  it('gives the coerced, typed value when everything passes', async () => {
    const result = await validate(signup, { name: ' Ada ', age: '36', email: 'ada@example.com', plan: 'pro', newsletter: 'on' }, formContext());
    expect(result).toEqual({ kind: 'valid', value: { name: 'Ada', age: 36, email: 'ada@example.com', newsletter: true, plan: 'pro' } });
  });

  it('drops input the struct does not declare instead of failing on it', async () => {
    const result = await validate(signup, { name: 'Ada', age: '36', email: 'ada@example.com', plan: 'free', _token: 'csrf', _method: 'PUT' }, formContext());
    expect(result).toEqual({ kind: 'valid', value: { name: 'Ada', age: 36, email: 'ada@example.com', newsletter: false, plan: 'free' } });
  });

  it('skips the rules of a field that did not parse: one message, not a pile', async () => {
    const errors = await errorsOf(signup, { name: 'Ada', age: 'x', email: 'ada@example.com', plan: 'free' });
    expect(errors).toEqual({ age: ['The age field must be a whole number.'] });
  });

  it('does not repeat "required" when the struct and a required rule both find a field missing', async () => {
    const errors = await errorsOf(signup, { name: 'Ada', age: '20', email: '  ', plan: 'free' });
    expect(errors).toEqual({ email: ['The email field is required.'] });
  });

  it('keys nested failures by dotted path', async () => {
    const schema = formSchema({ struct: object({ address: object({ city: text(), zip: integer() }), tags: list(integer()) }) });
    expect(await errorsOf(schema, { address: { zip: 'x' }, tags: ['1', 'two'] })).toEqual({
      'address.city': ['The address city field is required.'],
      'address.zip': ['The address zip field must be a whole number.'],
      'tags.1': ['The tags item 2 field must be a whole number.'],
    });
    expect(await errorsOf(schema, { tags: [] })).toEqual({ address: ['The address field is required.'] });
    expect(await errorsOf(schema, { address: 'Main Street' })).toEqual({ address: ['The address field must be a group of fields.'] });
  });

  it('reports input that is not an object under _form', async () => {
    expect(await errorsOf(signup, ['not', 'a', 'form'])).toEqual({ _form: ['The form field must be a group of fields.'] });
  });

  it('gives refinements an app adds the general message', async () => {
    const schema = formSchema({ struct: object({ code: refine(string(), 'even', (value) => value.length % 2 === 0) }) });
    expect(await errorsOf(schema, { code: 'abc' })).toEqual({ code: ['The code field is invalid.'] });
  });

  it('hands rules what parsed, the raw input of what did not, and extra input', async () => {
    const seen: unknown[] = [];
    const schema = formSchema({
      struct: object({ age: integer(), count: integer(), note: optionalText() }),
      rules(_v, value) {
        seen.push(value);
      },
    });
    await validate(schema, { age: ' 40 ', count: 'many', note: '', password_confirmation: 'x' }, formContext());
    await validate(schema, { age: '40', count: '2', password_confirmation: 'x' }, formContext());
    expect(seen).toEqual([
      { age: 40, count: 'many', note: undefined, password_confirmation: 'x' },
      { age: 40, count: 2, password_confirmation: 'x' },
    ]);
  });
});

describe('validate: labels and messages', () => {
  const account = formSchema({
    struct: object({ password: text({ trim: false }), password_confirmation: optionalText({ trim: false }), email_address: text() }),
    labels: { email_address: 'email' },
    rules(v) {
      v.field('password').min(8).confirmed();
      v.field('password_confirmation').required();
    },
  });

  it('names a field by its label, else by its name with spaces', async () => {
    expect(await errorsOf(account, { password: 'short' })).toEqual({
      password: ['The password field must be at least 8 characters.', 'The password field confirmation does not match.'],
      password_confirmation: ['The password confirmation field is required.'],
      email_address: ['The email field is required.'],
    });
  });

  it('lets a chain label win over the form labels', async () => {
    const schema = formSchema({
      struct: object({ email_address: optionalText() }),
      labels: { email_address: 'email' },
      rules(v) {
        v.field('email_address').required().label('e-mail address');
      },
    });
    expect(await errorsOf(schema, {})).toEqual({ email_address: ['The e-mail address field is required.'] });
  });

  it('uses one label for every item of a list with `*`', async () => {
    const schema = formSchema({ struct: object({ tags: list(integer()) }), labels: { 'tags.*': 'tag' } });
    expect(await errorsOf(schema, { tags: ['x', 'y'] })).toEqual({
      'tags.0': ['The tag field must be a whole number.'],
      'tags.1': ['The tag field must be a whole number.'],
    });
  });

  it('takes a replacement set of messages', async () => {
    const terse = new Lang('en', [{ 'validation.required': ':attribute?' }]);
    const result = await validate(formSchema({ struct: object({ name: text() }) }), {}, formContext(), terse);
    expect(result).toEqual({ kind: 'invalid', errors: { name: ['name?'] } });
  });

  it('carries the error bag name for the kernel', () => {
    expect(formSchema({ struct: object({}), bag: 'login' }).bag).toBe('login');
  });
});

describe('validate: steps in the spec order', () => {
  function tracedSchema(options: { allow?: boolean; afterError?: string } = {}) {
    const steps: string[] = [];
    const schema = formSchema({
      struct: object({ email: text(), nickname: optional(string()) }),
      prepare(input) {
        steps.push('prepare');
        const form = input as Record<string, unknown>;
        return { ...form, email: typeof form['email'] === 'string' ? form['email'].toLowerCase() : form['email'] };
      },
      async authorize(_context, input) {
        steps.push(`authorize ${JSON.stringify(input)}`);
        return Promise.resolve(options.allow ?? true);
      },
      rules(v) {
        steps.push('rules');
        v.field('email').email();
      },
      after(value, errors) {
        steps.push(`after ${value.email}`);
        if (options.afterError !== undefined) errors.add('nickname', options.afterError);
      },
    });
    return { schema, steps };
  }

  it('prepares, authorizes, checks, then runs after on the prepared, valid value', async () => {
    const { schema, steps } = tracedSchema();
    expect(await validate(schema, { email: 'ADA@Example.com' }, formContext())).toEqual({ kind: 'valid', value: { email: 'ada@example.com' } });
    expect(steps).toEqual(['prepare', 'authorize {"email":"ada@example.com"}', 'rules', 'after ada@example.com']);
  });

  it('stops at authorize: forbidden, no rules run and no errors given', async () => {
    const { schema, steps } = tracedSchema({ allow: false });
    expect(await validate(schema, { email: 'bad' }, formContext())).toEqual({ kind: 'forbidden' });
    expect(steps).toEqual(['prepare', 'authorize {"email":"bad"}']);
  });

  it('skips after when the rules failed', async () => {
    const { schema, steps } = tracedSchema({ afterError: 'never' });
    expect(await validate(schema, { email: 'bad' }, formContext())).toEqual({
      kind: 'invalid',
      errors: { email: ['The email field must be a valid email address.'] },
    });
    expect(steps).toEqual(['prepare', 'authorize {"email":"bad"}', 'rules']);
  });

  it('skips after when only the struct failed', async () => {
    const { schema, steps } = tracedSchema();
    expect((await validate(schema, {}, formContext())).kind).toBe('invalid');
    expect(steps).not.toContain('after undefined');
  });

  it('turns errors added in after into an invalid result', async () => {
    const { schema } = tracedSchema({ afterError: 'That nickname is reserved.' });
    expect(await validate(schema, { email: 'ada@example.com', nickname: 'root' }, formContext())).toEqual({
      kind: 'invalid',
      errors: { nickname: ['That nickname is reserved.'] },
    });
  });

  it('passes the context to authorize, rules and after', async () => {
    const context = formContext({ user: { id: 7, passwordHash: null } });
    const seen: unknown[] = [];
    const schema = formSchema({
      struct: object({}),
      authorize: (ctx) => (seen.push(ctx), true),
      rules: (_v, _value, ctx) => void seen.push(ctx),
      after: (_value, _errors, ctx) => void seen.push(ctx),
    });
    await validate(schema, {}, context);
    expect(seen).toEqual([context, context, context]);
  });
});
