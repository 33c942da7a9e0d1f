import { object } from 'superstruct';
import { beforeEach, describe, expect, it } from 'vitest';
import { integer, optionalText, text } from '../../../../adapters/http/validation/fields.js';
import { formSchema } from '../../../../adapters/http/validation/form-schema.js';
import { InMemoryRecordLookup } from '../../../../adapters/persistence/memory/in-memory-record-lookup.js';
import type { FieldRules } from '../../../../adapters/http/validation/validator.js';
import { errorsOf, formContext, ruleErrors } from './support.js';

describe('unique and exists, through the RecordLookup port', () => {
  let records: InMemoryRecordLookup;
  beforeEach(() => {
    records = new InMemoryRecordLookup(['users', 'categories']);
    records.insert('users', { id: 1, email: 'ada@example.com' });
    records.insert('users', { id: 2, email: 'grace@example.com' });
    records.insert('categories', { id: 10, slug: 'books' });
  });

  async function messagesFor(input: Record<string, unknown>, chain: (rules: FieldRules) => void): Promise<string[]> {
    const errors = await ruleErrors(input, (v) => chain(v.field('x')), formContext({ records }));
    return errors['x'] ?? [];
  }

  const taken = ['The x has already been taken.'];
  const invalid = ['The selected x is invalid.'];

  it.each<[string, Record<string, unknown>, (rules: FieldRules) => void, string[]]>([
    ['unique: a new address', { x: 'new@example.com' }, (r) => r.unique('users', 'email'), []],
    ['unique: taken', { x: 'ada@example.com' }, (r) => r.unique('users', 'email'), taken],
    ['unique: exact, so lower-case first', { x: 'ADA@example.com' }, (r) => r.unique('users', 'email'), []],
    ['unique: own row ignored (edit form)', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore(1), []],
    ['unique: own id as text from a hidden field', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore('1'), []],
    ['unique: another row ignored', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore(2), taken],
    ['unique: no id (create form) ignores nothing', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore(undefined), taken],
    ['unique: ignore by another column', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore('ada@example.com', 'email'), []],
    ['unique: a missing value is left to required', {}, (r) => r.unique('users', 'email'), []],
    ['unique: a value that is not text or a number fails', { x: ['ada@example.com'] }, (r) => r.unique('users', 'email'), taken],
    ['unique: custom message', { x: 'ada@example.com' }, (r) => r.unique('users', 'email').ignore(null).message('Already registered.'), ['Already registered.']],
    ['exists: found', { x: 'books' }, (r) => r.exists('categories', 'slug'), []],
    ['exists: found by number', { x: 10 }, (r) => r.exists('categories', 'id'), []],
    ['exists: not found', { x: 'films' }, (r) => r.exists('categories', 'slug'), invalid],
    ['exists: a missing value is left to required', { x: '' }, (r) => r.exists('categories', 'slug'), []],
    ['exists: injection-looking text is just a value', { x: "books' OR '1'='1" }, (r) => r.exists('categories', 'slug'), invalid],
  ])('%s', async (_description, input, chain, messages) => {
    expect(await messagesFor(input, chain)).toEqual(messages);
  });

  it('fails the whole validation on a table name that is not a plain identifier', async () => {
    await expect(messagesFor({ x: 'a' }, (r) => r.unique('users; DROP TABLE users', 'email'))).rejects.toThrow(TypeError);
    await expect(messagesFor({ x: 'a' }, (r) => r.exists('categories', 'Slug'))).rejects.toThrow(TypeError);
    await expect(messagesFor({ x: 'a' }, (r) => r.unique('users', 'email').ignore(1, 'id = id OR 1'))).rejects.toThrow(TypeError);
  });

  it('serves a create-and-edit form carrying the row id in a hidden field', async () => {
    const profile = formSchema({
      struct: object({ id: integer(), email: text(), nickname: optionalText() }),
      // The domain stores emails lower-cased and the lookup is exact, so the form lower-cases first.
      prepare(input) {
        const form = input as Record<string, unknown>;
        return typeof form['email'] === 'string' ? { ...form, email: form['email'].toLowerCase() } : form;
      },
      rules(v, form) {
        v.field('email').required().email().unique('users', 'email').ignore(form.id);
      },
    });
    const context = formContext({ records });
    expect(await errorsOf(profile, { id: '1', email: 'ADA@example.com' }, context)).toEqual({});
    expect(await errorsOf(profile, { id: '2', email: 'Ada@Example.com' }, context)).toEqual({ email: ['The email has already been taken.'] });
    // An id that does not parse is reported; the email's rules still run on their own.
    expect(await errorsOf(profile, { id: 'x', email: 'ada@example.com' }, context)).toEqual({
      id: ['The id field must be a whole number.'],
      email: ['The email has already been taken.'],
    });
  });
});

describe('currentPassword, through the context password verifier', () => {
  const incorrect = ['The current password is incorrect.'];
  const withPassword = { id: 1, passwordHash: 'hashed:correct horse' };

  it.each<[string, Record<string, unknown>, { id: number; passwordHash: string | null } | null, string[]]>([
    ['the right password', { current_password: 'correct horse' }, withPassword, []],
    ['a wrong password', { current_password: 'battery staple' }, withPassword, incorrect],
    ['no password typed, even without required()', {}, withPassword, incorrect],
    ['blank text', { current_password: '' }, withPassword, incorrect],
    ['an account without a password (social login)', { current_password: 'anything' }, { id: 1, passwordHash: null }, incorrect],
    ['a guest', { current_password: 'correct horse' }, null, incorrect],
    ['not text', { current_password: ['correct horse'] }, withPassword, incorrect],
  ])('%s', async (_description, input, user, messages) => {
    const errors = await ruleErrors(input, (v) => v.field('current_password').currentPassword(), formContext({ user }));
    expect(errors['current_password'] ?? []).toEqual(messages);
  });

  it('says "required" alone when a required password is missing', async () => {
    const errors = await ruleErrors({}, (v) => v.field('current_password').required().currentPassword(), formContext({ user: withPassword }));
    expect(errors).toEqual({ current_password: ['The current password field is required.'] });
  });

  it('verifies the typed password against the user hash, unaltered', async () => {
    const calls: Array<[string, string]> = [];
    const passwords = {
      verify: (hash: string, plain: string) => {
        calls.push([hash, plain]);
        return Promise.resolve(false);
      },
    };
    await ruleErrors({ current_password: '  padded  ' }, (v) => v.field('current_password').currentPassword(), formContext({ user: withPassword, passwords }));
    expect(calls).toEqual([['hashed:correct horse', '  padded  ']]);
  });
});
