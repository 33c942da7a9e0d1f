/**
 * The token of an `Authorization: Bearer <token>` header (RFC 6750's token68 characters), ''
 * for a Bearer header without a usable token (refused with 401 like an unknown token), or null
 * when the request uses no Bearer scheme at all.
 */
export function bearerToken(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  const match = /^bearer(?:\s+(.*))?$/isu.exec(authorization.trim());
  if (match === null) return null;
  const token = (match[1] ?? '').trim();
  return /^[A-Za-z0-9\-._~+/|]+=*$/u.test(token) && token.length <= 4096 ? token : '';
}
