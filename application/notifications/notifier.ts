/** A notification with its data, checked, ready for `notifier.send(userId, …)`. */
export interface NotificationToSend {
  readonly type: string;
  readonly data: unknown;
}

/** Sends notifications through the queue (`services.get(TOKENS.notifier)`). */
export interface Notifier {
  /** Queues the notification for the user; its channels run in a worker (inline with QUEUE_CONNECTION=sync). */
  send(userId: number, notification: NotificationToSend): Promise<void>;
}
