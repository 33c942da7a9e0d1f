import { Redirect } from '../kernel/replies.js';
import type { RequestContext } from '../kernel/request-context.js';
import { StopWithReply } from '../kernel/context.js';

/**
 * What the Auth pages tell visitors, as keys of the language files (`templates/lang/<locale>.json`,
 * overridable by the app's `resources/lang`), in one place so a test can check every shipped
 * language has each one. Read them through `ctx.lang.t(...)`: the sentence follows the
 * request's locale.
 */
export const MESSAGES = {
  failed: 'auth.message.failed',
  /** A plural key: read with `ctx.lang.choice(MESSAGES.locked, seconds)`. */
  locked: 'auth.message.locked',
  emailTaken: 'auth.message.email_taken',
  resetLinkSent: 'auth.message.reset_link_sent',
  resetInvalid: 'auth.message.reset_invalid',
  passwordReset: 'auth.message.password_reset',
  wrongPassword: 'auth.message.wrong_password',
  verificationSent: 'auth.message.verification_sent',
  verificationInvalid: 'auth.message.verification_invalid',
  verified: 'auth.message.verified',
  twoFactorRequired: 'auth.message.two_factor_required',
  twoFactorInvalid: 'auth.message.two_factor_invalid',
  twoFactorExpired: 'auth.message.two_factor_expired',
  twoFactorOn: 'auth.message.two_factor_on',
  twoFactorOff: 'auth.message.two_factor_off',
  twoFactorRestart: 'auth.message.two_factor_restart',
} as const;

/** The lockout sentence in the request's language ('… in 1 second', '… in 30 seconds'). */
export function lockedMessage(ctx: RequestContext, seconds: number): string {
  return ctx.lang.choice(MESSAGES.locked, seconds, { seconds });
}

/** Goes back to the form with one field's error (a message key), keeping what was typed (never passwords). */
export function backWithError(ctx: RequestContext, field: string, messageKey: string): never {
  ctx.flashFormErrors({ [field]: [ctx.lang.t(messageKey)] });
  throw new StopWithReply(Redirect.back());
}
