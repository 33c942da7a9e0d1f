import { Verified } from '../../domain/auth/events.js';
import { emailVerificationHash } from '../../domain/auth/email-verification.js';
import { sameSecret } from '../../domain/security/constant-time.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type VerifyEmailResult = { kind: 'verified' } | { kind: 'already-verified' } | { kind: 'invalid' };

/**
 * Marks the address verified from the link's `{id}/{hash}` (the caller has checked the link's
 * signature and that the signed-in user is `userId`). A link for an older address is invalid.
 */
export class VerifyEmail {
  constructor(
    private readonly users: UserRepository,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number, hash: string): Promise<VerifyEmailResult> {
    const user = await this.users.findById(userId);
    if (user === null || !sameSecret(emailVerificationHash(user.email), hash)) return { kind: 'invalid' };
    if (user.isVerified()) return { kind: 'already-verified' };
    user.markVerified(this.clock.now());
    await this.users.save(user);
    await this.events.publish(new Verified(user.id));
    return { kind: 'verified' };
  }
}
