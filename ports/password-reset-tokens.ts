/**
 * One live password-reset token per user, stored as its hash: a new request replaces the old
 * token. `consume` is the single use: it deletes and returns the token's time in one step, so
 * two requests with one link cannot both reset the password.
 */
export interface PasswordResetTokens {
  put(userId: number, tokenHash: string, createdAt: Date): Promise<void>;
  /** The creation time when `tokenHash` is the user's token, which is deleted; else null. */
  consume(userId: number, tokenHash: string): Promise<Date | null>;
}
