import type { LoginCompletion } from '../../../application/auth/complete-login.js';
import { Redirect } from '../kernel/replies.js';

/**
 * Where a login goes once `CompleteLogin` finished with it: to the two-factor challenge while
 * a second step waits, else to the page that asked for login (or `redirectTo`).
 */
export function loginReply(done: LoginCompletion, redirectTo: string): Redirect {
  return done.kind === 'second-step' ? Redirect.route('two-factor.login') : Redirect.intended(redirectTo);
}
