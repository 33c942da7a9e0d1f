import { RESET_TOKEN_BYTES, resetTokenFrom, resetTokenHash } from '../../domain/auth/password-reset.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordResetTokens } from '../../ports/password-reset-tokens.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { UserRepository } from '../../ports/user-repository.js';

/**
 * 'Forgot your password?': a user with this address gets a link with a new token (replacing an
 * older one). Nothing tells the caller whether the address exists: the page says the same.
 */
export class RequestPasswordReset {
  constructor(
    private readonly users: UserRepository,
    private readonly tokens: PasswordResetTokens,
    private readonly mail: AuthMail,
    private readonly random: RandomSource,
    private readonly clock: Clock,
  ) {}

  async execute(email: string): Promise<void> {
    const user = await this.users.findByEmail(email);
    if (user === null) return;
    const token = resetTokenFrom(this.random.bytes(RESET_TOKEN_BYTES));
    await this.tokens.put(user.id, resetTokenHash(token, user), this.clock.now());
    await this.mail.sendPasswordReset(user, token);
  }
}
