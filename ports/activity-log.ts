/**
 * The append-only activity log (`activity_log`), written by the Audit module: who did what,
 * from where, in which request. `data` is small JSON (the provider's name), never a secret.
 */
export interface ActivityEntry {
  readonly action: string;
  readonly userId: number | null;
  readonly data: Readonly<Record<string, unknown>>;
  readonly ipAddress: string | null;
  readonly requestId: string | null;
  readonly at: Date;
}

export interface StoredActivity extends ActivityEntry {
  readonly id: number;
}

export interface ActivityLog {
  record(entry: ActivityEntry): Promise<void>;
  /** Newest first. */
  recent(filter: { userId?: number; action?: string; limit: number }): Promise<StoredActivity[]>;
}
