/**
 * Events of two-factor sign-in, for the activity log and for mail to the user ('a recovery
 * code was used'). Plain values with ids only: never a secret, a code or a hash.
 */
export class TwoFactorEnabled {
  constructor(readonly userId: number) {}
}

export class TwoFactorDisabled {
  constructor(readonly userId: number) {}
}

export class RecoveryCodesRegenerated {
  constructor(readonly userId: number) {}
}

export class RecoveryCodeUsed {
  constructor(
    readonly userId: number,
    /** Codes still unused after this one: a page or a mail can say when to make new ones. */
    readonly left: number,
  ) {}
}
