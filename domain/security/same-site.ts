/**
 * Where a redirect built from outside input may go: a path of this site, or an absolute URL of
 * one of its origins. Everything else is refused: other hosts, scheme-relative `//evil.test`,
 * backslash tricks (`/\evil.test`, which browsers read as `//`), and control characters.
 */
export function sameSiteTarget(candidate: string | undefined | null, origins: readonly string[]): string | null {
  if (candidate === undefined || candidate === null || candidate === '' || candidate.length > 2048) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/u.test(candidate)) return null;
  if (candidate.startsWith('/')) return candidate.startsWith('//') ? null : candidate;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username !== '' || url.password !== '') return null;
  if (!origins.includes(url.origin)) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}
