import type { Clock } from '../../ports/clock.js';
import type { SessionStore } from '../../ports/session-store.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type EndAllSessionsResult = { kind: 'ended'; epoch: number; deleted: number } | { kind: 'not-found' };

/**
 * Signs a user out everywhere, from outside any of their sessions (an administrator). The
 * epoch goes up first: that alone ends every session of every driver, copied cookies
 * included, so a failure after it leaves nothing signed in. Then the rows of the database
 * driver go, so they are not listed as sessions nor kept until they expire.
 */
export class EndAllSessions {
  constructor(
    private readonly users: UserRepository,
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number): Promise<EndAllSessionsResult> {
    const epoch = await this.users.raiseSessionEpoch(userId, this.clock.now());
    if (epoch === null) return { kind: 'not-found' };
    const deleted = await this.sessions.destroyOthersOf(userId, null);
    return { kind: 'ended', epoch, deleted };
  }
}
