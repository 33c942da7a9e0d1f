import { RecoveryCodesRegenerated } from '../../domain/auth/two-factor-events.js';
import { RECOVERY_CODE_BYTES, recoveryCodeHashes, recoveryCodesFrom } from '../../domain/auth/recovery-codes.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { RandomSource } from '../../ports/random-source.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';

export type RegenerateRecoveryCodesResult =
  | {
      kind: 'regenerated';
      /** Shown now or never; every earlier code stops working. */
      recoveryCodes: string[];
    }
  | { kind: 'not-enabled' };

/** A new set of recovery codes for a user with two-factor on; the old set, used or not, is void. */
export class RegenerateRecoveryCodes {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly random: RandomSource,
    private readonly events: EventBus,
  ) {}

  async execute(input: { userId: number }): Promise<RegenerateRecoveryCodesResult> {
    const recoveryCodes = recoveryCodesFrom(this.random.bytes(RECOVERY_CODE_BYTES));
    if (!(await this.store.replaceRecoveryCodes(input.userId, recoveryCodeHashes(input.userId, recoveryCodes)))) return { kind: 'not-enabled' };
    await this.events.publish(new RecoveryCodesRegenerated(input.userId));
    return { kind: 'regenerated', recoveryCodes };
  }
}
