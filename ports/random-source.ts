/** Cryptographically strong random bytes (tokens, ids, state, PKCE verifiers, keys). */
export interface RandomSource {
  bytes(length: number): Uint8Array;
}
