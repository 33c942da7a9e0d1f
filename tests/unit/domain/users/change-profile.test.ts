import { describe, expect, it } from 'vitest';
import { NAME_MAX_LENGTH, User } from '../../../../domain/users/user.js';

const NOW = new Date('2024-05-01T10:00:00Z');
const LATER = new Date('2024-05-02T11:30:00Z');

function verifiedUser(): User {
  return User.restore({
    id: 1,
    name: 'Ada',
    email: 'ada@example.com',
    passwordHash: '$argon2id$v=19$hash',
    emailVerifiedAt: NOW,
    sessionEpoch: 0,
    createdAt: NOW,
    updatedAt: NOW,
  });
}

describe('User.changeProfile', () => {
  it('renames and keeps the verification when the address stays (in any spelling)', () => {
    const user = verifiedUser();
    expect(user.changeProfile({ name: '  Ada King ', email: ' ADA@example.com' }, LATER)).toEqual({ kind: 'changed', emailChanged: false });
    expect([user.name, user.email, user.emailVerifiedAt, user.updatedAt]).toEqual(['Ada King', 'ada@example.com', NOW, LATER]);
  });

  it('makes a new address unverified', () => {
    const user = verifiedUser();
    expect(user.changeProfile({ name: 'Ada', email: 'New@Example.com' }, LATER)).toEqual({ kind: 'changed', emailChanged: true });
    expect([user.email, user.emailVerifiedAt, user.updatedAt]).toEqual(['new@example.com', null, LATER]);
  });

  it('changes nothing, not even updatedAt, when nothing changed', () => {
    const user = verifiedUser();
    user.changeProfile({ name: 'Ada', email: 'ada@example.com' }, LATER);
    expect(user.updatedAt).toEqual(NOW);
  });

  it.each([
    [{ name: ' ', email: 'ada@example.com' }, 'name', 'is required'],
    [{ name: 'x'.repeat(NAME_MAX_LENGTH + 1), email: 'ada@example.com' }, 'name', `must be at most ${NAME_MAX_LENGTH} characters`],
    [{ name: 'Ada', email: 'not an address' }, 'email', 'is not a valid email address'],
  ])('refuses %j as a value and leaves the user as it was', (input, field, reason) => {
    const user = verifiedUser();
    expect(user.changeProfile(input, LATER)).toEqual({ kind: 'invalid', field, reason });
    expect(user.toProps()).toEqual(verifiedUser().toProps());
  });
});
