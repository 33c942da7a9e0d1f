import type { User } from '../../domain/users/user.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { Clock } from '../../ports/clock.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type UpdateProfileResult =
  | { kind: 'updated'; user: User; emailChanged: boolean }
  | { kind: 'invalid'; field: 'name' | 'email'; reason: string }
  | { kind: 'email-taken' }
  | { kind: 'not-found' };

/**
 * The account page's profile card: a new name and address. A new address is unverified and
 * gets its own verification link (the old address's links stop working: they carry its hash).
 * Another user with the address is refused by the store too, so a race cannot make two.
 */
export class UpdateProfile {
  constructor(
    private readonly users: UserRepository,
    private readonly mail: AuthMail,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: number; name: string; email: string }): Promise<UpdateProfileResult> {
    // Loaded afresh: `save` writes every column, and a stale copy could undo a newer change.
    const user = await this.users.findById(input.userId);
    if (user === null) return { kind: 'not-found' };
    const change = user.changeProfile({ name: input.name, email: input.email }, this.clock.now());
    if (change.kind === 'invalid') return change;
    const saved = await this.users.save(user);
    if (saved.kind === 'duplicate-email') return { kind: 'email-taken' };
    if (change.emailChanged) await this.mail.sendEmailVerification(user);
    return { kind: 'updated', user, emailChanged: change.emailChanged };
  }
}
