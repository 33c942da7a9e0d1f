/** Any base will do for reading a path: only the path, query and fragment are kept from it. */
const PATH_BASE = 'http://path.invalid';

/**
 * Where a redirect built from outside input (a Referer, a remembered intended URL) may go: a
 * path of this site, or an absolute URL of one of its origins, always answered as a path that
 * no browser can read as another host. Everything else is refused: other hosts, scheme-relative
 * `//evil.test`, backslash tricks (`/\evil.test`, which browsers read as `//`), and control
 * characters (URL parsers drop tabs and newlines, so `/\t/evil.test` would become `//evil.test`).
 *
 * The path is read the way a browser reads it (dot segments resolved, so `/.//evil.test` is
 * `//evil.test`) and its leading slashes are folded into one: `https://app//evil.test/` goes
 * back to `/evil.test/` on this site, never to `evil.test`.
 */
export function sameSiteTarget(candidate: string | undefined | null, origins: readonly string[]): string | null {
  if (candidate === undefined || candidate === null || candidate === '' || candidate.length > 2048) return null;
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f\\]/u.test(candidate)) return null;
  if (candidate.startsWith('//')) return null;
  let url: URL;
  try {
    url = candidate.startsWith('/') ? new URL(candidate, PATH_BASE) : new URL(candidate);
  } catch {
    return null;
  }
  if (!candidate.startsWith('/')) {
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    if (url.username !== '' || url.password !== '') return null;
    if (!origins.includes(url.origin)) return null;
  }
  const path = `/${url.pathname.replace(/^\/+/u, '')}${url.search}${url.hash}`;
  // The promise kept, checked rather than assumed: resolved against any site, it stays there.
  return new URL(path, PATH_BASE).origin === PATH_BASE ? path : null;
}
