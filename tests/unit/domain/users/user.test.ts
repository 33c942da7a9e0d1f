import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH, User, newUser } from '../../../../domain/users/user.js';
import type { UserProps } from '../../../../domain/users/user.js';

const NOW = new Date('2024-05-01T10:00:00Z');
const LATER = new Date('2024-05-02T11:30:00Z');

const valid = { name: 'Ada Lovelace', email: 'ada@example.com', passwordHash: '$argon2id$v=19$hash', verified: false, now: NOW };

function props(overrides: Partial<UserProps> = {}): UserProps {
  return {
    id: 1,
    name: 'Ada',
    email: 'ada@example.com',
    passwordHash: '$argon2id$v=19$hash',
    emailVerifiedAt: null,
    sessionEpoch: 0,
    createdAt: NOW,
    updatedAt: NOW,
    ...overrides,
  };
}

describe('newUser', () => {
  it('normalises a valid input into a fresh user', () => {
    expect(newUser({ ...valid, name: '  Ada Lovelace \n', email: ' Ada@Example.COM ' })).toEqual({
      kind: 'valid',
      user: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        passwordHash: '$argon2id$v=19$hash',
        emailVerifiedAt: null,
        sessionEpoch: 0,
        createdAt: NOW,
        updatedAt: NOW,
      },
    });
  });

  it.each([
    ['empty', '', 'is required'],
    ['blank', '   ', 'is required'],
    ['of 256 characters', 'x'.repeat(NAME_MAX_LENGTH + 1), `must be at most ${NAME_MAX_LENGTH} characters`],
  ])('refuses a name that is %s', (_what, name, reason) => {
    expect(newUser({ ...valid, name })).toEqual({ kind: 'invalid', field: 'name', reason });
  });

  it.each([
    ['of 255 characters', 'x'.repeat(NAME_MAX_LENGTH), 'x'.repeat(NAME_MAX_LENGTH)],
    ['of 255 characters inside spaces (length counts after trimming)', `  ${'x'.repeat(NAME_MAX_LENGTH)}  `, 'x'.repeat(NAME_MAX_LENGTH)],
    ['of 255 emoji (510 UTF-16 units: length counts characters)', '😀'.repeat(NAME_MAX_LENGTH), '😀'.repeat(NAME_MAX_LENGTH)],
    ['of one letter', 'A', 'A'],
  ])('accepts a name %s', (_what, name, expected) => {
    const check = newUser({ ...valid, name });
    expect(check.kind === 'valid' && check.user.name).toBe(expected);
  });

  it.each([
    ['that is empty', '', 'is required'],
    ['that is blank', '   ', 'is required'],
    ['without @', 'ada.example.com', 'is not a valid email address'],
    ['with a space', 'ada @example.com', 'is not a valid email address'],
    ['of 262 characters', `${'a'.repeat(250)}@example.com`, 'is too long'],
  ])('refuses an email address %s', (_what, email, reason) => {
    expect(newUser({ ...valid, email })).toEqual({ kind: 'invalid', field: 'email', reason });
  });

  it('checks the name before the email', () => {
    expect(newUser({ ...valid, name: '', email: '' })).toMatchObject({ kind: 'invalid', field: 'name' });
  });

  it.each<[boolean, Date | null]>([
    [true, NOW],
    [false, null],
  ])('verified=%s sets emailVerifiedAt to %s', (verified, expected) => {
    const check = newUser({ ...valid, verified });
    expect(check.kind === 'valid' && check.user.emailVerifiedAt).toEqual(expected);
  });

  it.each<[string | null, string | null]>([
    ['$argon2id$v=19$hash', '$argon2id$v=19$hash'],
    ['', null],
    [null, null],
  ])('password hash %j is stored as %j', (passwordHash, expected) => {
    const check = newUser({ ...valid, passwordHash });
    expect(check.kind === 'valid' && check.user.passwordHash).toBe(expected);
  });
});

describe('User', () => {
  it.each<[string | null, boolean]>([
    ['$argon2id$v=19$hash', true],
    [null, false],
    ['', false],
  ])('hasPassword() with hash %j is %s', (passwordHash, expected) => {
    expect(User.restore(props({ passwordHash })).hasPassword()).toBe(expected);
  });

  it('markVerified sets the moment once and keeps the first one', () => {
    const user = User.restore(props());
    expect(user.isVerified()).toBe(false);

    user.markVerified(NOW);
    expect(user.isVerified()).toBe(true);
    expect(user.emailVerifiedAt).toEqual(NOW);
    expect(user.updatedAt).toEqual(NOW);

    user.markVerified(LATER);
    expect(user.emailVerifiedAt).toEqual(NOW);
    expect(user.updatedAt).toEqual(NOW);
  });

  it('markVerified on an already verified user changes nothing', () => {
    const user = User.restore(props({ emailVerifiedAt: NOW, updatedAt: NOW }));
    user.markVerified(LATER);
    expect(user.toProps()).toEqual(props({ emailVerifiedAt: NOW, updatedAt: NOW }));
  });

  const date = fc.date({ min: new Date('1970-01-01T00:00:00Z'), max: new Date('2100-01-01T00:00:00Z'), noInvalidDate: true });
  const userProps: fc.Arbitrary<UserProps> = fc.record({
    id: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
    name: fc.string({ minLength: 1, maxLength: 40 }),
    email: fc.emailAddress(),
    passwordHash: fc.option(fc.string(), { nil: null }),
    emailVerifiedAt: fc.option(date, { nil: null }),
    sessionEpoch: fc.nat(),
    createdAt: date,
    updatedAt: date,
  });

  it('property: restore then toProps gives the same props back', () => {
    fc.assert(
      fc.property(userProps, (p) => {
        const user = User.restore(p);
        expect(user).toBeInstanceOf(User);
        expect(user.toProps()).toEqual(p);
        expect(User.restore(user.toProps()).toProps()).toEqual(p);
      }),
    );
  });

  it('property: a user made by newUser and restored keeps every field', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1 }), fc.boolean(), date, (id, verified, now) => {
        const check = newUser({ ...valid, verified, now });
        if (check.kind !== 'valid') throw new Error('expected a valid user');
        expect(User.restore({ id, ...check.user }).toProps()).toEqual({ id, ...check.user });
      }),
    );
  });
});
