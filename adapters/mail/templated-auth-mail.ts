import type { Lang } from '../../domain/lang/lang.js';
import type { User } from '../../domain/users/user.js';
import type { AuthMail } from '../../ports/auth-mail.js';
import type { Mailer } from '../../ports/mailer.js';
import type { ViewRenderer } from '../../ports/view-renderer.js';

/** The absolute links the mails carry; the composition root builds them from the named routes. */
export interface AuthMailLinks {
  /** The signed `/verify-email/{id}/{hash}` link. */
  verifyEmail(user: User): string;
  /** The `/reset-password/{token}` link. */
  resetPassword(user: User, token: string): string;
}

/** How long both links work, as the mails tell the reader. */
const EXPIRES_MINUTES = 60;

/**
 * The Auth module's mails, rendered from `fw/mail/auth/<name>.html` (inside
 * `fw/mail/layout.html`) and `<name>.txt`. An app rewords them by adding files of the same names
 * under its `resources/views/`, as with every built-in template, or by changing their texts
 * (`mail.reset.*`, `mail.verify.*`) in its language files. Mails speak APP_LOCALE's language.
 */
export class TemplatedAuthMail implements AuthMail {
  constructor(
    private readonly mailer: Mailer,
    private readonly renderer: ViewRenderer,
    private readonly links: AuthMailLinks,
    private readonly app: { name: string },
    /** The subjects' language (the bodies' is the renderer's default: APP_LOCALE). */
    private readonly lang: Pick<Lang, 't'>,
  ) {}

  sendPasswordReset(user: User, token: string): Promise<void> {
    return this.send(user, this.lang.t('mail.reset.subject'), 'fw/mail/auth/reset-password', this.links.resetPassword(user, token));
  }

  sendEmailVerification(user: User): Promise<void> {
    return this.send(user, this.lang.t('mail.verify.subject'), 'fw/mail/auth/verify-email', this.links.verifyEmail(user));
  }

  private async send(user: User, subject: string, template: string, url: string): Promise<void> {
    // Only what the mail shows: the user record (password hash included) stays out of templates.
    const data = { app: { name: this.app.name }, user: { name: user.name, email: user.email }, url, expires_minutes: EXPIRES_MINUTES };
    const [html, text] = await Promise.all([this.renderer.render(`${template}.html`, data), this.renderer.render(`${template}.txt`, data)]);
    await this.mailer.send({ to: { address: user.email, name: user.name }, subject, html, text });
  }
}
