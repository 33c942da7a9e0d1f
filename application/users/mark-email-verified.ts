import type { Clock } from '../../ports/clock.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { FindUserByEmail } from './find-user-by-email.js';

export type MarkEmailVerifiedResult = { kind: 'verified' } | { kind: 'already-verified' } | { kind: 'not-found' };

/** An administrator vouches for a user's address (the user skips the verification mail). */
export class MarkEmailVerified {
  constructor(
    private readonly users: UserRepository,
    private readonly findUser: FindUserByEmail,
    private readonly clock: Clock,
  ) {}

  async execute(email: string): Promise<MarkEmailVerifiedResult> {
    const user = await this.findUser.execute(email);
    if (user === null) return { kind: 'not-found' };
    if (user.isVerified()) return { kind: 'already-verified' };
    user.markVerified(this.clock.now());
    await this.users.save(user);
    return { kind: 'verified' };
  }
}
