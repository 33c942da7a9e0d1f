import type { Container } from 'inversify';
import { StructError, create, number, object, string, unknown as anything } from 'superstruct';
import type { Infer, Struct } from 'superstruct';
import { notificationRoutes } from '../adapters/http/notifications/notification-routes.js';
import { DeliverNotification } from '../application/notifications/deliver-notification.js';
import type { NotificationChannel, NotificationMail } from '../application/notifications/deliver-notification.js';
import type { NotificationToSend, Notifier } from '../application/notifications/notifier.js';
import { provide } from './bindings/provide.js';
import { defineJob } from './jobs.js';
import type { Module } from './module.js';
import { TOKENS } from './tokens.js';
import { FrameworkError, MisuseError } from '../domain/shared/errors.js';
import { base64url } from '../domain/shared/bytes.js';

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- a struct of any payload: superstruct's Struct is invariant in its schema
type AnyStruct = Struct<any, any>;

/** The user a notification is for, as its channels see them. */
export interface Notifiable {
  id: number;
  name: string;
  email: string;
}

export interface NotificationSpec<S extends AnyStruct> {
  /** Unique in the app: stored with each database notification as its `type`. */
  name: string;
  /** The data's shape (superstruct), checked when it is sent and again when the job runs. */
  payload: S;
  via: readonly NotificationChannel[];
  /** The mail channel: subject and text (and HTML; escaped text when absent). */
  mail?(data: Infer<S>, user: Notifiable): NotificationMail;
  /** The database channel: what `fw/notifications.html` shows (`message`, optionally `url`). */
  database?(data: Infer<S>): Record<string, unknown>;
}


/**
 * A notification class:
 *
 *     export const InvoicePaid = defineNotification({
 *       name: 'invoice-paid',
 *       payload: object({ invoice: number() }),
 *       via: ['mail', 'database'],
 *       mail: ({ invoice }, user) => ({ subject: `Invoice ${invoice} is paid`, text: `Thanks, ${user.name}!` }),
 *       database: ({ invoice }) => ({ message: `Invoice ${invoice} is paid`, url: `/invoices/${invoice}` }),
 *     });
 *     app.module(Notifications.create().notification(InvoicePaid));
 *     await services.get(TOKENS.notifier).send(user.id, InvoicePaid.with({ invoice: 7 }));
 */
export class NotificationDefinition<S extends AnyStruct> {
  constructor(readonly spec: NotificationSpec<S>) {
    if (!/^[a-z0-9][a-z0-9._-]*$/u.test(spec.name)) throw new MisuseError('notifications.bad-name', `A notification name is lower-case letters, digits and . _ -, got ${JSON.stringify(spec.name)}`);
    if (spec.via.length === 0) throw new MisuseError('notifications.no-channel', `The notification "${spec.name}" has no channel`);
    for (const channel of spec.via) {
      if (channel === 'mail' && spec.mail === undefined) throw new MisuseError('notifications.missing-channel', `The notification "${spec.name}" goes by mail but has no mail()`);
      if (channel === 'database' && spec.database === undefined) throw new MisuseError('notifications.missing-channel', `The notification "${spec.name}" goes to the database but has no database()`);
    }
  }

  get name(): string {
    return this.spec.name;
  }

  /** Checked now: wrong data throws a TypeError naming the field, at the call that sends it. */
  with(data: Infer<S>): NotificationToSend {
    return { type: this.spec.name, data: this.check(data) };
  }

  check(data: unknown): Infer<S> {
    try {
      return create(data, this.spec.payload) as Infer<S>;
    } catch (error) {
      if (!(error instanceof StructError)) throw error;
      const failure = error.failures()[0] ?? error;
      throw new MisuseError('notifications.bad-data', `Invalid data for notification "${this.spec.name}": ${failure.path.length === 0 ? '' : `${failure.path.join('.')}: `}${failure.message}`, { cause: error });
    }
  }
}

export function defineNotification<S extends AnyStruct>(spec: NotificationSpec<S>): NotificationDefinition<S> {
  return new NotificationDefinition(spec);
}


/**
 * Notifications as a module: `app.module(Notifications.create().notification(InvoicePaid))`
 * adds the page `GET /notifications` (fw/notifications.html, signed-in users: their unread
 * notifications with mark-as-read), the job `fw.notifications.send` that runs the channels, and
 * `TOKENS.notifier`.
 */
export class Notifications implements Module {
  readonly name = 'notifications';
  readonly routes = notificationRoutes((ctx) => ({ store: ctx.service(TOKENS.notificationStore), clock: ctx.service(TOKENS.clock) }));
  readonly jobs;
  private readonly definitions = new Map<string, NotificationDefinition<AnyStruct>>();

  private constructor() {
    const definitions = this.definitions;
    this.jobs = [
      defineJob({
        name: 'fw.notifications.send',
        payload: object({ userId: number(), id: string(), type: string(), data: anything() }),
        queue: 'notifications',
        tries: 5,
        async handle({ userId, id, type, data }, { services }) {
          const definition = definitions.get(type);
          if (definition === undefined) throw new FrameworkError('notifications.unknown', `No notification is named "${type}" (was it removed from Notifications.create()?)`);
          const checked: unknown = definition.check(data);
          const spec = definition.spec;
          await services.get(TOKENS.deliverNotification).execute(userId, id, {
            type,
            via: spec.via,
            mail: (user) => (spec.mail as NonNullable<typeof spec.mail>)(checked, user),
            database: () => (spec.database as NonNullable<typeof spec.database>)(checked),
          });
        },
      }),
    ];
  }

  static create(): Notifications {
    return new Notifications();
  }

  notification(definition: NotificationDefinition<AnyStruct>): this {
    if (this.definitions.has(definition.name)) throw new MisuseError('notifications.twice', `The notification "${definition.name}" is registered twice`);
    this.definitions.set(definition.name, definition);
    return this;
  }

  bind(container: Container): void {
    const job = this.jobs[0];
    const known = this.definitions;
    provide(container, TOKENS.deliverNotification, [TOKENS.userRepository, TOKENS.mailer, TOKENS.notificationStore, TOKENS.clock], (users, mailer, store, clock) => new DeliverNotification(users, mailer, store, clock));
    provide(container, TOKENS.notifier, [TOKENS.jobs, TOKENS.random], (jobs, random): Notifier => ({
      async send(userId, notification) {
        if (!known.has(notification.type)) throw new MisuseError('notifications.unknown', `The notification "${notification.type}" is not registered: Notifications.create().notification(…)`);
        const id = base64url(random.bytes(16));
        await jobs.dispatch(job!.with({ userId, id, type: notification.type, data: notification.data }));
      },
    }));
  }
}
