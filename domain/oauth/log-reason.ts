/**
 * A sign-in failure's reason is one log line, and logs travel further than secrets should: any
 * value of the sign-in (the code, the PKCE verifier, the client secret, the access token) that
 * shows up in it is cut out, also as it would be spelled inside a URL or a form body, and the
 * line is cut to `max` characters.
 */
export const LOG_REASON_MAX_LENGTH = 500;

export function redactedReason(text: string, secrets: readonly (string | null | undefined)[], max = LOG_REASON_MAX_LENGTH): string {
  let clean = text;
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    for (const spelling of new Set([secret, encodeURIComponent(secret)])) clean = clean.split(spelling).join('[redacted]');
  }
  const chars = [...clean];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : clean;
}
