import { PasswordReset } from '../../domain/auth/events.js';
import { checkPassword } from '../../domain/auth/password-policy.js';
import { isResetToken, resetTokenAlive, resetTokenHash } from '../../domain/auth/password-reset.js';
import type { User } from '../../domain/users/user.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { PasswordResetTokens } from '../../ports/password-reset-tokens.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type ResetPasswordResult =
  | { kind: 'reset'; user: User }
  /** Unknown address, wrong, used or expired token: one answer, the link no longer works. */
  | { kind: 'invalid-token' }
  | { kind: 'invalid-password'; reason: string };

/**
 * Sets a new password from a reset link: the token must be the user's, unused and under an
 * hour old, and is used up by the attempt. Every session of the user ends (the epoch goes up).
 * The token is hashed together with the user's current address and password hash, so a link
 * made before either changed no longer matches (`resetTokenHash`).
 */
export class ResetPassword {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: PasswordResetTokens,
    private readonly hasher: PasswordHasher,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  async execute(input: { email: string; token: string; password: string }): Promise<ResetPasswordResult> {
    const check = checkPassword(input.password);
    if (check.kind === 'unacceptable') return { kind: 'invalid-password', reason: check.reason };
    if (!isResetToken(input.token)) return { kind: 'invalid-token' };
    const user = await this.users.findByEmail(input.email);
    // An unknown address runs the same statement as a known one with a wrong token (no user has
    // id 0), so the answer's timing does not tell which addresses have accounts.
    const createdAt = await this.tokens.consume(user?.id ?? 0, resetTokenHash(input.token, user ?? { email: input.email, passwordHash: null }));
    if (user === null) return { kind: 'invalid-token' };
    const now = this.clock.now();
    if (createdAt === null || !resetTokenAlive(createdAt, now)) return { kind: 'invalid-token' };

    user.setPasswordHash(await this.hasher.hash(input.password), now);
    await this.users.save(user);
    const epoch = await this.users.raiseSessionEpoch(user.id, now);
    if (epoch !== null) user.sessionEpoch = epoch;
    await this.events.publish(new PasswordReset(user.id));
    return { kind: 'reset', user };
  }
}
