import { TwoFactorDisabled } from '../../domain/auth/two-factor-events.js';
import { twoFactorState } from '../../domain/auth/two-factor.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';

export type DisableTwoFactorResult = { kind: 'disabled' } | { kind: 'unknown-user' };

/**
 * Turns two-factor off and forgets the secret and the recovery codes; a pending setup is
 * abandoned the same way. Idempotent. The page guards it with `requirePasswordConfirmed`:
 * a borrowed, unlocked session must not be enough to remove the second factor.
 */
export class DisableTwoFactor {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly events: EventBus,
  ) {}

  async execute(input: { userId: number }): Promise<DisableTwoFactorResult> {
    const settings = await this.store.find(input.userId);
    if (settings === null) return { kind: 'unknown-user' };
    if (twoFactorState(settings).kind === 'off') return { kind: 'disabled' };
    if (!(await this.store.clear(input.userId))) return { kind: 'unknown-user' };
    // Told only when a second factor really went away, not for an abandoned setup.
    if (settings.confirmedAt !== null) await this.events.publish(new TwoFactorDisabled(input.userId));
    return { kind: 'disabled' };
  }
}
