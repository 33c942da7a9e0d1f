import { beforeEach, describe, expect, it } from 'vitest';
import { ChangePassword } from '../../../../application/auth/change-password.js';
import { CheckPassword } from '../../../../application/auth/check-password.js';
import { ConfirmIdentity } from '../../../../application/auth/confirm-identity.js';
import { DeleteAccount } from '../../../../application/auth/delete-account.js';
import { UpdateProfile } from '../../../../application/auth/update-profile.js';
import { CreateUser } from '../../../../application/users/create-user.js';
import { FixedClock } from '../../../../adapters/clock/fixed-clock.js';
import { InMemoryUserRepository } from '../../../../adapters/persistence/memory/in-memory-user-repository.js';
import type { User } from '../../../../domain/users/user.js';
import { PasswordChanged } from '../../../../domain/auth/events.js';
import type { EventBus } from '../../../../ports/event-bus.js';
import type { AuthMail } from '../../../../ports/auth-mail.js';
import type { PasswordHasher } from '../../../../ports/password-hasher.js';

class PlainHasher implements PasswordHasher {
  hash(password: string): Promise<string> {
    return Promise.resolve(`hashed:${password}`);
  }
  verify(hash: string, password: string): Promise<boolean> {
    return Promise.resolve(hash === `hashed:${password}`);
  }
}

class RecordingMail implements AuthMail {
  readonly verifications: string[] = [];
  sendPasswordReset(): Promise<void> {
    return Promise.resolve();
  }
  sendEmailVerification(user: User): Promise<void> {
    this.verifications.push(user.email);
    return Promise.resolve();
  }
}

describe('the account page use cases', () => {
  let clock: FixedClock;
  let users: InMemoryUserRepository;
  let mail: RecordingMail;
  let withPassword: User;
  let withoutPassword: User;
  const hasher = new PlainHasher();
  const confirm = new ConfirmIdentity(new CheckPassword(hasher));

  beforeEach(async () => {
    clock = new FixedClock('2026-03-01T12:00:00Z');
    users = new InMemoryUserRepository();
    mail = new RecordingMail();
    const create = new CreateUser(users, hasher, clock);
    const a = await create.execute({ name: 'Ada', email: 'ada@example.com', password: 'correct horse', verified: true });
    const b = await create.execute({ name: 'Social', email: 'social@example.com', verified: true });
    if (a.kind !== 'created' || b.kind !== 'created') throw new Error('setup');
    [withPassword, withoutPassword] = [a.user, b.user];
  });

  describe('UpdateProfile', () => {
    it('mails a new, now unverified address, and nothing when only the name changes', async () => {
      const update = new UpdateProfile(users, mail, clock);
      expect(await update.execute({ userId: withPassword.id, name: 'Ada King', email: 'ada@example.com' })).toMatchObject({ kind: 'updated', emailChanged: false });
      expect(mail.verifications).toEqual([]);
      expect(await update.execute({ userId: withPassword.id, name: 'Ada King', email: 'king@example.com' })).toMatchObject({ kind: 'updated', emailChanged: true });
      expect(mail.verifications).toEqual(['king@example.com']);
      expect((await users.findById(withPassword.id))?.isVerified()).toBe(false);
    });

    it("refuses another user's address and bad input as values", async () => {
      const update = new UpdateProfile(users, mail, clock);
      expect(await update.execute({ userId: withPassword.id, name: 'Ada', email: 'SOCIAL@example.com' })).toEqual({ kind: 'email-taken' });
      expect(await update.execute({ userId: withPassword.id, name: '', email: 'ada@example.com' })).toEqual({ kind: 'invalid', field: 'name', reason: 'is required' });
      expect(await update.execute({ userId: 999, name: 'Ada', email: 'ada@example.com' })).toEqual({ kind: 'not-found' });
      expect(mail.verifications).toEqual([]);
    });
  });

  describe('ChangePassword', () => {
    const published: object[] = [];
    const events: EventBus = { publish: (event) => Promise.resolve(void published.push(event)) };
    beforeEach(() => void published.splice(0));

    it('needs the current password when there is one, then raises the session epoch and tells PasswordChanged', async () => {
      const change = new ChangePassword(users, hasher, new CheckPassword(hasher), clock, events);
      expect(await change.execute({ userId: withPassword.id, currentPassword: 'wrong', password: 'new password' })).toEqual({ kind: 'wrong-current-password' });
      expect(await change.execute({ userId: withPassword.id, currentPassword: null, password: 'new password' })).toEqual({ kind: 'wrong-current-password' });
      expect(await change.execute({ userId: withPassword.id, currentPassword: 'correct horse', password: 'short' })).toMatchObject({ kind: 'invalid-password' });
      expect(await change.execute({ userId: withPassword.id, currentPassword: 'correct horse', password: 'new password' })).toEqual({ kind: 'changed', epoch: 1 });
      const saved = await users.findById(withPassword.id);
      expect([saved?.passwordHash, saved?.sessionEpoch]).toEqual(['hashed:new password', 1]);
      expect(published).toEqual([new PasswordChanged(withPassword.id, true)]);
    });

    it('sets a first password without a current one', async () => {
      const change = new ChangePassword(users, hasher, new CheckPassword(hasher), clock, events);
      expect(await change.execute({ userId: withoutPassword.id, currentPassword: null, password: 'first password' })).toEqual({ kind: 'changed', epoch: 1 });
      expect((await users.findById(withoutPassword.id))?.hasPassword()).toBe(true);
      expect(published).toEqual([new PasswordChanged(withoutPassword.id, false)]);
    });
  });

  describe('ConfirmIdentity', () => {
    it.each([
      ['a user with a password', true, 'correct horse', false, 'confirmed'],
      ['a user with a password, wrong one, though recently confirmed', true, 'wrong', true, 'wrong-password'],
      ['a user with a password, none typed', true, null, true, 'wrong-password'],
      ['a user without a password, recently confirmed', false, null, true, 'confirmed'],
      ['a user without a password, not recently', false, 'anything', false, 'needs-confirmation'],
    ] as const)('%s', async (_name, hasPassword, password, recentlyConfirmed, kind) => {
      const user = hasPassword ? withPassword : withoutPassword;
      expect(await confirm.execute(user, { password, recentlyConfirmed })).toEqual({ kind });
    });
  });

  describe('DeleteAccount', () => {
    it('removes the user only once confirmed', async () => {
      const remove = new DeleteAccount(users, confirm);
      expect(await remove.execute({ userId: withPassword.id, password: 'wrong', recentlyConfirmed: true })).toEqual({ kind: 'wrong-password' });
      expect(await remove.execute({ userId: withoutPassword.id, password: null, recentlyConfirmed: false })).toEqual({ kind: 'needs-confirmation' });
      expect(await users.count()).toBe(2);
      expect(await remove.execute({ userId: withPassword.id, password: 'correct horse', recentlyConfirmed: false })).toEqual({ kind: 'deleted' });
      expect(await remove.execute({ userId: withoutPassword.id, password: null, recentlyConfirmed: true })).toEqual({ kind: 'deleted' });
      expect(await users.count()).toBe(0);
      expect(await remove.execute({ userId: withPassword.id, password: 'correct horse', recentlyConfirmed: true })).toEqual({ kind: 'not-found' });
    });
  });
});
