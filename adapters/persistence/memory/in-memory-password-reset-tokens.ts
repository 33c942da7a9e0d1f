import type { PasswordResetTokens } from '../../../ports/password-reset-tokens.js';

/** Reset tokens in a map, for unit tests and embedding without a database. */
export class InMemoryPasswordResetTokens implements PasswordResetTokens {
  private readonly rows = new Map<number, { tokenHash: string; createdAt: Date }>();

  put(userId: number, tokenHash: string, createdAt: Date): Promise<void> {
    this.rows.set(userId, { tokenHash, createdAt });
    return Promise.resolve();
  }

  consume(userId: number, tokenHash: string): Promise<Date | null> {
    const row = this.rows.get(userId);
    if (row === undefined || row.tokenHash !== tokenHash) return Promise.resolve(null);
    this.rows.delete(userId);
    return Promise.resolve(row.createdAt);
  }
}
