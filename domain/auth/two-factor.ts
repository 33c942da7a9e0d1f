import { isRecoveryCodeHash } from './recovery-codes.js';

/**
 * A user's two-factor settings as stored (columns `two_factor_*` of `users`).
 *
 * - `sealedSecret`: the TOTP secret, encrypted at rest (a leaked table or backup does not give
 *   away the codes); only a `SecretBox` with the app's key opens it.
 * - `recoveryCodeHashes`: the hashes of the unused recovery codes.
 * - `confirmedAt`: when a first code proved the user's app holds the secret.
 * - `lastUsedStep`: the TOTP time step of the last accepted code; a code of that step or an
 *   earlier one is refused, so a code seen over a shoulder or in a log cannot be used again.
 */
export interface TwoFactorSettings {
  readonly sealedSecret: string | null;
  readonly recoveryCodeHashes: readonly string[];
  readonly confirmedAt: Date | null;
  readonly lastUsedStep: number | null;
}

export const TWO_FACTOR_OFF: TwoFactorSettings = Object.freeze({
  sealedSecret: null,
  recoveryCodeHashes: Object.freeze([]),
  confirmedAt: null,
  lastUsedStep: null,
});

export type TwoFactorState =
  | { readonly kind: 'off' }
  /** A secret was made and shown; it counts for nothing until a first code confirms it. */
  | { readonly kind: 'pending'; readonly sealedSecret: string }
  | {
      readonly kind: 'on';
      /** Null only in a row damaged by hand: then only recovery codes can pass the challenge. */
      readonly sealedSecret: string | null;
      readonly confirmedAt: Date;
      readonly recoveryCodesLeft: number;
    };

/**
 * Which of the three states the settings are in. Confirmation decides 'on', whatever else the
 * row holds: a row that says confirmed but lost its secret fails closed (the user must still
 * pass a second step, with a recovery code), never open.
 */
export function twoFactorState(settings: TwoFactorSettings): TwoFactorState {
  if (settings.confirmedAt !== null) {
    return {
      kind: 'on',
      sealedSecret: settings.sealedSecret,
      confirmedAt: settings.confirmedAt,
      recoveryCodesLeft: settings.recoveryCodeHashes.filter(isRecoveryCodeHash).length,
    };
  }
  if (settings.sealedSecret !== null && settings.sealedSecret !== '') return { kind: 'pending', sealedSecret: settings.sealedSecret };
  return { kind: 'off' };
}

/** Whether a login must pass the second step: only once two-factor is confirmed. */
export function twoFactorRequired(settings: TwoFactorSettings): boolean {
  return twoFactorState(settings).kind === 'on';
}

/** Whether an accepted code of time step `step` may be used: only when later than the last one used. */
export function stepUnused(settings: TwoFactorSettings, step: number): boolean {
  return settings.lastUsedStep === null || step > settings.lastUsedStep;
}
