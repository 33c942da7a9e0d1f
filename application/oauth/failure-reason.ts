import { redactedReason } from '../../domain/oauth/log-reason.js';
import { SignInFailed } from '../../ports/sign-in-protocol.js';

/**
 * The log line's reason for a sign-in that broke: `SignInFailed.reason`, or the class and
 * message of anything else thrown (a provider's `profile()` that hit a bad answer). Never the
 * error itself, whose `cause` may hold a response. `secrets` (the code, the access token) are
 * cut out in case a message quotes them: both are bearer values.
 */
export function failureReason(error: unknown, secrets: readonly string[]): string {
  const raw =
    error instanceof SignInFailed ? error.reason : error instanceof Error ? `${error.name}: ${error.message}` : `non-error thrown (${typeof error})`;
  return redactedReason(raw, secrets);
}
