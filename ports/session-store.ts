import type { SessionSnapshot } from '../domain/session/snapshot.js';

/** What the database driver keeps of a session besides its data (the `sessions` columns). */
export interface StoredSession {
  snapshot: SessionSnapshot;
  userId: number | null;
  ipAddress: string | null;
  userAgent: string | null;
  lastActivity: Date;
  /** When the session ends unless a request comes first. */
  expiresAt: Date;
}

/** One session of a user as an administrator may see it: never its id nor the id's hash. */
export interface ListedSession {
  /** The stored data, unchecked (as `read` gives it): `parseSnapshot` tells whether it still holds. */
  snapshot: unknown;
  ipAddress: string | null;
  userAgent: string | null;
  lastActivity: Date;
  expiresAt: Date;
}

/**
 * Sessions of `SESSION_DRIVER=database`, under the SHA-256 of the id the cookie carries
 * (`sessionStorageKey`): the store never sees a usable id.
 */
export interface SessionStore {
  /** The stored data (to be checked by `Session.resume`), or null when unknown or expired at `now`. */
  read(key: string, now: Date): Promise<unknown>;
  write(key: string, session: StoredSession): Promise<void>;
  destroy(key: string): Promise<void>;
  /** Ends every session of the user but `keep` (after 'log out other devices'); returns how many. */
  destroyOthersOf(userId: number, keep: string | null): Promise<number>;
  /** The user's sessions not expired at `now`, the most recently active first. */
  listOf(userId: number, now: Date): Promise<ListedSession[]>;
  /** Deletes the sessions expired at `now`; returns how many. */
  prune(now: Date): Promise<number>;
}
