import type { UserRepository } from '../../ports/user-repository.js';
import type { ConfirmIdentity } from './confirm-identity.js';

export type DeleteAccountResult =
  | { kind: 'deleted' }
  | { kind: 'wrong-password' }
  /** A user without a password who has not signed in or confirmed within three hours. */
  | { kind: 'needs-confirmation' }
  | { kind: 'not-found' };

/**
 * A user deletes their own account, after `ConfirmIdentity`. The schema removes what belongs
 * to the user, database sessions included; a cookie session ends at its next request, since
 * its user is gone. The caller signs this session out.
 */
export class DeleteAccount {
  constructor(
    private readonly users: UserRepository,
    private readonly confirmIdentity: ConfirmIdentity,
  ) {}

  async execute(input: { userId: number; password: string | null; recentlyConfirmed: boolean }): Promise<DeleteAccountResult> {
    const user = await this.users.findById(input.userId);
    if (user === null) return { kind: 'not-found' };
    const confirmation = await this.confirmIdentity.execute(user, input);
    if (confirmation.kind !== 'confirmed') return confirmation;
    return (await this.users.remove(user.id)) ? { kind: 'deleted' } : { kind: 'not-found' };
  }
}
