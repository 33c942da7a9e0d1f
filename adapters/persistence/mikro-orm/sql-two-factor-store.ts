import { isRecoveryCodeHash } from '../../../domain/auth/recovery-codes.js';
import type { TwoFactorSettings } from '../../../domain/auth/two-factor.js';
import type { TwoFactorStore } from '../../../ports/two-factor-store.js';
import { dateFromColumn } from './column-date.js';
import type { DateColumn } from './column-date.js';
import type { RawSql } from './raw-sql.js';

interface Row {
  two_factor_secret: string | null;
  two_factor_recovery_codes: string | null;
  two_factor_confirmed_at: DateColumn | null;
  two_factor_last_used_step: number | string | null;
}

/** Concurrent uses of one user's codes are rare; a handful of retries outlasts any real race. */
const CAS_ATTEMPTS = 8;

/**
 * The `two_factor_*` columns of `users`, in plain SQL beside the User mapping (the ORM never
 * loads them, so no page that shows a user carries the sealed secret around). Every change is
 * one conditional UPDATE … RETURNING, atomic on both engines; `updated_at` is left alone: it
 * says when the profile changed.
 */
export class SqlTwoFactorStore implements TwoFactorStore {
  constructor(private readonly raw: RawSql) {}

  async find(userId: number): Promise<TwoFactorSettings | null> {
    const rows = await this.raw.session((sql) =>
      sql.query<Row>(
        'SELECT two_factor_secret, two_factor_recovery_codes, two_factor_confirmed_at, two_factor_last_used_step FROM users WHERE id = ?',
        [userId],
      ),
    );
    const row = rows[0];
    if (row === undefined) return null;
    return {
      sealedSecret: row.two_factor_secret,
      recoveryCodeHashes: parseHashes(row.two_factor_recovery_codes),
      confirmedAt: row.two_factor_confirmed_at === null ? null : dateFromColumn(row.two_factor_confirmed_at),
      lastUsedStep: row.two_factor_last_used_step === null ? null : Number(row.two_factor_last_used_step),
    };
  }

  begin(userId: number, sealedSecret: string, recoveryCodeHashes: readonly string[]): Promise<boolean> {
    return this.changed(
      `UPDATE users SET two_factor_secret = ?, two_factor_recovery_codes = ?, two_factor_confirmed_at = NULL, two_factor_last_used_step = NULL
       WHERE id = ? AND two_factor_confirmed_at IS NULL RETURNING id`,
      [sealedSecret, JSON.stringify(recoveryCodeHashes), userId],
    );
  }

  confirm(userId: number, sealedSecret: string, confirmedAt: Date, step: number): Promise<boolean> {
    return this.changed(
      `UPDATE users SET two_factor_confirmed_at = ?, two_factor_last_used_step = ?
       WHERE id = ? AND two_factor_confirmed_at IS NULL AND two_factor_secret = ? RETURNING id`,
      [confirmedAt, step, userId, sealedSecret],
    );
  }

  clear(userId: number): Promise<boolean> {
    return this.changed(
      `UPDATE users SET two_factor_secret = NULL, two_factor_recovery_codes = NULL, two_factor_confirmed_at = NULL, two_factor_last_used_step = NULL
       WHERE id = ? RETURNING id`,
      [userId],
    );
  }

  replaceRecoveryCodes(userId: number, recoveryCodeHashes: readonly string[]): Promise<boolean> {
    return this.changed('UPDATE users SET two_factor_recovery_codes = ? WHERE id = ? AND two_factor_confirmed_at IS NOT NULL RETURNING id', [
      JSON.stringify(recoveryCodeHashes),
      userId,
    ]);
  }

  useStep(userId: number, step: number): Promise<boolean> {
    return this.changed(
      `UPDATE users SET two_factor_last_used_step = ?
       WHERE id = ? AND two_factor_confirmed_at IS NOT NULL AND (two_factor_last_used_step IS NULL OR two_factor_last_used_step < ?) RETURNING id`,
      [step, userId, step],
    );
  }

  /**
   * The codes are one JSON column, so using one is a compare-and-swap: write the list without
   * it only if the column still holds the list just read. Of two requests with the same code
   * one swaps; the other reads again, no longer finds it, and is refused.
   */
  async useRecoveryCode(userId: number, hash: string): Promise<number | null> {
    return this.raw.session(async (sql) => {
      for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt += 1) {
        const [row] = await sql.query<{ codes: string | null }>(
          'SELECT two_factor_recovery_codes AS codes FROM users WHERE id = ? AND two_factor_confirmed_at IS NOT NULL',
          [userId],
        );
        if (row === undefined || row.codes === null) return null;
        const hashes = parseHashes(row.codes);
        if (!hashes.includes(hash)) return null;
        const left = hashes.filter((stored) => stored !== hash);
        const swapped = await sql.query(
          `UPDATE users SET two_factor_recovery_codes = ?
           WHERE id = ? AND two_factor_recovery_codes = ? AND two_factor_confirmed_at IS NOT NULL RETURNING id`,
          [JSON.stringify(left), userId, row.codes],
        );
        if (swapped.length > 0) return left.length;
      }
      // Still racing after every attempt: refusing is safe (the code stays, the user tries again).
      return null;
    });
  }

  private async changed(statement: string, params: readonly (string | number | Date)[]): Promise<boolean> {
    const rows = await this.raw.session((sql) => sql.query(statement, params));
    return rows.length > 0;
  }
}

/** The stored JSON list; a damaged column counts as no codes (nothing in it can pass). */
function parseHashes(text: string | null): string[] {
  if (text === null) return [];
  try {
    const parsed: unknown = JSON.parse(text);
    return Array.isArray(parsed) ? parsed.filter(isRecoveryCodeHash) : [];
  } catch {
    return [];
  }
}
