/** Who an API token signs in, and what it may do. */
export interface VerifiedToken {
  userId: number;
  /** The abilities the token was issued with; null for an unrestricted token. */
  abilities: readonly string[] | null;
}

/**
 * Identity from `Authorization: Bearer <token>`. The token's format and issuing are the app's
 * (spec 001: 'not shown'); the kernel only asks who it is. A token that names nobody (unknown,
 * revoked, expired) is null, which the kernel answers with 401.
 */
export interface TokenVerifier {
  verify(token: string): Promise<VerifiedToken | null>;
}
