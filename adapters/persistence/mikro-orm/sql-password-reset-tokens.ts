import type { PasswordResetTokens } from '../../../ports/password-reset-tokens.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

/** `password_reset_tokens`: one row per user, replaced by a new request, deleted when used. */
export class SqlPasswordResetTokens implements PasswordResetTokens {
  constructor(private readonly raw: RawSql) {}

  async put(userId: number, tokenHash: string, createdAt: Date): Promise<void> {
    await this.raw.session((sql) =>
      sql.query(
        `INSERT INTO password_reset_tokens (user_id, token_hash, created_at) VALUES (?, ?, ?)
         ON CONFLICT (user_id) DO UPDATE SET token_hash = excluded.token_hash, created_at = excluded.created_at`,
        [userId, tokenHash, createdAt],
      ),
    );
  }

  async consume(userId: number, tokenHash: string): Promise<Date | null> {
    // Equality on a SHA-256 of a 256-bit secret: timing can at most tell how many leading hash
    // characters matched, which says nothing about the token itself.
    const rows = await this.raw.session((sql) =>
      sql.query<{ created_at: DateColumn }>('DELETE FROM password_reset_tokens WHERE user_id = ? AND token_hash = ? RETURNING created_at', [userId, tokenHash]),
    );
    const at = rows[0]?.created_at;
    return at === undefined ? null : dateFromColumn(at);
  }
}
