import { checkPassword } from '../../domain/auth/password-policy.js';
import { PasswordChanged } from '../../domain/auth/events.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { CheckPassword } from './check-password.js';

export type ChangePasswordResult =
  /** `epoch`: the user's new session epoch; the caller moves its own session there to stay signed in. */
  | { kind: 'changed'; epoch: number }
  | { kind: 'wrong-current-password' }
  | { kind: 'invalid-password'; reason: string }
  | { kind: 'not-found' };

/**
 * 'Change password' on the account page, and 'Set a password' for a user who has none (made by
 * a social login or an administrator): the current password is asked only when there is one.
 * Every other session of the user ends, as after a reset: whoever knew the old password, or
 * holds a copied cookie, is out.
 */
export class ChangePassword {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly checkCurrent: CheckPassword,
    private readonly clock: Clock,
    private readonly events: EventBus,
  ) {}

  async execute(input: { userId: number; currentPassword: string | null; password: string }): Promise<ChangePasswordResult> {
    const policy = checkPassword(input.password);
    if (policy.kind === 'unacceptable') return { kind: 'invalid-password', reason: policy.reason };
    const user = await this.users.findById(input.userId);
    if (user === null) return { kind: 'not-found' };
    if (user.hasPassword() && !(await this.checkCurrent.execute(user, input.currentPassword ?? ''))) return { kind: 'wrong-current-password' };

    const now = this.clock.now();
    const hadPassword = user.hasPassword();
    user.setPasswordHash(await this.hasher.hash(input.password), now);
    await this.users.save(user);
    // After the save: a session that slipped in between still dies at its next request.
    const epoch = await this.users.raiseSessionEpoch(user.id, now);
    if (epoch === null) return { kind: 'not-found' };
    await this.events.publish(new PasswordChanged(user.id, hadPassword));
    return { kind: 'changed', epoch };
  }
}
