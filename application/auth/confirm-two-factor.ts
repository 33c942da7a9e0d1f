import { TwoFactorEnabled } from '../../domain/auth/two-factor-events.js';
import { twoFactorState } from '../../domain/auth/two-factor.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { Totp } from '../../ports/totp.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';

export type ConfirmTwoFactorResult =
  | { kind: 'confirmed' }
  /** Not the app's current code: the setup stays pending, the user tries again. */
  | { kind: 'invalid-code' }
  /** Nothing to confirm (off, already on, or a setup whose secret no longer opens): start again. */
  | { kind: 'not-pending' };

/**
 * Turns two-factor on with a first code from the app, which proves the app holds the secret;
 * until then a login never asks for a code, so a half-done setup locks nobody out. The code's
 * time step counts as used: it cannot pass the next login's challenge too.
 */
export class ConfirmTwoFactor {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly box: SecretBox,
    private readonly totp: Totp,
    private readonly events: EventBus,
    private readonly clock: Clock,
  ) {}

  async execute(input: { userId: number; code: string }): Promise<ConfirmTwoFactorResult> {
    const settings = await this.store.find(input.userId);
    const state = settings === null ? null : twoFactorState(settings);
    if (state?.kind !== 'pending') return { kind: 'not-pending' };
    const secret = this.box.open(state.sealedSecret);
    if (secret === null) return { kind: 'not-pending' };
    const now = this.clock.now();
    const step = this.totp.match(secret, input.code, now);
    if (step === null) return { kind: 'invalid-code' };
    // Conditional on the secret just read: a setup restarted meanwhile (another tab) has a
    // new secret, and this code, made from the old one, must not turn that one on.
    if (!(await this.store.confirm(input.userId, state.sealedSecret, now, step))) return { kind: 'not-pending' };
    await this.events.publish(new TwoFactorEnabled(input.userId));
    return { kind: 'confirmed' };
  }
}
