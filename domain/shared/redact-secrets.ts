/**
 * The one way the framework cuts secrets out of a text bound for a log line or a stored error
 * (a sign-in failure's reason, a failed job's error, a scheduled task's error): each secret is
 * replaced as written and as it would be spelled inside a URL or a form body (percent-encoded),
 * longest first so a secret that contains another is cut whole; then the text is cut to `max`
 * characters (whole characters, never half a surrogate pair).
 */
export interface RedactOptions {
  /** What stands in for a secret (default `[redacted]`). */
  readonly marker?: string;
  /** The longest text kept, in characters, with `…` at the cut (default: no limit). */
  readonly max?: number;
}

export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[], options: RedactOptions = {}): string {
  const marker = options.marker ?? '[redacted]';
  const spellings = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret === '') continue;
    spellings.add(secret);
    spellings.add(encodeURIComponent(secret));
  }
  let clean = text;
  for (const spelling of [...spellings].sort((a, b) => b.length - a.length)) clean = clean.split(spelling).join(marker);
  const max = options.max;
  if (max === undefined) return clean;
  const chars = [...clean];
  return chars.length > max ? `${chars.slice(0, max - 1).join('')}…` : clean;
}
