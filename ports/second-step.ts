/**
 * What a login asks after its first step (a password, or a provider's callback): whether the
 * user must also pass a second one, and whether an answer passes it. While it waits, the
 * visitor is not logged in (see `domain/auth/pending-login.ts`). TOTP is the built-in step; a
 * module may bind another (a security key, a code by mail).
 */
export interface SecondStep {
  required(user: { readonly id: number }): Promise<boolean>;
  /**
   * Checks an answer and, when it passes, uses it up: the same code or recovery code never
   * passes twice. A user who needs no second step passes nothing.
   */
  verify(user: { readonly id: number }, answer: SecondStepAnswer): Promise<SecondStepResult>;
}

/** What the challenge form sends: the app's current code, or one of the recovery codes. */
export type SecondStepAnswer = { readonly kind: 'code'; readonly code: string } | { readonly kind: 'recovery-code'; readonly code: string };

export type SecondStepResult =
  | { readonly kind: 'passed'; readonly via: SecondStepAnswer['kind'] }
  /** Wrong, malformed, already used, or no second step to pass: one answer for all of them. */
  | { readonly kind: 'invalid' };
