import type { Clock } from '../../ports/clock.js';
import type { Mailer } from '../../ports/mailer.js';
import type { NotificationStore } from '../../ports/notification-store.js';
import type { UserRepository } from '../../ports/user-repository.js';

export type NotificationChannel = 'mail' | 'database';

/** What a user gets by mail: plain text, and HTML (escaped text when the notification gives none). */
export interface NotificationMail {
  subject: string;
  text: string;
  html?: string;
}

/** One notification to one user, its channels' contents computed for that user. */
export interface NotificationContent {
  type: string;
  via: readonly NotificationChannel[];
  mail(user: { id: number; name: string; email: string }): NotificationMail;
  database(): Record<string, unknown>;
}

export type DeliveryOutcome = { kind: 'sent'; channels: NotificationChannel[] } | { kind: 'no-user' };

/**
 * Sends one notification through its channels (the queued job's work): a mail to the user's
 * address, a row the user sees on the notifications page. A user deleted since the dispatch
 * gets nothing, and that is not an error. The row's id is chosen at dispatch, so a job that
 * runs again after a failed mail writes no second row (the mail itself may go twice).
 */
export class DeliverNotification {
  constructor(
    private readonly users: UserRepository,
    private readonly mailer: Mailer,
    private readonly store: NotificationStore,
    private readonly clock: Clock,
  ) {}

  async execute(userId: number, notificationId: string, notification: NotificationContent): Promise<DeliveryOutcome> {
    const user = await this.users.findById(userId);
    if (user === null) return { kind: 'no-user' };
    const channels: NotificationChannel[] = [];
    if (notification.via.includes('database')) {
      await this.store.add({ id: notificationId, userId, type: notification.type, data: notification.database(), createdAt: this.clock.now() });
      channels.push('database');
    }
    if (notification.via.includes('mail')) {
      const mail = notification.mail({ id: user.id, name: user.name, email: user.email });
      await this.mailer.send({ to: { address: user.email, name: user.name }, subject: mail.subject, text: mail.text, html: mail.html ?? textAsHtml(mail.text) });
      channels.push('mail');
    }
    return { kind: 'sent', channels };
  }
}

function textAsHtml(text: string): string {
  const escaped = text.replace(/[&<>"']/gu, (c) => `&#${c.charCodeAt(0)};`);
  return escaped
    .split(/\n{2,}/u)
    .map((paragraph) => `<p>${paragraph.replace(/\n/gu, '<br>')}</p>`)
    .join('\n');
}
