import { TWO_FACTOR_OFF, stepUnused } from '../../../domain/auth/two-factor.js';
import type { TwoFactorSettings } from '../../../domain/auth/two-factor.js';
import type { TwoFactorStore } from '../../../ports/two-factor-store.js';
import type { UserRepository } from '../../../ports/user-repository.js';

/**
 * Two-factor settings in a map, for unit tests and embedding without a database. It asks the
 * user repository whether a user exists, so it answers like the columns of `users` do
 * (nothing for an unknown or deleted user). Each change is checked and made without an
 * `await` in between, so it is as atomic as the SQL statements it stands in for.
 */
export class InMemoryTwoFactorStore implements TwoFactorStore {
  private readonly rows = new Map<number, TwoFactorSettings>();

  constructor(private readonly users: UserRepository) {}

  async find(userId: number): Promise<TwoFactorSettings | null> {
    if (!(await this.exists(userId))) return null;
    // A copy, as a database hands out: changing it changes nothing stored.
    const row = this.row(userId);
    return { ...row, recoveryCodeHashes: [...row.recoveryCodeHashes], confirmedAt: row.confirmedAt && new Date(row.confirmedAt) };
  }

  async begin(userId: number, sealedSecret: string, recoveryCodeHashes: readonly string[]): Promise<boolean> {
    if (!(await this.exists(userId)) || this.row(userId).confirmedAt !== null) return false;
    this.rows.set(userId, { sealedSecret, recoveryCodeHashes: [...recoveryCodeHashes], confirmedAt: null, lastUsedStep: null });
    return true;
  }

  async confirm(userId: number, sealedSecret: string, confirmedAt: Date, step: number): Promise<boolean> {
    if (!(await this.exists(userId))) return false;
    const row = this.row(userId);
    if (row.confirmedAt !== null || row.sealedSecret !== sealedSecret) return false;
    this.rows.set(userId, { ...row, confirmedAt: new Date(confirmedAt), lastUsedStep: step });
    return true;
  }

  async clear(userId: number): Promise<boolean> {
    if (!(await this.exists(userId))) return false;
    this.rows.delete(userId);
    return true;
  }

  async replaceRecoveryCodes(userId: number, recoveryCodeHashes: readonly string[]): Promise<boolean> {
    if (!(await this.exists(userId))) return false;
    const row = this.row(userId);
    if (row.confirmedAt === null) return false;
    this.rows.set(userId, { ...row, recoveryCodeHashes: [...recoveryCodeHashes] });
    return true;
  }

  async useRecoveryCode(userId: number, hash: string): Promise<number | null> {
    if (!(await this.exists(userId))) return null;
    const row = this.row(userId);
    if (row.confirmedAt === null || !row.recoveryCodeHashes.includes(hash)) return null;
    const left = row.recoveryCodeHashes.filter((stored) => stored !== hash);
    this.rows.set(userId, { ...row, recoveryCodeHashes: left });
    return left.length;
  }

  async useStep(userId: number, step: number): Promise<boolean> {
    if (!(await this.exists(userId))) return false;
    const row = this.row(userId);
    if (row.confirmedAt === null || !stepUnused(row, step)) return false;
    this.rows.set(userId, { ...row, lastUsedStep: step });
    return true;
  }

  private row(userId: number): TwoFactorSettings {
    return this.rows.get(userId) ?? TWO_FACTOR_OFF;
  }

  private async exists(userId: number): Promise<boolean> {
    const found = (await this.users.findById(userId)) !== null;
    // A user removed from the repository takes their settings along, as the columns would.
    if (!found) this.rows.delete(userId);
    return found;
  }
}
