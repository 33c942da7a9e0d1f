import { RECOVERY_CODE_BYTES, recoveryCodeHashes, recoveryCodesFrom } from '../../domain/auth/recovery-codes.js';
import { TOTP_SECRET_BYTES, totpSecretFrom } from '../../domain/auth/totp.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { TwoFactorSetup, TwoFactorSetups } from './two-factor-setups.js';

export type EnableTwoFactorResult =
  | {
      kind: 'pending';
      setup: TwoFactorSetup;
      /** Shown now or never: only their hashes are kept. */
      recoveryCodes: string[];
    }
  /** It is on; turning it off first (with a confirmed password) is the way to a new secret. */
  | { kind: 'already-enabled' }
  | { kind: 'unknown-user' };

/**
 * Starts two-factor for a user: a new secret (sealed before it is stored) and recovery codes.
 * Nothing changes at login until `ConfirmTwoFactor` sees a first code from the app. Asking
 * again while pending starts over with a new secret (a QR code scanned into the wrong app, a
 * page closed too early). The page guards it with `requirePasswordConfirmed`.
 */
export class EnableTwoFactor {
  constructor(
    private readonly users: UserRepository,
    private readonly store: TwoFactorStore,
    private readonly box: SecretBox,
    private readonly random: RandomSource,
    private readonly setups: TwoFactorSetups,
  ) {}

  async execute(input: { userId: number }): Promise<EnableTwoFactorResult> {
    const user = await this.users.findById(input.userId);
    if (user === null) return { kind: 'unknown-user' };
    const secret = totpSecretFrom(this.random.bytes(TOTP_SECRET_BYTES));
    const recoveryCodes = recoveryCodesFrom(this.random.bytes(RECOVERY_CODE_BYTES));
    const begun = await this.store.begin(user.id, this.box.seal(secret), recoveryCodeHashes(user.id, recoveryCodes));
    if (!begun) return { kind: 'already-enabled' };
    return { kind: 'pending', setup: await this.setups.describe(secret, user.email), recoveryCodes };
  }
}
