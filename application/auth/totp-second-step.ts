import { RecoveryCodeUsed } from '../../domain/auth/two-factor-events.js';
import { normalizeRecoveryCode, recoveryCodeHash } from '../../domain/auth/recovery-codes.js';
import { stepUnused, twoFactorRequired, twoFactorState } from '../../domain/auth/two-factor.js';
import type { Clock } from '../../ports/clock.js';
import type { EventBus } from '../../ports/event-bus.js';
import type { Logger } from '../../ports/logger.js';
import type { SecondStep, SecondStepAnswer, SecondStepResult } from '../../ports/second-step.js';
import type { SecretBox } from '../../ports/secret-box.js';
import type { Totp } from '../../ports/totp.js';
import type { TwoFactorStore } from '../../ports/two-factor-store.js';

const INVALID: SecondStepResult = { kind: 'invalid' };

/**
 * The built-in second step: a code from an authenticator app (RFC 6238), or a recovery code.
 * Required once the user confirmed two-factor. A code passes once: its time step is recorded
 * and that step, or an earlier one, never passes again; a recovery code is removed when used.
 */
export class TotpSecondStep implements SecondStep {
  constructor(
    private readonly store: TwoFactorStore,
    private readonly box: SecretBox,
    private readonly totp: Totp,
    private readonly events: EventBus,
    private readonly logger: Logger,
    private readonly clock: Clock,
  ) {}

  async required(user: { readonly id: number }): Promise<boolean> {
    const settings = await this.store.find(user.id);
    return settings !== null && twoFactorRequired(settings);
  }

  async verify(user: { readonly id: number }, answer: SecondStepAnswer): Promise<SecondStepResult> {
    switch (answer.kind) {
      case 'code':
        return this.verifyCode(user.id, answer.code);
      case 'recovery-code':
        return this.verifyRecoveryCode(user.id, answer.code);
    }
  }

  private async verifyCode(userId: number, code: string): Promise<SecondStepResult> {
    const settings = await this.store.find(userId);
    const state = settings === null ? null : twoFactorState(settings);
    if (settings === null || state?.kind !== 'on' || state.sealedSecret === null) return INVALID;
    const secret = this.box.open(state.sealedSecret);
    if (secret === null) {
      // Recovery codes still work (they are hashes, not sealed); the operator should know why codes fail.
      this.logger.warn('a two-factor secret cannot be opened (was APP_KEY changed?); only recovery codes can pass', { userId });
      return INVALID;
    }
    const step = this.totp.match(secret, code, this.clock.now());
    // Checked before the write to spare it for a plain replay; the store checks again atomically.
    if (step === null || !stepUnused(settings, step)) return INVALID;
    return (await this.store.useStep(userId, step)) ? { kind: 'passed', via: 'code' } : INVALID;
  }

  private async verifyRecoveryCode(userId: number, code: string): Promise<SecondStepResult> {
    const canonical = normalizeRecoveryCode(code);
    if (canonical === null) return INVALID;
    const left = await this.store.useRecoveryCode(userId, recoveryCodeHash(userId, canonical));
    if (left === null) return INVALID;
    await this.events.publish(new RecoveryCodeUsed(userId, left));
    return { kind: 'passed', via: 'recovery-code' };
  }
}
