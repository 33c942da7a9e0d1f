import type { TwoFactorSettings } from '../domain/auth/two-factor.js';

/**
 * The two-factor columns of a user. Every change that a concurrent request could race is one
 * atomic step here, so two servers answering at once cannot both use one code.
 */
export interface TwoFactorStore {
  /** The user's settings; null when there is no such user. */
  find(userId: number): Promise<TwoFactorSettings | null>;
  /**
   * Starts (or restarts) enabling: a new sealed secret and recovery codes, not confirmed, no
   * step used. Refused (false) when two-factor is already on, or there is no such user.
   */
  begin(userId: number, sealedSecret: string, recoveryCodeHashes: readonly string[]): Promise<boolean>;
  /**
   * Turns two-factor on at `confirmedAt` and records `step` as used, only while it is still
   * pending with `sealedSecret` (a second setup started meanwhile has another secret): false otherwise.
   */
  confirm(userId: number, sealedSecret: string, confirmedAt: Date, step: number): Promise<boolean>;
  /** Turns two-factor off and forgets the secret and codes; false when there is no such user. */
  clear(userId: number): Promise<boolean>;
  /** Replaces the recovery codes while two-factor is on; false when it is not. */
  replaceRecoveryCodes(userId: number, recoveryCodeHashes: readonly string[]): Promise<boolean>;
  /**
   * Uses up one recovery code while two-factor is on: the number of codes left after it, or
   * null when the hash is not one of the user's. Of two uses of one code, one gets null.
   */
  useRecoveryCode(userId: number, hash: string): Promise<number | null>;
  /**
   * Records an accepted TOTP code's time step while two-factor is on, only when it is later
   * than the last one recorded: false for a replayed (or older) code.
   */
  useStep(userId: number, step: number): Promise<boolean>;
}
