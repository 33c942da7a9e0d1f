import { checkPassword } from '../../domain/auth/password-policy.js';
import type { Clock } from '../../ports/clock.js';
import type { PasswordHasher } from '../../ports/password-hasher.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { EndAllSessions } from './end-all-sessions.js';

export type SetPasswordResult =
  | { kind: 'set'; epoch: number; deleted: number }
  | { kind: 'invalid'; reason: string }
  | { kind: 'not-found' };

/**
 * An administrator sets a user's password (a forgotten one, or a first one for a user made
 * without). Whoever was signed in may have been signed in by the old password, so every
 * session of the user ends, as after a reset by mail.
 */
export class SetPassword {
  constructor(
    private readonly users: UserRepository,
    private readonly hasher: PasswordHasher,
    private readonly endAllSessions: EndAllSessions,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: number; password: string }): Promise<SetPasswordResult> {
    const check = checkPassword(input.password);
    if (check.kind === 'unacceptable') return { kind: 'invalid', reason: check.reason };
    const hash = await this.hasher.hash(input.password);
    // Read after hashing, not before: the record saved is as fresh as it can be.
    const user = await this.users.findById(input.userId);
    if (user === null) return { kind: 'not-found' };
    user.setPasswordHash(hash, this.clock.now());
    await this.users.save(user);
    const ended = await this.endAllSessions.execute(user.id);
    return ended.kind === 'ended' ? { kind: 'set', epoch: ended.epoch, deleted: ended.deleted } : { kind: 'not-found' };
  }
}
