import { twoFactorState } from '../../domain/auth/two-factor.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';
import type { UserRepository } from '../../ports/user-repository.js';
import type { TwoFactorSetup, TwoFactorSetups } from './two-factor-setups.js';

export type TwoFactorSettingsView =
  | { kind: 'off' }
  /** Waiting for a first code: the page shows the QR code again (after a redirect, a reload). */
  | { kind: 'pending'; setup: TwoFactorSetup }
  | { kind: 'on'; confirmedAt: Date; recoveryCodesLeft: number }
  | { kind: 'unknown-user' };

/**
 * What the account page shows about two-factor. A pending setup whose secret no longer opens
 * (APP_KEY changed) shows as off: the user can only start again.
 */
export class ShowTwoFactorSettings {
  constructor(
    private readonly users: UserRepository,
    private readonly store: TwoFactorStore,
    private readonly box: SecretBox,
    private readonly setups: TwoFactorSetups,
  ) {}

  async execute(input: { userId: number }): Promise<TwoFactorSettingsView> {
    const user = await this.users.findById(input.userId);
    const settings = user === null ? null : await this.store.find(user.id);
    if (user === null || settings === null) return { kind: 'unknown-user' };
    const state = twoFactorState(settings);
    switch (state.kind) {
      case 'off':
        return { kind: 'off' };
      case 'on':
        return { kind: 'on', confirmedAt: state.confirmedAt, recoveryCodesLeft: state.recoveryCodesLeft };
      case 'pending': {
        const secret = this.box.open(state.sealedSecret);
        return secret === null ? { kind: 'off' } : { kind: 'pending', setup: await this.setups.describe(secret, user.email) };
      }
    }
  }
}
