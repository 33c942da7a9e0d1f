import { Routes } from '../../../domain/http/routing/routes.js';
import type { Clock } from '../../../ports/clock.js';
import type { NotificationStore } from '../../../ports/notification-store.js';
import { Redirect, Toast, View, combine } from '../kernel/replies.js';
import type { Handler, RequestContext } from '../kernel/request-context.js';

export interface NotificationPageServices {
  store: NotificationStore;
  clock: Clock;
}

/** At most this many unread notifications on the page, newest first. */
export const NOTIFICATIONS_SHOWN = 100;

/**
 * `GET /notifications` (fw/notifications.html: the signed-in user's unread notifications),
 * `POST /notifications/{id}/read` and `POST /notifications/read-all`. A user only ever sees and
 * marks their own: every statement is keyed on the user's id as well.
 */
export function notificationRoutes(services: (ctx: RequestContext) => NotificationPageServices): Routes<Handler> {
  const index: Handler = async (ctx) => {
    const user = ctx.requireUser();
    const unread = await services(ctx).store.unread(user.id, NOTIFICATIONS_SHOWN);
    return View.make('fw/notifications.html', {
      notifications: unread.map((n) => ({
        id: n.id,
        type: n.type,
        data: n.data,
        message: typeof n.data['message'] === 'string' ? n.data['message'] : n.type,
        url: linkable(n.data['url']),
        created_at: n.createdAt,
      })),
    });
  };
  const read: Handler = async (ctx) => {
    const user = ctx.requireUser();
    const { store, clock } = services(ctx);
    const marked = await store.markRead(user.id, ctx.params.string('id'), clock.now());
    return combine(Redirect.route('notifications'), marked ? Toast.success(ctx.lang.t('notifications.message.marked')) : Toast.error(ctx.lang.t('notifications.message.not_unread')));
  };
  const readAll: Handler = async (ctx) => {
    const user = ctx.requireUser();
    const { store, clock } = services(ctx);
    const count = await store.markAllRead(user.id, clock.now());
    return combine(Redirect.route('notifications'), Toast.success(ctx.lang.choice('notifications.message.marked_all', count)));
  };
  return new Routes<Handler>()
    .get('/notifications', index)
    .name('notifications')
    .post('/notifications/read-all', readAll)
    .name('notifications.read-all')
    .post('/notifications/{id}/read', read)
    .name('notifications.read')
    .requireAuth();
}

/** A link the page may show: a path on this site or an http(s) address; never `javascript:` and the like. */
function linkable(url: unknown): string | null {
  return typeof url === 'string' && /^(https?:\/\/|\/(?![/\\]))/iu.test(url) ? url : null;
}
