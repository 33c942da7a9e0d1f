import { Redirect } from '../kernel/replies.js';
import type { RequestContext } from '../kernel/request-context.js';
import { StopWithReply } from '../kernel/context.js';

/** What the Auth pages tell visitors, in one place so an app's translations have one list to cover. */
export const MESSAGES = {
  failed: 'These credentials do not match our records.',
  locked: (seconds: number) => `Too many login attempts. Please try again in ${seconds} second${seconds === 1 ? '' : 's'}.`,
  resetLinkSent: 'If an account uses that address, we have emailed a link to reset its password.',
  resetInvalid: 'This password reset link is invalid or has expired.',
  passwordReset: 'Your password has been reset. You can log in with it now.',
  wrongPassword: 'The provided password is incorrect.',
  verificationSent: 'A new verification link has been sent to your email address.',
  verificationInvalid: 'This verification link is invalid or has expired.',
  verified: 'Thank you: your email address is verified.',
  twoFactorRequired: 'Type the code from your authenticator app, or one of your recovery codes.',
  twoFactorInvalid: 'The provided two-factor code was invalid.',
  twoFactorExpired: 'The login took too long. Please log in again.',
} as const;

/** Goes back to the form with one field's error, keeping what was typed (never passwords). */
export function backWithError(ctx: RequestContext, field: string, message: string): never {
  ctx.flashFormErrors({ [field]: [message] });
  throw new StopWithReply(Redirect.back());
}
