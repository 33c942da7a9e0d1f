import type { User } from '../domain/users/user.js';

/**
 * The Auth module's mails. The adapter knows the links (signed, absolute, APP_URL), the
 * templates (`fw/mail/auth/*`) and the Mailer; the use cases only say which mail a user gets.
 */
export interface AuthMail {
  /** The link to `/reset-password/{token}`; `token` is shown in that link only. */
  sendPasswordReset(user: User, token: string): Promise<void>;
  /** The signed `/verify-email/{id}/{hash}` link, valid 60 minutes. */
  sendEmailVerification(user: User): Promise<void>;
}
