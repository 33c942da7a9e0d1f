import { enums, number, object, optional, string } from 'superstruct';
import { AesGcmSecretBox } from '../../adapters/crypto/aes-gcm-secret-box.js';
import { PermanentJobError } from '../../adapters/worker/job-worker.js';
import type { JobDispatcher } from '../../application/queue/job-dispatcher.js';
import { Backoffs } from '../../domain/queue/backoff.js';
import type { AppKeys } from '../../domain/security/app-keys.js';
import type { User } from '../../domain/users/user.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SecretBox } from '../../ports/secret-box.js';
import { defineJob } from '../jobs.js';
import type { RouteTable } from '../../domain/http/routing/route-table.js';
import type { Handler } from '../../adapters/http/kernel/request-context.js';
import { TemplatedAuthMail } from '../../adapters/mail/templated-auth-mail.js';
import { authLinks } from '../auth-links.js';
import { CORE_TOKENS as C } from './core.js';
import { LANG_TOKENS } from './lang.js';
import { MAIL_TOKENS } from './mail.js';
import { provide, token } from './provide.js';
import type { Binding } from './provide.js';
import { QUEUE_TOKENS } from './queue.js';
import { USER_TOKENS } from './users.js';
import { VIEW_TOKENS } from './views.js';

export const AUTH_MAIL_TOKENS = {
  authMail: token<AuthMail>('AuthMail'),
  /** The Auth module's mails sent at once (what the queued `fw.auth-mail` job runs). */
  authMailNow: token<AuthMail>('AuthMailNow'),
} as const;

/** The box that seals a reset token inside the job's payload: a failed job's row never shows it. */
export function queuedSecretsBox(keys: AppKeys, random: RandomSource): SecretBox {
  return new AesGcmSecretBox(keys.queuedSecrets, random);
}

/**
 * The Auth module's mails as a job: a slow or failing SMTP server no longer slows or fails
 * the request; the worker retries with backoff. The payload holds the user's id (the mail is
 * rendered when sent, from the user as they are then) and, for a reset, the token sealed with
 * a key derived from APP_KEY.
 */
export const SendAuthMail = defineJob({
  name: 'fw.auth-mail',
  payload: object({ kind: enums(['password-reset', 'verify-email']), userId: number(), sealedToken: optional(string()) }),
  tries: 5,
  backoff: Backoffs.exponential(10_000, { maxMs: 600_000 }),
  timeoutMs: 60_000,
  async handle({ kind, userId, sealedToken }, { services }) {
    const user = await services.get(USER_TOKENS.userRepository).findById(userId);
    // The account was deleted in between: there is nobody to write to.
    if (user === null) return;
    const mail = services.get(AUTH_MAIL_TOKENS.authMailNow);
    if (kind === 'verify-email') return mail.sendEmailVerification(user);
    const token = sealedToken === undefined ? null : queuedSecretsBox(services.get(C.appKeys), services.get(C.random)).open(sealedToken);
    if (token === null) throw new PermanentJobError('The reset token of this mail cannot be opened (APP_KEY changed?); the user asks for a new link');
    return mail.sendPasswordReset(user, token);
  },
});

/** `AuthMail` that queues the mail (QUEUE_CONNECTION database or redis) instead of sending it. */
export class QueuedAuthMail implements AuthMail {
  constructor(
    private readonly jobs: JobDispatcher,
    private readonly box: SecretBox,
  ) {}

  async sendPasswordReset(user: User, token: string): Promise<void> {
    await this.jobs.dispatch(SendAuthMail.with({ kind: 'password-reset', userId: user.id, sealedToken: this.box.seal(token) }));
  }

  async sendEmailVerification(user: User): Promise<void> {
    await this.jobs.dispatch(SendAuthMail.with({ kind: 'verify-email', userId: user.id }));
  }
}

/**
 * The Auth module's mails: rendered from the templates, linking to the app's own routes signed
 * with APP_KEY's key, and sent through the queue unless QUEUE_CONNECTION=sync (then inline).
 */
export function authMailArea(routeTable: () => RouteTable<Handler>) {
  return ({ container, keys }: Binding): void => {
    provide(container, AUTH_MAIL_TOKENS.authMailNow, [MAIL_TOKENS.mailer, VIEW_TOKENS.viewRenderer, C.clock, C.config, LANG_TOKENS.translator], (mailer, views, clock, config, translator) => {
      const links = authLinks(routeTable(), config.app.url, keys.signedUrls, clock);
      return new TemplatedAuthMail(mailer, views, links, { name: config.app.name }, translator.lang(config.app.locale));
    });
    provide(container, AUTH_MAIL_TOKENS.authMail, [C.config, AUTH_MAIL_TOKENS.authMailNow, QUEUE_TOKENS.jobs, C.random], (config, now, jobs, random) =>
      config.queue.connection === 'sync' ? now : new QueuedAuthMail(jobs, queuedSecretsBox(keys, random)),
    );
  };
}
