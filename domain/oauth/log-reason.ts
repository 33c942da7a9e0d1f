import { redactSecrets } from '../shared/redact-secrets.js';

/**
 * A sign-in failure's reason is one log line, and logs travel further than secrets should: any
 * value of the sign-in (the code, the PKCE verifier, the client secret, the access token) that
 * shows up in it is cut out by the framework's one redaction helper (`redactSecrets`), also as
 * it would be spelled inside a URL or a form body, and the line is cut to `max` characters.
 */
export const LOG_REASON_MAX_LENGTH = 500;

export function redactedReason(text: string, secrets: readonly (string | null | undefined)[], max = LOG_REASON_MAX_LENGTH): string {
  return redactSecrets(text, secrets, { max });
}
