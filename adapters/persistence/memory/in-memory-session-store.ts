import type { ListedSession, SessionStore, StoredSession } from '../../../ports/session-store.js';

/** Sessions in a map: for tests and for embedding the kernel without a database. */
export class InMemorySessionStore implements SessionStore {
  readonly rows = new Map<string, StoredSession>();

  read(key: string, now: Date): Promise<unknown> {
    const row = this.rows.get(key);
    if (row === undefined || row.expiresAt.getTime() <= now.getTime()) return Promise.resolve(null);
    // A copy, as a database would give: the caller cannot change what is stored.
    return Promise.resolve(JSON.parse(JSON.stringify(row.snapshot)) as unknown);
  }

  write(key: string, session: StoredSession): Promise<void> {
    this.rows.set(key, { ...session, snapshot: JSON.parse(JSON.stringify(session.snapshot)) as StoredSession['snapshot'] });
    return Promise.resolve();
  }

  destroy(key: string): Promise<void> {
    this.rows.delete(key);
    return Promise.resolve();
  }

  destroyOthersOf(userId: number, keep: string | null): Promise<number> {
    return Promise.resolve(this.deleteWhere((key, row) => row.userId === userId && key !== keep));
  }

  listOf(userId: number, now: Date): Promise<ListedSession[]> {
    const rows = [...this.rows.values()]
      .filter((row) => row.userId === userId && row.expiresAt.getTime() > now.getTime())
      .sort((a, b) => b.lastActivity.getTime() - a.lastActivity.getTime());
    return Promise.resolve(
      rows.map((row) => ({
        snapshot: JSON.parse(JSON.stringify(row.snapshot)) as unknown,
        ipAddress: row.ipAddress,
        userAgent: row.userAgent,
        lastActivity: row.lastActivity,
        expiresAt: row.expiresAt,
      })),
    );
  }

  prune(now: Date): Promise<number> {
    return Promise.resolve(this.deleteWhere((_key, row) => row.expiresAt.getTime() <= now.getTime()));
  }

  private deleteWhere(test: (key: string, row: StoredSession) => boolean): number {
    let deleted = 0;
    for (const [key, row] of this.rows) {
      if (test(key, row)) {
        this.rows.delete(key);
        deleted += 1;
      }
    }
    return deleted;
  }
}
