import { ACCESS_TOKENS } from './bindings/access.js';
import { AUDIT_TOKENS } from './bindings/audit.js';
import { AUTH_MAIL_TOKENS } from './bindings/auth-mail.js';
import { AUTH_TOKENS } from './bindings/auth.js';
import { CACHE_TOKENS } from './bindings/cache.js';
import { CORE_TOKENS } from './bindings/core.js';
import { DATA_TOKENS } from './bindings/data.js';
import { EVENT_TOKENS } from './bindings/events.js';
import { LANG_TOKENS } from './bindings/lang.js';
import { MAIL_TOKENS } from './bindings/mail.js';
import { NOTIFICATION_TOKENS } from './bindings/notifications.js';
import { OAUTH_TOKENS } from './bindings/oauth.js';
import { QUEUE_TOKENS } from './bindings/queue.js';
import { SCHEDULE_TOKENS } from './bindings/schedule.js';
import { SESSION_TOKENS } from './bindings/sessions.js';
import { STORAGE_TOKENS } from './bindings/storage.js';
import { TWO_FACTOR_TOKENS } from './bindings/two-factor.js';
import { USER_TOKENS } from './bindings/users.js';
import { VIEW_TOKENS } from './bindings/views.js';
import { WEBHOOK_TOKENS } from './bindings/webhooks.js';
import type { Token } from './bindings/provide.js';

export type { Token } from './bindings/provide.js';
export { id } from './bindings/provide.js';

/**
 * Every service of the container under one name, for apps and handlers
 * (`ctx.service(TOKENS.db)`). Each area declares its own tokens beside its bindings
 * (`composition/bindings/<area>.ts`); this only gathers them.
 */
export const TOKENS = {
  ...CORE_TOKENS,
  ...EVENT_TOKENS,
  ...DATA_TOKENS,
  ...CACHE_TOKENS,
  ...SESSION_TOKENS,
  ...USER_TOKENS,
  ...ACCESS_TOKENS,
  ...LANG_TOKENS,
  ...VIEW_TOKENS,
  ...STORAGE_TOKENS,
  ...MAIL_TOKENS,
  ...QUEUE_TOKENS,
  ...AUTH_MAIL_TOKENS,
  ...AUTH_TOKENS,
  ...TWO_FACTOR_TOKENS,
  ...OAUTH_TOKENS,
  ...AUDIT_TOKENS,
  ...NOTIFICATION_TOKENS,
  ...WEBHOOK_TOKENS,
  ...SCHEDULE_TOKENS,
} as const;

export type TokenType<K> = K extends Token<infer T> ? T : never;
