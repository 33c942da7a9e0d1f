/**
 * `scheme://host[:port]`, optionally with one trailing slash (configuration often has it).
 * The host characters are narrow on purpose: the normalised origin is echoed back in
 * `Access-Control-Allow-Origin`, so nothing that could break a header line gets through.
 */
const ORIGIN = /^([a-z][a-z0-9+.-]*):\/\/([a-z0-9._~\-[\]:]+)\/?$/iu;

/**
 * An origin as browsers serialise it: lower case, default ports dropped (`HTTPS://App.Example:443`
 * → `https://app.example`), so a configured origin and an `Origin` header compare as strings.
 * `null` (sandboxed frames, `data:` and `file:` pages) stays `'null'`. Anything else is null.
 */
export function normalizeOrigin(text: string): string | null {
  const value = text.trim();
  if (value.toLowerCase() === 'null') return 'null';
  const match = ORIGIN.exec(value);
  if (match === null) return null;
  const scheme = (match[1] ?? '').toLowerCase();
  if (scheme !== 'http' && scheme !== 'https') {
    // Other schemes (`chrome-extension://id`, `capacitor://localhost`) have no default port
    // and no host syntax that URL would check: compare them in lower case.
    return `${scheme}://${(match[2] ?? '').toLowerCase()}`;
  }
  try {
    const origin = new URL(value).origin;
    return origin === 'null' ? null : origin;
  } catch {
    return null;
  }
}
