import type { Clock } from '../../ports/clock.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type EndOtherSessionsResult = { kind: 'ended'; epoch: number } | { kind: 'not-found' };

/**
 * 'Log out other devices', and what a password change does: raises the user's session epoch,
 * so every session signed in under an older one (on any device, in any driver, also an old
 * cookie someone copied) is refused at its next request. The caller moves the current session
 * to the new epoch so that it stays signed in.
 */
export class EndOtherSessions {
  constructor(
    private readonly users: UserRepository,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number): Promise<EndOtherSessionsResult> {
    const epoch = await this.users.raiseSessionEpoch(userId, this.clock.now());
    return epoch === null ? { kind: 'not-found' } : { kind: 'ended', epoch };
  }
}
