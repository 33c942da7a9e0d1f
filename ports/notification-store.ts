export interface StoredNotification {
  id: string;
  userId: number;
  /** The notification's name (`invoice-paid`). */
  type: string;
  data: Record<string, unknown>;
  readAt: Date | null;
  createdAt: Date;
}

/** The database channel of notifications (table `notifications`). */
export interface NotificationStore {
  /** Adds it unread; an id that exists already is left as it is (a job that ran twice). */
  add(notification: Omit<StoredNotification, 'readAt'>): Promise<void>;
  /** The user's unread notifications, newest first, at most `limit`. */
  unread(userId: number, limit: number): Promise<StoredNotification[]>;
  /** Marks one of the user's notifications read; false when the user has no such unread one. */
  markRead(userId: number, id: string, at: Date): Promise<boolean>;
  /** Marks all of the user's unread notifications read; answers how many. */
  markAllRead(userId: number, at: Date): Promise<number>;
}
