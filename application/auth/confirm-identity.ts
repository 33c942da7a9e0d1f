import type { User } from '../../domain/users/user.js';
import type { CheckPassword } from './check-password.js';

export type ConfirmIdentityResult =
  | { kind: 'confirmed' }
  | { kind: 'wrong-password' }
  /** No password to type, and no login or confirmation within three hours: confirm first. */
  | { kind: 'needs-confirmation' };

/**
 * The check before the account page's irreversible buttons ('Log out other devices', 'Delete
 * account'): who has a password types it, whatever they confirmed earlier; who has none (a
 * social login) must have signed in or confirmed within three hours, which the caller reads
 * from the session.
 */
export class ConfirmIdentity {
  constructor(private readonly checkPassword: CheckPassword) {}

  async execute(user: User, input: { password: string | null; recentlyConfirmed: boolean }): Promise<ConfirmIdentityResult> {
    if (user.hasPassword()) return (await this.checkPassword.execute(user, input.password ?? '')) ? { kind: 'confirmed' } : { kind: 'wrong-password' };
    return input.recentlyConfirmed ? { kind: 'confirmed' } : { kind: 'needs-confirmation' };
  }
}
