import { parseSnapshot } from '../../domain/session/snapshot.js';
import type { User } from '../../domain/users/user.js';
import type { Clock } from '../../ports/clock.js';
import type { SessionStore } from '../../ports/session-store.js';

/** A session as an administrator sees it: where and when, never its id. */
export interface UserSessionView {
  signedInAt: Date;
  lastActivity: Date;
  expiresAt: Date;
  ipAddress: string | null;
  userAgent: string | null;
  /** Signed in with 'remember me' (a lifetime of its own). */
  remembered: boolean;
}

export interface UserSessions {
  /** The sessions that would still open, the most recently active first. */
  live: UserSessionView[];
  /**
   * Rows that would no longer open (a raised epoch after a password reset, or damage); they
   * wait for their expiry and `session:prune`.
   */
  ended: number;
}

/**
 * The sessions of `SESSION_DRIVER=database` a user has. A row is only a session while its
 * epoch is the user's: anything older is refused at its next request, so it is not listed.
 */
export class ListUserSessions {
  constructor(
    private readonly sessions: SessionStore,
    private readonly clock: Clock,
  ) {}

  async execute(user: User): Promise<UserSessions> {
    const rows = await this.sessions.listOf(user.id, this.clock.now());
    const live: UserSessionView[] = [];
    for (const row of rows) {
      const snapshot = parseSnapshot(row.snapshot);
      if (snapshot === null || snapshot.userId !== user.id || snapshot.userEpoch !== user.sessionEpoch || snapshot.authenticatedAt === null) continue;
      live.push({
        signedInAt: new Date(snapshot.authenticatedAt),
        lastActivity: row.lastActivity,
        expiresAt: row.expiresAt,
        ipAddress: row.ipAddress,
        userAgent: row.userAgent,
        remembered: snapshot.lifetimeMinutes !== null,
      });
    }
    return { live, ended: rows.length - live.length };
  }
}
