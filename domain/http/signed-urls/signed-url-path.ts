/**
 * The path a signed URL signs, in the one spelling that is signed and compared.
 *
 * Only characters RFC 3986 allows in a path, and `%XX` escapes, are accepted: anything else a
 * browser would escape before sending, so the path that arrives would not be the one signed.
 * Escapes are compared with upper-case hex (`%2f` and `%2F` are one character by RFC 3986
 * and proxies may rewrite either); nothing is decoded, so `/a` and `/%61` are different links.
 */
const PATH = /^\/(?:[A-Za-z0-9\-._~!$&'()*+,;=:@/]|%[0-9A-Fa-f]{2})*$/u;

export type CanonicalPath = { kind: 'path'; path: string } | { kind: 'refused'; why: string };

export function canonicalPath(path: string): CanonicalPath {
  if (!PATH.test(path)) return { kind: 'refused', why: 'must start with / and hold only URL path characters and %XX escapes' };
  // `//host/x` used as a link goes to another host.
  if (path.startsWith('//')) return { kind: 'refused', why: 'must not start with //' };
  // Browsers resolve `.` and `..` segments (also written `%2E`) before sending the request.
  for (const segment of path.split('/')) {
    const dots = segment.replace(/%2e/giu, '.');
    if (dots === '.' || dots === '..') return { kind: 'refused', why: 'must not hold . or .. segments' };
  }
  return { kind: 'path', path: path.replace(/%[0-9a-f]{2}/giu, (escape) => escape.toUpperCase()) };
}
