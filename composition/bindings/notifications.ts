import { SqlNotificationStore } from '../../adapters/persistence/mikro-orm/sql-notification-store.js';
import type { DeliverNotification } from '../../application/notifications/deliver-notification.js';
import type { Notifier } from '../../application/notifications/notifier.js';
import type { NotificationStore } from '../../ports/notification-store.js';
import { CORE_TOKENS as C } from './core.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';

/** Notifications (the Notifications module binds the sending side) and the `notifications` table. */
export const NOTIFICATION_TOKENS = {
  notificationStore: token<NotificationStore>('NotificationStore'),
  deliverNotification: token<DeliverNotification>('DeliverNotification'),
  /** `notifier.send(userId, Notification.with(data))`; bound by the Notifications module. */
  notifier: token<Notifier>('Notifier'),
} as const;

export function bindNotificationStore({ container }: Binding): void {
  provide(container, NOTIFICATION_TOKENS.notificationStore, [C.database], (db) => new SqlNotificationStore(db.raw));
}
